// Row types of the imports' own record: one row per import run (migrations/0002_chain_data.sql), and the
// workers' scheduled refresh of each public list (migrations/0046_list_refreshes.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ImportRunsTable {
  id: Generated<string>;
  kind: string;
  source: string;
  status: "running" | "completed" | "failed";
  rows_read: ColumnType<string, number | undefined, number | string>;
  rows_written: ColumnType<string, number | undefined, number | string>;
  error: string | null;
  started_at: Generated<Date>;
  finished_at: Timestamp | null;
}

export interface ListRefreshesTable {
  kind: string;
  last_attempt_at: Date | null;
  last_success_at: Date | null;
  /** imported, unchanged, failed, refused (shrunk, older or empty: nothing changed) */
  last_outcome: string | null;
  last_error: string | null;
  failures: ColumnType<number, number | undefined, number>;
}

export interface IngestTables {
  import_runs: ImportRunsTable;
  list_refreshes: ListRefreshesTable;
}
