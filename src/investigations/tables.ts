// Row types of the investigations table (migrations/0008_investigations.sql).
import type { ColumnType } from "kysely";

export interface InvestigationsTable {
  id: string;
  project_id: number;
  name: string;
  address: string;
  chain_id: number;
  incremental: boolean;
  max_depth: number;
  analysis_id: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface InvestigationTables {
  investigations: InvestigationsTable;
}
