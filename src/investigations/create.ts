// Creating an investigation (docs/api.md, "Investigations and layered analyses"): the record, and the layered
// analysis it follows — an earlier analysis of the same wallet, chain and depth in the project is reused (unless
// it failed), else a new one is started. Incremental: the first layer's job is queued and the record returned at
// once. Standard: this request processes the layers itself and answers with the complete graph.
import { randomUUID } from "node:crypto";
import { type AnalysisContext, type LayerGraph, openLayeredAnalysis, runToEnd } from "../analysis/index.ts";
import { configDefault } from "../platform/config.ts";
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

/** The open investigations a project may have when none is given (the configuration table's default). */
const DEFAULT_CAP = configDefault("VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT");

export async function createInvestigation(
  ctx: AnalysisContext,
  req: CreateInvestigation,
  cap = DEFAULT_CAP,
): Promise<Investigation & { graph?: LayerGraph }> {
  const id = randomUUID();
  const analysisId = await openLayeredAnalysis(
    ctx,
    { projectId: req.projectId, chainId: req.chainId, address: req.address, maxDepth: req.maxDepth },
    {
      incremental: req.incremental,
      attach: (db, analysisId) => insertInvestigation(db, { id, ...req, analysisId }, cap),
    },
  );
  const graph = req.incremental ? undefined : await runToEnd(ctx, analysisId);
  const investigation = (await getInvestigation(ctx.db, req.projectId, id)) as Investigation;
  return graph ? { ...investigation, graph } : investigation;
}
