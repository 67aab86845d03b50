// Row types of the notification tables (migrations/0012_notifications.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

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
}

export interface NotificationAttemptsTable {
  notification_id: string;
  attempt: number;
  started_at: Timestamp;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface NotificationTables {
  notifications: NotificationsTable;
  notification_attempts: NotificationAttemptsTable;
}
