// Row types of the analyses table (migrations/0006_analyses.sql).
import type { ColumnType } from "kysely";

type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;

export type AnalysisKind = "scan" | "quick" | "job" | "investigation";
export type AnalysisStatus = "queued" | "running" | "completed" | "failed";

export interface AnalysesTable {
  id: string;
  project_id: number;
  chain_id: number;
  address: string;
  kind: AnalysisKind;
  max_depth: number;
  window_from: NullableTimestamp;
  window_to: NullableTimestamp;
  status: AnalysisStatus;
  risk_score: number | null;
  risk_level: string | null;
  risk_reason: string | null;
  suspicious_activity: boolean | null;
  patterns: ColumnType<string[], string | undefined, string>;
  result: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  model_version: string | null;
  transactions_analyzed: number | null;
  unique_addresses: number | null;
  duration_ms: number | null;
  error: string | null;
  job_id: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  completed_at: NullableTimestamp;
}

export interface AnalysisTables {
  analyses: AnalysesTable;
}
