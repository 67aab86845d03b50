// Row types of the projects and audit_log tables (migrations/0001_projects_keys.sql, 0019_jurisdictions.sql,
// 0020_integrations.sql, 0027_audit_chain.sql, which moved the integrator's settings to src/integrator), and the audit
// chains' signed heads (0039_audit_heads.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  jurisdictions: ColumnType<string[], string | undefined, string>;
  /** each jurisdiction's settings by code (migrations/0019_jurisdictions.sql) */
  jurisdiction_settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  client_jurisdiction: ColumnType<unknown | null, string | null | undefined, string | null>;
  is_demo: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  project_id: number | null;
  actor: string;
  action: string;
  target: string | null;
  details: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
  /** the hash of the entry before it in its chain (migrations/0027_audit_chain.sql; src/projects/audit-chain.ts) */
  prev_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** sha256 of its contents and prev_hash; null only on an entry written around the service */
  hash: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A chain's last entry and length, signed (src/projects/audit-head.ts). */
export interface AuditHeadsTable {
  /** the project's id, 0 for the service's own chain */
  chain: number;
  seq: ColumnType<string, string | number, string | number>;
  entry_id: ColumnType<string, string, string>;
  hash: string;
  signed_at: ColumnType<Date, Date | string, Date | string>;
  key_id: string;
  signature: string;
}

/** A project's settings of each jurisdiction, by code (each checked against its jurisdiction's schema). */
export type JurisdictionSettings = Record<string, Record<string, unknown>>;

export interface ProjectTables {
  projects: ProjectsTable;
  audit_log: AuditLogTable;
  audit_heads: AuditHeadsTable;
}
