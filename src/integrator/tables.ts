// Row types of the integrator's tables: its settings and health (migrations/0020_integrations.sql) and the
// notification outbox with its attempts (0012_notifications.sql).
import type { ColumnType, Generated } from "kysely";
import type { SigningScheme } from "./signing.ts";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface IntegrationsTable {
  project_id: number;
  integration_url: ColumnType<string | null, string | null | undefined, string | null>;
  signing_scheme: ColumnType<SigningScheme, SigningScheme | undefined, SigningScheme>;
  webhook_secret_enc: string;
  /** a rotated-out secret, valid until previous_webhook_secret_until */
  previous_webhook_secret_enc: ColumnType<string | null, string | null | undefined, string | null>;
  previous_webhook_secret_until: NullableTimestamp;
  /** since when every call has failed (null: the last one succeeded), and the last failure's reason */
  failing_since: NullableTimestamp;
  last_failure: ColumnType<string | null, string | null | undefined, string | null>;
  /** deliveries wait until then after a timeout or an unreachable endpoint, doubling with each in a row */
  delivery_paused_until: NullableTimestamp;
  delivery_backoffs: ColumnType<number, number | undefined, number>;
  updated_at: Timestamp;
}

export const NOTIFICATION_STATUSES = ["pending", "delivering", "delivered", "failed"] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

export interface NotificationsTable {
  /** bigserial: read as a string by the drivers */
  id: Generated<string>;
  message_id: string;
  project_id: number;
  address_id: string | null;
  chain_id: number | null;
  tx_hash: string | null;
  log_index: number | null;
  type: "notification" | "error";
  body: string;
  status: ColumnType<NotificationStatus, NotificationStatus | undefined, NotificationStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  round_start: ColumnType<number, number | undefined, number>;
  next_attempt_at: Timestamp;
  lease_until: NullableTimestamp;
  last_error: string | null;
  delivered_at: NullableTimestamp;
  created_at: Timestamp;
  /** when an admin last asked for it again (0020): redeliveries are limited per project and minute */
  redelivered_at: NullableTimestamp;
}

export interface NotificationAttemptsTable {
  notification_id: string;
  attempt: number;
  started_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** the status of the call signed with the rotated-out secret that the integrator refused, before this one */
  refused_status: ColumnType<number | null, number | null | undefined, number | null>;
  refused_ms: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface IntegratorTables {
  integrations: IntegrationsTable;
  notifications: NotificationsTable;
  notification_attempts: NotificationAttemptsTable;
}
