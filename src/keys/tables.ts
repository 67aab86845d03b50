// Row types of the projects, api_keys and audit_log tables (migrations/0001_projects_keys.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface ProjectsTable {
  id: Generated<number>;
  name: string;
  integration_url: string | null;
  jurisdictions: ColumnType<string[], string | undefined, string>;
  signing_scheme: ColumnType<SigningScheme, SigningScheme | undefined, SigningScheme>;
  webhook_secret_enc: string;
  /** a rotated-out secret, valid until previous_webhook_secret_until (migrations/0012_notifications.sql) */
  previous_webhook_secret_enc: ColumnType<string | null, string | null | undefined, string | null>;
  previous_webhook_secret_until: ColumnType<
    Date | null,
    Date | string | null | undefined,
    Date | string | null
  >;
  /** each jurisdiction's settings by code (migrations/0019_jurisdictions.sql) */
  jurisdiction_settings: ColumnType<Record<string, unknown>, string | undefined, string>;
  client_jurisdiction: ColumnType<unknown | null, string | null | undefined, string | null>;
  is_demo: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}

export interface ApiKeysTable {
  id: Generated<number>;
  project_id: number;
  label: string;
  role: "admin" | "developer" | "viewer";
  key_hmac: string;
  key_enc: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface AuditLogTable {
  id: Generated<string>;
  project_id: number | null;
  actor: string;
  action: string;
  target: string | null;
  details: Json<Record<string, unknown>>;
  created_at: Generated<Date>;
}

export type SigningScheme = "standard-webhooks" | "hmac-canonical";

/** A project's settings of each jurisdiction, by code (each checked against its jurisdiction's schema). */
export type JurisdictionSettings = Record<string, Record<string, unknown>>;

export type { MxReportingEntity } from "../jurisdictions/index.ts";

export interface KeysTables {
  projects: ProjectsTable;
  api_keys: ApiKeysTable;
  audit_log: AuditLogTable;
}
