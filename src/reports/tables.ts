// Row types of the report tables (migrations/0014_reports.sql, 0019_jurisdictions.sql).
import type { ColumnType, Generated } from "kysely";
import type { FileEntry, FileKind } from "../jurisdictions/index.ts";

type Json<T> = ColumnType<T, string, string>;
type Count = ColumnType<number, number | undefined, number>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

/** A jurisdiction's code (src/jurisdictions' registry). */
export type CountryCode = string;
export type ReportKind = FileKind;
export type GenerationTrigger = "schedule" | "api" | "urgent";

export interface GenerationProblem {
  /** the user whose file was not written; absent for a problem of the whole generation */
  userId?: string;
  reason: string;
  /** a reason class (profile_unreadable, profile_incomplete, no_value, no_reporting_entity, invalid_file) */
  code?: string;
  /** the profile field at fault, when one is */
  field?: string;
  /** the file it blocks, as a person reads it */
  blocks?: string;
}

/** What a file's avisos were when written: a filed one that changes later becomes a correction. */
export type ReportEntry = FileEntry;

export interface ReportGenerationsTable {
  id: Generated<string>;
  project_id: number;
  country_code: CountryCode;
  period: string;
  trigger: GenerationTrigger;
  actor: string;
  status: "completed" | "failed";
  written: Count;
  unchanged: Count;
  removed: Count;
  problems: Json<GenerationProblem[]>;
  address_id: string | null;
  chain_id: number | null;
  tx_hash: string | null;
  log_index: number | null;
  started_at: Timestamp;
  finished_at: Timestamp;
}

export interface ReportsTable {
  id: Generated<string>;
  project_id: number;
  country_code: CountryCode;
  period: string;
  kind: ReportKind;
  user_id: string | null;
  version: ColumnType<number, number | undefined, number>;
  name: string;
  path: string;
  storage_key: string;
  media_type: string;
  sha256: string;
  size: number;
  status: ColumnType<"draft" | "filed", "draft" | "filed" | undefined, "draft" | "filed">;
  profile_enc: string | null;
  entries: Json<ReportEntry[]>;
  generation_id: string | null;
  address_id: string | null;
  chain_id: number | null;
  tx_hash: string | null;
  log_index: number | null;
  filed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  filed_by: string | null;
  folio: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ReportFailuresTable {
  project_id: number;
  country_code: CountryCode;
  period: string;
  kind: ReportKind;
  stem: string;
  user_id: string | null;
  code: string;
  reason: string;
  field: string | null;
  blocks: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface FilingMarksTable {
  project_id: number;
  country_code: CountryCode;
  period: string;
  filing: string;
  folio: string | null;
  filed_at: Timestamp;
  filed_by: string;
}

export interface ReportTables {
  report_generations: ReportGenerationsTable;
  reports: ReportsTable;
  report_failures: ReportFailuresTable;
  filing_marks: FilingMarksTable;
}
