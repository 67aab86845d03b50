// Reads and writes of layered analyses: the analyses row (kind 'investigation') with its progress and expansion
// state, and its immutable layers (migrations/0008_investigations.sql). A layer is committed in one transaction
// with the row's progress and state, and only once: a second run of the same layer (a retried job, a standard
// investigation driving its analysis while the safety-net job does too) finds it stored and changes nothing.
import type { Kysely } from "kysely";
import type { LayerPattern, RiskLevel } from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import type { GraphJson } from "../graph/index.ts";
import type { ScanResult, StoredResult } from "../result.ts";
import { toJson } from "../store.ts";
import type { AnalysisStatus } from "../tables.ts";
import type { CompletedLayer, LayerExposure, LayerGraph } from "./layer-result.ts";

/** What the next layer starts from: the graph after the last completed layer, that layer's patterns and score. */
export interface LayerState {
  graph: GraphJson;
  patterns: LayerPattern[];
  /** `exposure`: absent from states stored before layers carried it (an analysis running across the upgrade) */
  risk: { score: number; level: RiskLevel; reason: string; exposure?: LayerExposure[] };
}

export interface LayeredAnalysis {
  id: string;
  projectId: number;
  chainId: number;
  address: string;
  maxDepth: number;
  incremental: boolean;
  status: AnalysisStatus;
  completedLayers: number;
  riskScore: number | null;
  patternsDetected: number;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  updatedAt: Date;
}

const date = (d: Date | string | null) => (d === null ? null : new Date(d));

export async function insertLayeredAnalysis(
  db: Kysely<DB>,
  a: {
    id: string;
    projectId: number;
    chainId: number;
    address: string;
    maxDepth: number;
    incremental: boolean;
  },
): Promise<void> {
  await db
    .insertInto("analyses")
    .values({
      id: a.id,
      project_id: a.projectId,
      chain_id: a.chainId,
      address: a.address,
      kind: "investigation",
      max_depth: a.maxDepth,
      incremental: a.incremental,
      status: "queued",
    })
    .execute();
}

/** A layered analysis of the project (another project's, or one of another kind, is not found). */
export async function getLayeredAnalysis(
  db: Kysely<DB>,
  projectId: number | undefined,
  id: string,
): Promise<LayeredAnalysis | undefined> {
  let query = db
    .selectFrom("analyses")
    .select([
      "id",
      "project_id",
      "chain_id",
      "address",
      "max_depth",
      "incremental",
      "status",
      "completed_layers",
      "risk_score",
      "patterns_detected",
      "error",
      "created_at",
      "started_at",
      "updated_at",
    ])
    .where("id", "=", id)
    .where("kind", "=", "investigation");
  if (projectId !== undefined) query = query.where("project_id", "=", projectId);
  const r = await query.executeTakeFirst();
  if (!r) return undefined;
  return {
    id: r.id,
    projectId: r.project_id,
    chainId: r.chain_id,
    address: r.address,
    maxDepth: r.max_depth,
    incremental: r.incremental,
    status: r.status,
    completedLayers: r.completed_layers,
    riskScore: r.risk_score,
    patternsDetected: r.patterns_detected,
    error: r.error,
    createdAt: new Date(r.created_at),
    startedAt: date(r.started_at),
    updatedAt: new Date(r.updated_at),
  };
}

