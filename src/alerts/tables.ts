// Row types of the alerts room's tables (migrations/0028_alerts.sql, 0034_pep_approval.sql).
import type { ColumnType, Generated } from "kysely";
import type { AlertEvidence, Approval } from "./schemas.ts";

type Json<T> = ColumnType<T, string, string>;

export interface AlertsTable {
  id: Generated<string>;
  project_id: number;
  chain_id: number;
  address: string;
  user_id: string | null;
  cause: string;
  cause_key: string;
  level: string;
  reason: string;
  evidence: Json<AlertEvidence>;
  deadline: Date | null;
  deadline_filing: string | null;
  deadline_source: string | null;
  address_id: string | null;
  notification_id: string | null;
  status: ColumnType<string, string | undefined, string>;
  resolution: string | null;
  reference: string | null;
  assignee: string | null;
  /** a PEP's operations approved by a directivo: who, when, and the key that recorded it */
  approval: ColumnType<Approval | null, string | null | undefined, string | null>;
  created_at: Date;
  updated_at: Date;
}

export interface AlertHistoryTable {
  id: Generated<string>;
  alert_id: string;
  at: Date;
  actor: string;
  change: Json<Record<string, unknown>>;
}

export interface AlertSettingsTable {
  project_id: number;
  warn_rules: ColumnType<string[], string | undefined, string>;
  /** null: the service's VIGIA_ALERT_LEVEL */
  alert_level: string | null;
}

export interface AlertTables {
  alerts: AlertsTable;
  alert_history: AlertHistoryTable;
  alert_settings: AlertSettingsTable;
}
