// Queueing a risk job: its analyses row (kind 'job', status queued) and the pg-boss job that runs it, written in
// the caller's transaction, so that a process killed at any moment leaves both or neither. POST /risk (jobs.ts)
// queues one under the project's cap; a registered address's first scan (first-scans.ts) under its share of it.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import type { AnalysisContext } from "./context.ts";
import { DEFAULT_DEPTH } from "./depth.ts";
import { insertQueued, newAnalysisId, setJobId } from "./store.ts";

export const RISK_QUEUE = "risk-analysis";
/** Depth of a risk job: the scan default. */
export const RISK_JOB_DEPTH = DEFAULT_DEPTH;
export const DEFAULT_MAX_ACTIVE_JOBS = 20;

/** Risk jobs a project may have queued or running at once (VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT). */
export const riskJobCap = (ctx: AnalysisContext): number =>
  ctx.maxActiveJobsPerProject ?? DEFAULT_MAX_ACTIVE_JOBS;

export interface RiskJobRequest {
  projectId: number;
  /** lowercase EVM address */
  address: string;
  chainId: number;
  from?: Date | undefined;
  to?: Date | undefined;
}

/**
 * Writes a queued risk job in the caller's transaction and returns its id (the analysis id). The caller has
 * prepared the queue (`ctx.jobs.prepare(RISK_QUEUE)`) and checked its cap.
 */
export async function queueRiskJobIn(
  ctx: AnalysisContext,
  trx: Kysely<DB>,
  req: RiskJobRequest,
): Promise<string> {
  const id = newAnalysisId();
  await insertQueued(trx, {
    id,
    projectId: req.projectId,
    chainId: req.chainId,
    address: req.address,
    kind: "job",
    maxDepth: RISK_JOB_DEPTH,
    window: { from: req.from, to: req.to },
  });
  await sendRiskRun(ctx, trx, id);
  return id;
}

/** Sends the run of a risk job in the caller's transaction (the queue prepared) and records its job id. */
export async function sendRiskRun(ctx: AnalysisContext, trx: Kysely<DB>, analysisId: string): Promise<void> {
  const jobId = await ctx.jobs.send(RISK_QUEUE, { analysisId }, { transaction: trx });
  await setJobId(trx, analysisId, jobId);
}