/** The latest layered analysis of this wallet, chain and depth in the project that has not failed. */
export async function findReusable(
  db: Kysely<DB>,
  key: { projectId: number; chainId: number; address: string; maxDepth: number },
): Promise<string | undefined> {
  const row = await db
    .selectFrom("analyses")
    .select("id")
    .where("project_id", "=", key.projectId)
    .where("chain_id", "=", key.chainId)
    .where("address", "=", key.address)
    .where("max_depth", "=", key.maxDepth)
    .where("kind", "=", "investigation")
    .where("status", "!=", "failed")
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

export async function readState(db: Kysely<DB>, id: string): Promise<LayerState | undefined> {
  const row = await db.selectFrom("analyses").select("layer_state").where("id", "=", id).executeTakeFirst();
  return row?.layer_state ? (JSON.parse(row.layer_state) as LayerState) : undefined;
}

export async function markStarted(db: Kysely<DB>, id: string): Promise<void> {
  const now = new Date();
  await db
    .updateTable("analyses")
    .set({ status: "running", started_at: now, updated_at: now })
    .where("id", "=", id)
    .where("status", "=", "queued")
    .execute();
}

export interface LayerCommit {
  id: string;
  layer: number;
  /** the layer result's JSON text */
  body: string;
  state: LayerState;
  /** null: the layer withheld its verdict (no current data) */
  riskScore: number | null;
  patternsDetected: number;
  /**
   * the final layer also completes the analysis with its scan result, or fails it with the failed result of a
   * verdict withheld for want of current data (src/analysis/coverage.ts)
   */
  final?:
    | { result: StoredResult; durationMs: number }
    | { error: string; failed: ScanResult; durationMs: number }
    | undefined;
}

/**
 * Stores a layer with the row's progress and the next layer's starting state, in one transaction. Returns false
 * (and changes nothing) when that layer was already stored.
 */
export async function commitLayer(db: Kysely<DB>, c: LayerCommit): Promise<boolean> {
  return await db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto("analysis_layers")
      .values({ analysis_id: c.id, layer: c.layer, body: c.body })
      .onConflict((oc) => oc.columns(["analysis_id", "layer"]).doNothing())
      .returning("layer")
      .executeTakeFirst();
    if (!inserted) return false;
    const now = new Date();
    const final = c.final;
    await tx
      .updateTable("analyses")
      .set({
        completed_layers: c.layer + 1,
        layer_state: final ? null : toJson(c.state),
        risk_score: c.riskScore,
        patterns_detected: c.patternsDetected,
        updated_at: now,
        ...(final && "error" in final
          ? {
              status: "failed" as AnalysisStatus,
              completed_at: now,
              error: final.error,
              result: toJson(final.failed),
              duration_ms: Math.round(final.durationMs),
            }
          : final
            ? {
                status: "completed" as AnalysisStatus,
                completed_at: now,
                risk_level: final.result.riskLevel,
                risk_reason: final.result.riskReason,
                suspicious_activity: final.result.suspiciousActivity,
                patterns: toJson(final.result.patterns),
                result: toJson(final.result),
                model_version: final.result.modelVersion ?? null,
                transactions_analyzed: final.result.analysisEvidence.transactionsAnalyzed,
                unique_addresses: final.result.analysisEvidence.uniqueAddressesFound,
                duration_ms: Math.round(final.durationMs),
              }
            : { status: "running" as AnalysisStatus }),
      })
      .where("id", "=", c.id)
      .where("completed_layers", "=", c.layer)
      .execute();
    return true;
  });
}

/** Fails an analysis that has not finished, keeping the reason. */
export async function markFailed(db: Kysely<DB>, id: string, reason: string): Promise<void> {
  const now = new Date();
  await db
    .updateTable("analyses")
    .set({ status: "failed", error: reason, layer_state: null, updated_at: now, completed_at: now })
    .where("id", "=", id)
    .where("status", "in", ["queued", "running"])
    .execute();
}

/** A stored layer's JSON text, as committed. */
export async function readLayerBody(db: Kysely<DB>, id: string, layer: number): Promise<string | undefined> {
  const row = await db
    .selectFrom("analysis_layers")
    .select("body")
    .where("analysis_id", "=", id)
    .where("layer", "=", layer)
    .executeTakeFirst();
  return row?.body;
}

/** The final layer's cumulative graph of a completed analysis (standard investigations answer with it). */
export async function readFinalGraph(
  db: Kysely<DB>,
  id: string,
  maxDepth: number,
): Promise<LayerGraph | undefined> {
  const row = await db
    .selectFrom("analysis_layers")
    .select("body")
    .where("analysis_id", "=", id)
    .where("layer", "=", maxDepth - 1)
    .executeTakeFirst();
  return row ? (JSON.parse(row.body) as CompletedLayer).cumulativeGraph : undefined;
}

/** Unfinished layered analyses last changed before `before`, at most `limit` of them. */
export async function findStalled(
  db: Kysely<DB>,
  before: Date,
  limit: number,
): Promise<{ id: string; kind: "investigation" | "job" }[]> {
  const rows = await db
    .selectFrom("analyses")
    .select(["id", "kind"])
    .where("kind", "in", ["investigation", "job"])
    .where("status", "in", ["queued", "running"])
    .where("updated_at", "<", before)
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind as "investigation" | "job" }));
}

/** Marks an analysis as looked at now (its updated_at). */
export async function touch(db: Kysely<DB>, id: string): Promise<void> {
  await db.updateTable("analyses").set({ updated_at: new Date() }).where("id", "=", id).execute();
}
