// Reads and writes of the analyses table (migrations/0006_analyses.sql). Every analysis has its id (a UUID made
// here); results are stored whole in `result` with their headline figures in columns for lists and indexes.
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { ScanResult, StoredResult } from "./result.ts";
import type { AnalysisKind, AnalysisStatus } from "./tables.ts";

export const newAnalysisId = () => randomUUID();

/** JSON for jsonb columns: bigints as decimal strings. */
export const toJson = (value: unknown) =>
  JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v));

export interface AnalysisHeader {
  id: string;
  projectId: number;
  chainId: number;
  address: string;
  kind: AnalysisKind;
  maxDepth: number;
  window?: { from?: Date | undefined; to?: Date | undefined } | undefined;
}

/** How an analysis ended: its result, or the reason it failed. */
type Outcome =
  | { result: StoredResult; durationMs: number }
  /** `failed`: the failed result when there is one to show (a verdict withheld for want of data, with its coverage) */
  | { error: string; durationMs: number; failed?: ScanResult };

/** Stores a finished analysis (completed or failed) in one statement. */
export async function insertFinished(
  db: Kysely<DB>,
  header: AnalysisHeader,
  outcome: Outcome,
): Promise<void> {
  const now = new Date();
  await db
    .insertInto("analyses")
    .values({
      ...headerColumns(header),
      ...outcomeColumns(outcome),
      created_at: now,
      updated_at: now,
      completed_at: now,
    })
    .execute();
}

/** A queued analysis (POST /risk), completed later by its job. */
export async function insertQueued(db: Kysely<DB>, header: AnalysisHeader): Promise<void> {
  await db
    .insertInto("analyses")
    .values({ ...headerColumns(header), status: "queued" })
    .execute();
}

export async function markRunning(db: Kysely<DB>, id: string): Promise<void> {
  await db
    .updateTable("analyses")
    .set({ status: "running", updated_at: new Date() })
    .where("id", "=", id)
    .where("status", "in", ["queued", "running"])
    .execute();
}

export async function setJobId(db: Kysely<DB>, id: string, jobId: string): Promise<void> {
  await db.updateTable("analyses").set({ job_id: jobId }).where("id", "=", id).execute();
}

/** Completes (or fails) a queued analysis. Idempotent: a rerun after a crash overwrites the same row. */
export async function finish(db: Kysely<DB>, id: string, outcome: Outcome): Promise<void> {
  const now = new Date();
  await db
    .updateTable("analyses")
    .set({ ...outcomeColumns(outcome), updated_at: now, completed_at: now })
    .where("id", "=", id)
    .execute();
}

function headerColumns(h: AnalysisHeader) {
  return {
    id: h.id,
    project_id: h.projectId,
    chain_id: h.chainId,
    address: h.address,
    kind: h.kind,
    max_depth: h.maxDepth,
    window_from: h.window?.from ?? null,
    window_to: h.window?.to ?? null,
  };
}

function outcomeColumns(outcome: Outcome) {
  if ("error" in outcome) {
    return {
      status: "failed" as AnalysisStatus,
      error: outcome.error,
      duration_ms: Math.round(outcome.durationMs),
      result: outcome.failed ? toJson(outcome.failed) : null,
    };
  }
  const r = outcome.result;
  return {
    status: "completed" as AnalysisStatus,
    risk_score: r.riskScore,
    risk_level: r.riskLevel,
    risk_reason: r.riskReason,
    suspicious_activity: r.suspiciousActivity,
    patterns: toJson(r.patterns),
    result: toJson(r),
    model_version: r.modelVersion ?? null,
    transactions_analyzed: r.analysisEvidence.transactionsAnalyzed,
    unique_addresses: r.analysisEvidence.uniqueAddressesFound,
    duration_ms: Math.round(outcome.durationMs),
    error: null,
  };
}

