// Row types of the chain tables.
import type { ColumnType } from "kysely";

export interface ChainSnapshotsTable {
  chain_id: number;
  data: ColumnType<Record<string, unknown>, string, string>;
  fetched_at: ColumnType<Date, Date | string, Date | string>;
}

export interface ChainsTables {
  chain_snapshots: ChainSnapshotsTable;
}
