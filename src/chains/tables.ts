// Row types of the chains room: the cached network statistics (migrations/0001 chain_snapshots). The chain data
// itself is the ledger's (src/ledger/tables.ts).
import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ChainSnapshotsTable {
  chain_id: number;
  data: ColumnType<Record<string, unknown>, string, string>;
  fetched_at: Timestamp;
}

export interface ChainsTables {
  chain_snapshots: ChainSnapshotsTable;
}
