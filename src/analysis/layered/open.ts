// The two verbs another feature (investigations) runs a layered analysis with: open one (start it, or reuse the
// project's latest analysis of the same wallet, chain and depth that has not failed), and run it to the end in the
// caller's request. Everything else about layers, jobs and their state stays inside src/analysis/layered.
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import { refuseOverCap } from "../caps.ts";
import type { AnalysisContext } from "../context.ts";
import { requestDeadline } from "../deadline.ts";
import { advanceAnalysis } from "./advance.ts";
import { failureReason, LAYER_QUEUE, queueNextLayer } from "./jobs.ts";
import type { LayerGraph } from "./layer-result.ts";
import {
  findReusable,
  getLayeredAnalysis,
  insertLayeredAnalysis,
  markFailed,
  readFinalGraph,
} from "./store.ts";

export interface LayeredAnalysisKey {
  projectId: number;
  chainId: number;
  /** lowercase EVM address */
  address: string;
  maxDepth: number;
}

/** How long the safety-net job of an analysis its caller runs to the end waits before it looks at it. */
const SAFETY_NET_SECONDS = 60;

export const DEFAULT_MAX_ACTIVE_ANALYSES = 10;

/**
 * The id of the layered analysis to follow: the latest one of this key that has not failed, else a new one.
 * `attach` stores the caller's record of it: in the same transaction as a new analysis (so no record points at an
 * analysis that does not exist, and no analysis is left without its record), alone when one is reused.
 * Incremental: the new analysis's first layer is queued as a job now. Otherwise the caller is to run it to the end
 * (runToEnd); a delayed job is queued too, so that a caller that dies half-way still leaves an analysis that
 * completes. The job is queued in the same transaction as the analysis, so neither exists without the other.
 * A project with `maxActiveAnalysesPerProject` analyses queued or running gets 429 for a new one (counted under a
 * lock on the project); reusing one is always allowed, as it adds no work.
 */
export async function openLayeredAnalysis(
  ctx: AnalysisContext,
  key: LayeredAnalysisKey,
  opts: { incremental: boolean; attach: (db: Kysely<DB>, analysisId: string) => Promise<void> },
): Promise<string> {
  const reusable = await findReusable(ctx.db, key);
  if (reusable) {
    await opts.attach(ctx.db, reusable);
    return reusable;
  }
  const id = randomUUID();
  const cap = ctx.maxActiveAnalysesPerProject ?? DEFAULT_MAX_ACTIVE_ANALYSES;
  await ctx.jobs.prepare(LAYER_QUEUE);
  await ctx.db.transaction().execute(async (tx) => {
    await refuseOverCap(tx, { projectId: key.projectId, kind: "investigation", cap, what: "analyses" });
    await insertLayeredAnalysis(tx, { id, ...key, incremental: opts.incremental });
    await opts.attach(tx, id);
    await queueNextLayer(ctx, id, opts.incremental ? undefined : SAFETY_NET_SECONDS, tx);
  });
  return id;
}

/**
 * Processes the remaining layers in this call (a layer another caller stores first is not done twice); a layer
 * that fails fails the analysis, with its reason. The final cumulative graph when the analysis completed.
 * Past the request's deadline (deadline.ts) this call stops and a job carries on from the first unfinished layer:
 * undefined, and the analysis is still running.
 */
export async function runToEnd(ctx: AnalysisContext, analysisId: string): Promise<LayerGraph | undefined> {
  const deadline = requestDeadline(ctx);
  for (;;) {
    let outcome: Awaited<ReturnType<typeof advanceAnalysis>>;
    try {
      outcome = await advanceAnalysis(ctx, analysisId, deadline);
    } catch (error) {
      if (deadline.aborted) {
        await queueNextLayer(ctx, analysisId);
        return undefined;
      }
      const analysis = await getLayeredAnalysis(ctx.db, undefined, analysisId);
      await markFailed(ctx.db, analysisId, failureReason(analysis?.completedLayers ?? 0, error));
      return undefined;
    }
    if (outcome.state !== "more") break;
  }
  const analysis = await getLayeredAnalysis(ctx.db, undefined, analysisId);
  return analysis?.status === "completed"
    ? await readFinalGraph(ctx.db, analysisId, analysis.maxDepth)
    : undefined;
}
