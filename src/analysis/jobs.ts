// POST /risk and GET /risk/{jobId} (docs/api.md, "Risk analysis"): an analysis of one address over a date window, run on
// the durable job queue (pg-boss, src/platform/jobs). The analyses row (kind 'job') is the job as clients see
// it: its id is the jobId, and it is readable only by its project. The queued pg-boss job carries only that id,
// so a run killed with its process is run again after the restart and completes the same row.

import { notFound } from "../platform/errors.ts";
import { isUuid } from "../platform/http/params.ts";
import type { JobQueue } from "../platform/jobs/index.ts";
import { refuseOverCap } from "./caps.ts";
import type { AnalysisContext } from "./context.ts";
import { NO_DATA, noDataReason, withheld } from "./coverage.ts";
import { drainDeferredScans } from "./first-scans.ts";
import { failedResult, type ScanResult, scanResultOf } from "./result.ts";
import { queueRiskJobIn, RISK_QUEUE, type RiskJobRequest, riskJobCap, sendRiskRun } from "./risk-queue.ts";
import { runAnalysis } from "./run.ts";
import { answeredResult } from "./scan.ts";
import type { RiskJobViewBody } from "./schemas.ts";
import { finish, getAnalysis, markRunning, type StoredAnalysis } from "./store.ts";
import { tellVerdict } from "./verdicts.ts";

export {
  DEFAULT_MAX_ACTIVE_JOBS,
  RISK_JOB_DEPTH,
  RISK_QUEUE,
  type RiskJobRequest,
} from "./risk-queue.ts";

/**
 * How a failed analysis run (risk job or layer) is retried: four more runs, after about 30 s, 1, 2 and 4 minutes
 * (pg-boss doubles the wait, with jitter), so a data source that is down for a few minutes does not fail the
 * analysis. The last run records the failure on the analysis instead of throwing.
 */
export const ANALYSIS_RETRIES = {
  retryLimit: 4,
  retryDelaySeconds: 30,
  retryBackoff: true,
  retryDelayMaxSeconds: 300,
} as const;
const RETRY_LIMIT = ANALYSIS_RETRIES.retryLimit;

export type RiskJobView = RiskJobViewBody;

/**
 * Defines the queue and its handler (the handler runs only in a process with workers). A finished job frees a
 * place under its project's cap: the project's deferred first scans (first-scans.ts) may take it.
 */
export async function registerRiskJobs(ctx: AnalysisContext): Promise<void> {
  await ctx.jobs.define(RISK_QUEUE, ANALYSIS_RETRIES);
  await ctx.jobs.work<{ analysisId: string }, { analysisId: string }>(RISK_QUEUE, async (job) => {
    const projectId = await runRiskJob(ctx, job.data.analysisId, job.retryCount >= RETRY_LIMIT, job.signal);
    if (projectId !== undefined) await drainDeferredScans(ctx, projectId);
    return { analysisId: job.data.analysisId };
  });
}

/**
 * Queues a risk job. A project with `maxActiveJobsPerProject` jobs queued or running gets 429 (counted under a lock
 * on the project, so concurrent requests cannot pass the cap together). The row and its pg-boss job are written
 * in one transaction: a process killed at any moment leaves both or neither.
 */
export async function startRiskJob(ctx: AnalysisContext, req: RiskJobRequest): Promise<string> {
  await ctx.jobs.prepare(RISK_QUEUE);
  return ctx.db.transaction().execute(async (trx) => {
    await refuseOverCap(trx, {
      projectId: req.projectId,
      kind: "job",
      cap: riskJobCap(ctx),
      what: "risk jobs",
    });
    return queueRiskJobIn(ctx, trx, req);
  });
}

/** Queues a risk job's run again (the sweep of stalled analyses), with the row's job id in the same transaction. */
export async function requeueRiskJob(ctx: AnalysisContext, analysisId: string): Promise<void> {
  await ctx.jobs.prepare(RISK_QUEUE);
  await ctx.db.transaction().execute((trx) => sendRiskRun(ctx, trx, analysisId));
}

/**
 * Runs (or reruns) one job's analysis; on the last attempt a failure is recorded instead of thrown. A run whose
 * `signal` aborts (the job was taken away from this worker) stops and stores nothing: pg-boss runs it again.
 * Returns the job's project once its row is finished (undefined when there was no job to run).
 */
