// Layered analyses run as durable jobs (pg-boss, src/platform/jobs): one job per layer. A job processes the first
// unfinished layer (advance.ts) and, having stored it, queues the next; a job killed with its process is run again after the
// restart (or when its heartbeat stops, on PostgreSQL) and so the analysis resumes at its first unfinished layer.
// A layer that keeps failing fails the analysis, with the reason kept on its row.

import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import type { AnalysisContext } from "../context.ts";
import { drainDeferredScans } from "../first-scans.ts";
import { ANALYSIS_RETRIES, requeueRiskJob } from "../jobs.ts";
import { advanceAnalysis } from "./advance.ts";
import { findStalled, getLayeredAnalysis, markFailed, touch } from "./store.ts";

export const LAYER_QUEUE = "analysis-layer";
const RETRY_LIMIT = ANALYSIS_RETRIES.retryLimit;

export interface LayerJob {
  analysisId: string;
}

/**
 * Queues the job of an analysis's next layer. Only the caller that committed a layer queues the next, so an
 * analysis has one job at a time (a second one, e.g. the safety net of a standard investigation, is harmless:
 * it finds its layer stored, or stores it first).
 */
export async function queueNextLayer(
  ctx: AnalysisContext,
  analysisId: string,
  startAfterSeconds?: number,
  transaction?: Kysely<DB>,
): Promise<void> {
  await ctx.jobs.send<LayerJob>(
    LAYER_QUEUE,
    { analysisId },
    {
      ...(startAfterSeconds !== undefined ? { startAfterSeconds } : {}),
      ...(transaction ? { transaction } : {}),
    },
  );
}

export async function registerLayerJobs(ctx: AnalysisContext): Promise<void> {
  await ctx.jobs.define(LAYER_QUEUE, ANALYSIS_RETRIES);
  await ctx.jobs.work<LayerJob, { completedLayers: number | null }>(LAYER_QUEUE, async (job) => {
    const { analysisId } = job.data;
    try {
      const outcome = await advanceAnalysis(ctx, analysisId, job.signal);
      if (outcome.state !== "more") return { completedLayers: null };
      if (outcome.committed) await queueNextLayer(ctx, analysisId);
      return { completedLayers: outcome.completedLayers };
    } catch (error) {
      // Taken away from this worker (expired, or the worker stopping): pg-boss has failed or retried the job
      // already; the analysis is left as it is for the next run.
      if (job.retryCount < RETRY_LIMIT || job.signal.aborted) throw error;
      const analysis = await getLayeredAnalysis(ctx.db, undefined, analysisId);
      await markFailed(ctx.db, analysisId, failureReason(analysis?.completedLayers ?? 0, error));
      return { completedLayers: null };
    }
  });
}

/**
 * The reason kept on a failed analysis and shown to clients: which layer, and a fixed cause (it ran out of time, or
 * a data source failed). The error's own text (driver messages, upstream hosts and bodies) goes to the job log.
 */
export function failureReason(layer: number, error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  const timedOut =
    name === "AbortError" || name === "TimeoutError" || /timed? ?out|deadline/i.test(String(error));
  return `Layer ${layer} failed: ${timedOut ? "it ran out of time" : "a data source failed"}`;
}

/** An unfinished analysis not advanced for this long has most likely lost its job (see requeueStalled). */
const STALLED_AFTER_MS = 15 * 60_000;
const SWEEP_EVERY_MS = 5 * 60_000;

/**
 * Queues a job for every unfinished analysis (layered, or a risk job) that has not moved for STALLED_AFTER_MS: one
 * whose job pg-boss gave up on (it expired on every run) or no longer holds. (An analysis and its first job are
 * written in one transaction, and a layer job killed after storing its layer is itself run again, so a crash alone
 * does not strand one.) A job too many is harmless (advance.ts stores each layer once). Then queues the deferred
 * first scans of registered addresses whose project has a place again (first-scans.ts). Runs in processes with
 * workers, at start and then every few minutes; returns a stop function.
 */
export function sweepStalled(ctx: AnalysisContext): () => void {
  const sweep = async () => {
    for (const { id, kind } of await findStalled(ctx.db, new Date(Date.now() - STALLED_AFTER_MS), 100)) {
      // Marked as looked at, so the next sweep leaves it alone unless it stalls again.
      await touch(ctx.db, id);
      // A risk job's handler skips a finished row, so queueing one again never runs it twice to completion.
      if (kind === "job") await requeueRiskJob(ctx, id);
      else await queueNextLayer(ctx, id);
    }
    // First scans of registered addresses still waiting for a place (normally taken as each risk job finishes).
    await drainDeferredScans(ctx);
  };
  const run = () => {
    sweep().catch(() => {}); // the next sweep tries again
  };
  run();
  const timer = setInterval(run, SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
