// Row types of the people who sign in, their sessions, set-password links and failed sign-ins
// (migrations/0040_users.sql).
import type { ColumnType, Generated } from "kysely";
import type { Role } from "../platform/http/auth.ts";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<number>;
  project_id: number;
  email: string;
  display_name: string;
  role: Role;
  password_hash: ColumnType<string | null, string | null | undefined, string | null>;
  totp_secret_enc: ColumnType<string | null, string | null | undefined, string | null>;
  totp_pending_enc: ColumnType<string | null, string | null | undefined, string | null>;
  totp_last_step: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  lang: ColumnType<"es" | "en", "es" | "en" | undefined, "es" | "en">;
  time_zone: ColumnType<string, string | undefined, string>;
  disabled_at: NullableTimestamp;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserSessionsTable {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  method: "password" | "oidc";
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface UserPasswordTokensTable {
  token_hash: string;
  user_id: number;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface LoginFailuresTable {
  key: string;
  window_start: Timestamp;
  failures: number;
}

export interface UserTables {
  users: UsersTable;
  user_sessions: UserSessionsTable;
  user_password_tokens: UserPasswordTokensTable;
  login_failures: LoginFailuresTable;
}
