// Row types of the analyses tables (migrations/0006_analyses.sql, 0008_investigations.sql, 0025_first_scans.sql).
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
  /** layered analyses (kind 'investigation', migrations/0008_investigations.sql) */
  incremental: ColumnType<boolean, boolean | undefined, boolean>;
  completed_layers: ColumnType<number, number | undefined, number>;
  patterns_detected: ColumnType<number, number | undefined, number>;
  started_at: NullableTimestamp;
  layer_state: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  completed_at: NullableTimestamp;
}

/** One completed layer of a layered analysis: `body` is the layer result's JSON text, served as stored. */
export interface AnalysisLayersTable {
  analysis_id: string;
  layer: number;
  body: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

/**
 * A registered address's first scan waiting for a place under its project's share of the risk-job cap
 * (src/analysis/first-scans.ts): queued as a risk job when one frees.
 */
export interface DeferredScansTable {
  project_id: number;
  chain_id: number;
  address: string;
  requested_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface AnalysisTables {
  analyses: AnalysesTable;
  analysis_layers: AnalysisLayersTable;
  deferred_scans: DeferredScansTable;
}
