// Creating an investigation (decisions.md "Investigations and incremental analysis"): the record, and the layered
// analysis it follows — an earlier analysis of the same wallet, chain and depth in the project is reused (unless
// it failed), else a new one is started. Incremental: the first layer's job is queued and the record returned at
// once. Standard: this request processes the layers itself and answers with the complete graph; a delayed job
// is queued too, so that a request that dies half-way still leaves an analysis that completes.
import { randomUUID } from "node:crypto";
import {
  type AnalysisContext,
  advanceAnalysis,
  failureReason,
  findReusable,
  getLayeredAnalysis,
  insertLayeredAnalysis,
  type LayerGraph,
  markFailed,
  queueNextLayer,
  readFinalGraph,
} from "../analysis/index.ts";
import { getInvestigation, type Investigation, insertInvestigation } from "./store.ts";

export interface CreateInvestigation {
  projectId: number;
  name: string;
  /** lowercase EVM address */
  address: string;
  chainId: number;
  incremental: boolean;
  maxDepth: number;
}

/** How long the safety-net job of a standard investigation waits before it looks at the analysis. */
const STANDARD_SAFETY_NET_SECONDS = 60;

export async function createInvestigation(
  ctx: AnalysisContext,
  req: CreateInvestigation,
): Promise<Investigation & { graph?: LayerGraph }> {
  const key = {
    projectId: req.projectId,
    chainId: req.chainId,
    address: req.address,
    maxDepth: req.maxDepth,
  };
  const id = randomUUID();
  let analysisId = await findReusable(ctx.db, key);
  if (!analysisId) {
    analysisId = randomUUID();
    const fresh = analysisId;
    await ctx.db.transaction().execute(async (tx) => {
      await insertLayeredAnalysis(tx, { id: fresh, ...key, incremental: req.incremental });
      await insertInvestigation(tx, { id, ...req, analysisId: fresh });
    });
    await queueNextLayer(ctx, fresh, req.incremental ? undefined : STANDARD_SAFETY_NET_SECONDS);
  } else {
    await insertInvestigation(ctx.db, { id, ...req, analysisId });
  }

  if (!req.incremental) {
    await driveToEnd(ctx, analysisId);
    const analysis = await getLayeredAnalysis(ctx.db, req.projectId, analysisId);
    const investigation = (await getInvestigation(ctx.db, req.projectId, id)) as Investigation;
    const graph =
      analysis?.status === "completed"
        ? await readFinalGraph(ctx.db, analysisId, analysis.maxDepth)
        : undefined;
    return graph ? { ...investigation, graph } : investigation;
  }
  return (await getInvestigation(ctx.db, req.projectId, id)) as Investigation;
}

/** Processes the remaining layers in this request; a layer that fails fails the analysis, with its reason. */
async function driveToEnd(ctx: AnalysisContext, analysisId: string): Promise<void> {
  for (;;) {
    let outcome: Awaited<ReturnType<typeof advanceAnalysis>>;
    try {
      outcome = await advanceAnalysis(ctx, analysisId);
    } catch (error) {
      const analysis = await getLayeredAnalysis(ctx.db, undefined, analysisId);
      await markFailed(ctx.db, analysisId, failureReason(analysis?.completedLayers ?? 0, error));
      return;
    }
    if (outcome.state !== "more") return;
  }
}
