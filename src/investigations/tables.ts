// Row types of the investigations table (migrations/0008_investigations.sql, 0020_integrations.sql).
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
  /** when an officer closed it (migrations/0020_integrations.sql): it no longer counts against the cap */
  closed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface InvestigationTables {
  investigations: InvestigationsTable;
}
