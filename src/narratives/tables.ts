// Row types of the wallet report tables (migrations/0015_wallet_reports.sql).
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type ReportLanguage = "en" | "es";
export type ReportWriter = "llm" | "deterministic";

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
}

export interface NarrativeTables {
  wallet_reports: WalletReportsTable;
  wallet_report_generations: WalletReportGenerationsTable;
}
