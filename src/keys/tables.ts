// Row type of the api_keys table (migrations/0001_projects_keys.sql).
import type { Generated } from "kysely";

export interface ApiKeysTable {
  id: Generated<number>;
  project_id: number;
  label: string;
  role: "admin" | "officer" | "developer" | "viewer";
  key_hmac: string;
  key_enc: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface KeysTables {
  api_keys: ApiKeysTable;
}
