// What GET /analysis/{id}/progress and GET /analysis/{id}/layers/{layer} answer (docs/api.md,
// "Investigations and layered analyses"). A completed layer is the
// JSON text stored when it was committed, so every read of it is byte-identical; a layer not processed yet has
// the short form, `pending` (or `failed` once its analysis failed).
import type { Kysely } from "kysely";
import { invalid, MESSAGES, notFound } from "../../platform/errors.ts";
import { isUuid } from "../../platform/http/params.ts";
import type { DB } from "../../schema.ts";
import type { ShortLayer } from "./layer-result.ts";
import type { AnalysisProgressBody } from "./schemas.ts";
import { getLayeredAnalysis, type LayeredAnalysis, readLayerBody } from "./store.ts";

/** An analysis's progress as the API sends it: riskScore is the latest provisional score (0 until the first layer
 * completes), final once completed; error says why a failed analysis failed. */
export type AnalysisProgress = AnalysisProgressBody;
export type ProgressStatus = AnalysisProgress["status"];

export const progressStatus = (status: LayeredAnalysis["status"]): ProgressStatus =>
  status === "queued" ? "pending" : status;

async function find(db: Kysely<DB>, projectId: number, id: string): Promise<LayeredAnalysis> {
  const analysis = isUuid(id) ? await getLayeredAnalysis(db, projectId, id.toLowerCase()) : undefined;
  if (!analysis) throw notFound("Analysis");
  return analysis;
}

export async function readProgress(db: Kysely<DB>, projectId: number, id: string): Promise<AnalysisProgress> {
  const a = await find(db, projectId, id);
  const progress: AnalysisProgress = {
    analysisId: a.id,
    status: progressStatus(a.status),
    completedLayers: a.completedLayers,
    maxDepth: a.maxDepth,
    incremental: a.incremental,
    // 0 before the first layer; null when the latest layer withheld its verdict for want of current data.
    riskScore: a.completedLayers === 0 ? (a.riskScore ?? 0) : a.riskScore,
    patternsDetected: a.patternsDetected,
    startedAt: (a.startedAt ?? a.createdAt).toISOString(),
  };
  if (a.status === "failed" && a.error) progress.error = a.error;
  return progress;
}

export type LayerAnswer =
  | { completed: true; body: string; chainId: number }
  | { completed: false; layer: ShortLayer };

export async function readLayer(
  db: Kysely<DB>,
  projectId: number,
  id: string,
  layer: number,
): Promise<LayerAnswer> {
  const a = await find(db, projectId, id);
  if (!Number.isInteger(layer) || layer < 0 || layer >= a.maxDepth) {
    throw invalid(MESSAGES.invalidPath, [
      { path: "/layer", message: `must be an integer from 0 to ${a.maxDepth - 1}` },
    ]);
  }
  if (layer < a.completedLayers) {
    const body = await readLayerBody(db, a.id, layer);
    if (body !== undefined) return { completed: true, body, chainId: a.chainId };
  }
  const short: ShortLayer = {
    analysisId: a.id,
    layer,
    status: a.status === "failed" ? "failed" : "pending",
    totalLayers: a.maxDepth,
  };
  if (a.status === "failed" && a.error) short.error = a.error;
  return { completed: false, layer: short };
}
