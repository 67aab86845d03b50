// Row types of the re-screening's tables (migrations/0029_rescreening.sql).
import type { ColumnType } from "kysely";

export interface RescreenCursorTable {
  id: ColumnType<boolean, boolean | undefined, boolean>;
  last_change_id: ColumnType<string, string | number | undefined, string | number>;
  updated_at: Date | null;
}

export interface RescreenPendingTable {
  project_id: number;
  chain_id: number;
  address: string;
  change_ids: ColumnType<string[], string[], string[]>;
  hops: number;
  queued_at: Date;
  claimed_until: Date | null;
}

export interface RescreenTables {
  rescreen_cursor: RescreenCursorTable;
  rescreen_pending: RescreenPendingTable;
}