export async function runRiskJob(
  ctx: AnalysisContext,
  analysisId: string,
  lastAttempt: boolean,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const job = await getAnalysis(ctx.db, undefined, analysisId);
  if (!job || job.status === "completed" || job.status === "failed") return undefined;
  await markRunning(ctx.db, analysisId);
  const started = performance.now();
  const { windowFrom: from, windowTo: to } = job;
  try {
    const outcomes = await runAnalysis(ctx, {
      projectId: job.projectId,
      chainId: job.chainId,
      roots: [job.address],
      maxDepth: job.maxDepth,
      window: {
        from: from ? Math.floor(from.getTime() / 1000) : undefined,
        to: to ? Math.floor(to.getTime() / 1000) : undefined,
      },
      signal,
    });
    const outcome = outcomes.get(job.address);
    if (!outcome) throw new Error("no analysis produced");
    if (withheld(outcome.coverage, outcome.analysis.level)) {
      const error = noDataReason(outcome.coverage);
      const failed = failedResult(job.address, String(job.chainId), job.maxDepth, analysisId, error, {
        errorCode: NO_DATA,
        coverage: outcome.coverage,
      });
      await finish(ctx.db, analysisId, { error, durationMs: performance.now() - started, failed });
    } else {
      const result = scanResultOf(
        analysisId,
        job.chainId,
        job.maxDepth,
        outcome.analysis,
        outcome.metrics,
        outcome.coverage,
      );
      await finish(ctx.db, analysisId, { result, durationMs: performance.now() - started });
      await tellVerdict(ctx, {
        projectId: job.projectId,
        chainId: job.chainId,
        address: job.address,
        kind: "risk_job",
        result,
      });
    }
    ctx.observeDuration?.("risk_job", (performance.now() - started) / 1000);
  } catch (error) {
    if (!lastAttempt || signal?.aborted) throw error;
    await finish(ctx.db, analysisId, {
      error: "The analysis failed",
      durationMs: performance.now() - started,
    });
  }
  return job.projectId;
}

export async function readRiskJob(
  ctx: AnalysisContext,
  projectId: number,
  jobId: string,
  lang?: string,
): Promise<RiskJobView> {
  const analysis = isUuid(jobId) ? await getAnalysis(ctx.db, projectId, jobId.toLowerCase()) : undefined;
  if (analysis?.kind !== "job") throw notFound("Job");
  return view(analysis, await queueFailure(ctx.jobs, analysis), lang);
}

/** A job pg-boss gave up on while its row was not finished (e.g. it expired every time). */
async function queueFailure(jobs: JobQueue, a: StoredAnalysis): Promise<string | undefined> {
  if (a.status === "completed" || a.status === "failed" || !a.jobId) return undefined;
  const job = await jobs.get(RISK_QUEUE, a.jobId).catch(() => undefined);
  return job?.state === "failed" || job?.state === "cancelled" ? "The analysis failed" : undefined;
}

/** The job as answered; its result's reason in `lang` (Spanish written from the evidence, else as stored). */
function view(a: StoredAnalysis, queueError: string | undefined, lang: string | undefined): RiskJobView {
  const base = { jobId: a.id, createdAt: a.createdAt.toISOString(), updatedAt: a.updatedAt.toISOString() };
  if (queueError) return { ...base, status: "failed", error: queueError };
  if (a.status === "completed" && a.result) {
    return {
      ...base,
      status: "completed",
      result: {
        ...answeredResult(a.result, a.maxDepth, lang),
        fromDate: a.windowFrom?.toISOString() ?? null,
        toDate: a.windowTo?.toISOString() ?? null,
      },
    };
  }
  if (a.status === "failed") {
    const error = a.error ?? "The analysis failed";
    // A withheld verdict keeps its failed result (its coverage says why); other failures have none.
    const failed = a.result as ScanResult | null;
    return failed
      ? {
          ...base,
          status: "failed",
          error,
          result: {
            ...failed,
            fromDate: a.windowFrom?.toISOString() ?? null,
            toDate: a.windowTo?.toISOString() ?? null,
          },
        }
      : { ...base, status: "failed", error };
  }
  return { ...base, status: a.status };
}
