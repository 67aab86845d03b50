// Row types of the imports' own record: one row per import run (migrations/0002_chain_data.sql).
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

export interface IngestTables {
  import_runs: ImportRunsTable;
}
