// Row types of the wallet report tables (migrations/0015_wallet_reports.sql, 0022_wallet_report_basis.sql,
// 0026_wallet_report_llm_slots.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type ReportLanguage = "en" | "es";
export type ReportWriter = "llm" | "deterministic";
/** What a report's risk rests on: the project's analysis of that kind, a quick check made for it, or nothing. */
export type RiskSource = "scan" | "job" | "investigation" | "quick" | "none";

export interface WalletReportsTable {
  project_id: number;
  address: string;
  chain_scope: number;
  lang: ReportLanguage;
  markdown: string;
  writer: ReportWriter;
  model: string | null;
  facts_sha256: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  risk_source: ColumnType<RiskSource, RiskSource | undefined, RiskSource>;
  analysis_id: string | null;
  /** when that analysis completed (or the running investigation's latest layer did) */
  analysis_at: ColumnType<Date | null, Date | string | null, Date | string | null>;
  /** the completed layers of an investigation still running; null for a finished analysis */
  analysis_layers: number | null;
}

export interface WalletReportGenerationsTable {
  id: Generated<string>;
  project_id: number;
  address: string;
  chain_scope: number;
  lang: ReportLanguage;
  writer: ReportWriter;
  model: string | null;
  facts_sha256: string;
  llm_called: boolean;
  fallback_reason: string | null;
  duration_ms: number;
  created_at: Timestamp;
  risk_source: ColumnType<RiskSource, RiskSource | undefined, RiskSource>;
  analysis_id: string | null;
  /** the role of the key that asked for recreate=true; null when no report was cached */
  refresh_role: string | null;
}

/** A call to the LLM a report reserved under the project's hourly cap (migrations/0026_wallet_report_llm_slots.sql). */
export interface WalletReportLlmSlotsTable {
  id: Generated<string>;
  project_id: number;
  reserved_at: Timestamp;
}

export interface NarrativeTables {
  wallet_reports: WalletReportsTable;
  wallet_report_generations: WalletReportGenerationsTable;
  wallet_report_llm_slots: WalletReportLlmSlotsTable;
}