export interface StoredAnalysis {
  id: string;
  projectId: number;
  chainId: number;
  address: string;
  kind: AnalysisKind;
  maxDepth: number;
  status: AnalysisStatus;
  result: StoredResult | null;
  error: string | null;
  jobId: string | null;
  windowFrom: Date | null;
  windowTo: Date | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

const COLUMNS = [
  "id",
  "project_id",
  "chain_id",
  "address",
  "kind",
  "max_depth",
  "status",
  "result",
  "error",
  "job_id",
  "window_from",
  "window_to",
  "created_at",
  "updated_at",
  "completed_at",
] as const;

type Row = {
  id: string;
  project_id: number;
  chain_id: number;
  address: string;
  kind: AnalysisKind;
  max_depth: number;
  status: AnalysisStatus;
  result: Record<string, unknown> | null;
  error: string | null;
  job_id: string | null;
  window_from: Date | null;
  window_to: Date | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
};

function fromRow(r: Row): StoredAnalysis {
  const date = (d: Date | string | null) => (d === null ? null : new Date(d));
  const result = typeof r.result === "string" ? JSON.parse(r.result) : r.result;
  return {
    id: r.id,
    projectId: r.project_id,
    chainId: r.chain_id,
    address: r.address,
    kind: r.kind,
    maxDepth: r.max_depth,
    status: r.status,
    result: (result ?? null) as StoredResult | null,
    error: r.error,
    jobId: r.job_id,
    windowFrom: date(r.window_from),
    windowTo: date(r.window_to),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    completedAt: date(r.completed_at),
  };
}

/**
 * One analysis of a project, or undefined (another project's analysis is not found). `projectId` undefined: of
 * any project (the job runner, which has only the id).
 */
export async function getAnalysis(
  db: Kysely<DB>,
  projectId: number | undefined,
  id: string,
): Promise<StoredAnalysis | undefined> {
  let query = db.selectFrom("analyses").select(COLUMNS).where("id", "=", id);
  if (projectId !== undefined) query = query.where("project_id", "=", projectId);
  const row = await query.executeTakeFirst();
  return row ? fromRow(row as Row) : undefined;
}

/**
 * The latest completed scan of each address for a project, on a chain (and at a depth, when given): the stored
 * result skipExisting returns. Scans only (latestStored takes every kind).
 */
export async function latestCompleted(
  db: Kysely<DB>,
  q: { projectId: number; chainId?: number | undefined; addresses: string[]; maxDepth?: number | undefined },
): Promise<Map<string, StoredAnalysis>> {
  if (q.addresses.length === 0) return new Map();
  // DISTINCT ON keeps one row (the latest) per address in the database, instead of reading every rescan's
  // stored result and dropping all but the first here.
  let query = db
    .selectFrom("analyses")
    .distinctOn("address")
    .select(COLUMNS)
    .where("project_id", "=", q.projectId)
    .where("address", "in", q.addresses)
    .where("status", "=", "completed")
    .where("kind", "=", "scan");
  if (q.chainId !== undefined) query = query.where("chain_id", "=", q.chainId);
  if (q.maxDepth !== undefined) query = query.where("max_depth", "=", q.maxDepth);
  const rows = await query.orderBy("address").orderBy("completed_at", "desc").orderBy("id").execute();
  return new Map(rows.map((row) => [row.address, fromRow(row as Row)]));
}

/** The kinds of analysis whose completed result is a verdict on its address (a quick check is never stored). */
const VERDICT_KINDS = ["scan", "job", "investigation"] as const;

/**
 * The project's completed analyses of these addresses whose result is a verdict (a scan, a risk job, an
 * investigation; on one chain when given). A failed analysis, a verdict withheld for want of current data
 * included, is never one. latestVerdictMark and latestStored read the newest of them by when they completed.
 */
function completedVerdicts(
  db: Kysely<DB>,
  q: { projectId: number; addresses: string[]; chainId?: number | undefined },
) {
  let query = db
    .selectFrom("analyses")
    .where("project_id", "=", q.projectId)
    .where("address", "in", q.addresses)
    .where("status", "=", "completed")
    .where("kind", "in", VERDICT_KINDS)
    .where("result", "is not", null);
  if (q.chainId !== undefined) query = query.where("chain_id", "=", q.chainId);
  return query;
}

/**
 * The newest completed analysis of any kind (scan, risk job, investigation) of each address for a project, on a
 * chain when given: what GET .../scan-risk lists and a monitored address shows as its `risk`. The same rule as
 * the wallet report's verdict (latestVerdictMark), less an investigation still running.
 */
export async function latestStored(
  db: Kysely<DB>,
  q: { projectId: number; chainId?: number | undefined; addresses: string[] },
): Promise<Map<string, StoredAnalysis>> {
  if (q.addresses.length === 0) return new Map();
  const rows = await completedVerdicts(db, q)
    .distinctOn("address")
    .select(COLUMNS)
    .orderBy("address")
    .orderBy("completed_at", "desc")
    .orderBy("id")
    .execute();
  return new Map(rows.map((row) => [row.address, fromRow(row as Row)]));
}

/**
 * Of these addresses, those the project has an analysis of (scan, risk job, investigation) queued or running, on a
 * chain when given: their first result is on its way.
 */
export async function unfinishedOf(
  db: Kysely<DB>,
  q: { projectId: number; chainId?: number | undefined; addresses: string[] },
): Promise<Set<string>> {
  if (q.addresses.length === 0) return new Set();
  let query = db
    .selectFrom("analyses")
    .select("address")
    .distinct()
    .where("project_id", "=", q.projectId)
    .where("address", "in", q.addresses)
    .where("status", "in", ["queued", "running"])
    .where("kind", "in", VERDICT_KINDS);
  if (q.chainId !== undefined) query = query.where("chain_id", "=", q.chainId);
  return new Set((await query.execute()).map((r) => r.address));
}

export type { ScanResult };

/**
 * Which analysis of an address a verdict is read from: the project's latest of any kind that has one (a scan, a
 * risk job, an investigation), by when it completed, or an investigation still running by when its latest layer
 * completed (`layers`: its completed layers). latestStored takes the same finished analyses, for many addresses.
 */
export interface VerdictMark {
  id: string;
  kind: AnalysisKind;
  at: Date;
  /** the completed layers of an investigation still running; null for a finished analysis */
  layers: number | null;
}

export async function latestVerdictMark(
  db: Kysely<DB>,
  q: { projectId: number; address: string; chainId?: number | undefined },
): Promise<VerdictMark | undefined> {
  const completed = completedVerdicts(db, { ...q, addresses: [q.address] }).select([
    "id",
    "kind",
    "completed_at",
  ]);
  let running = db
    .selectFrom("analyses as a")
    .innerJoin("analysis_layers as l", (join) =>
      join.onRef("l.analysis_id", "=", "a.id").on(sql<boolean>`l.layer = a.completed_layers - 1`),
    )
    .select(["a.id", "a.completed_layers", "l.created_at"])
    .where("a.project_id", "=", q.projectId)
    .where("a.address", "=", q.address)
    .where("a.kind", "=", "investigation")
    .where("a.status", "=", "running")
    .where("a.completed_layers", ">", 0);
  if (q.chainId !== undefined) running = running.where("a.chain_id", "=", q.chainId);
  const [done, open] = await Promise.all([
    completed.orderBy("completed_at", "desc").orderBy("id").limit(1).executeTakeFirst(),
    running.orderBy("l.created_at", "desc").orderBy("a.id").limit(1).executeTakeFirst(),
  ]);
  const doneMark = done?.completed_at
    ? { id: done.id, kind: done.kind, at: new Date(done.completed_at), layers: null }
    : undefined;
  const openMark = open
    ? {
        id: open.id,
        kind: "investigation" as const,
        at: new Date(open.created_at),
        layers: open.completed_layers,
      }
    : undefined;
  if (!openMark) return doneMark;
  if (!doneMark) return openMark;
  return openMark.at > doneMark.at ? openMark : doneMark;
}
