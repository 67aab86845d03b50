// Row type of the database file store (src/platform/storage/db-store.ts): files kept in the database when no
// directory is configured (migrations/0014_reports.sql).
import type { ColumnType } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface StoredFilesTable {
  path: string;
  content: Uint8Array;
  size: number;
  created_at: Timestamp;
}

export interface StorageTables {
  stored_files: StoredFilesTable;
}
