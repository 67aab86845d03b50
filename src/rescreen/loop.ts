// The re-screening worker: every few seconds it traces the label changes logged since its last run to the monitored
// addresses they reach, then re-scores a batch of those (trace.ts, rescore.ts). A label import is therefore acted on
// within seconds of its commit, well inside the minute; the work of one run is bounded (changes read, addresses
// visited, addresses scored) and what is left is picked up by the next run, or by another worker after a crash.
import type { AlertLevel } from "../alerts/index.ts";
import type { AnalysisContext } from "../analysis/index.ts";
import { DEFAULT_DEPTH } from "../analysis/index.ts";
import { PollingLoop } from "../platform/polling.ts";
import { type RescoreOptions, rescoreQueued } from "./rescore.ts";
import { type TraceLimits, traceChanges } from "./trace.ts";

export const DEFAULT_RESCREEN: TraceLimits & Omit<RescoreOptions, "alertLevel"> & { pollMs: number } = {
  changes: 500,
  hops: DEFAULT_DEPTH,
  perAddress: 200,
  maxNodes: 20_000,
  batch: 10,
  leaseMs: 120_000,
  depth: DEFAULT_DEPTH,
  pollMs: 5_000,
};

export interface RescreenOptions extends Partial<typeof DEFAULT_RESCREEN> {
  analysis: AnalysisContext;
  /** the service's alert level (VIGIA_ALERT_LEVEL), for projects that set none */
  alertLevel: AlertLevel;
  /** the chains a label of every chain applies to (the enabled chains) */
  everyChain: () => readonly number[];
  now?: () => Date;
  /** told of a run that failed (the owner counts it) */
  onError?: (error: unknown) => void;
}

export interface RescreenRun {
  changes: number;
  queued: number;
  truncated: number;
  scored: number;
  rises: number;
  failed: number;
}

/** One run: trace every change waiting (a bounded read at a time), then re-score one batch. */
export async function rescreenOnce(o: RescreenOptions): Promise<RescreenRun> {
  const limits = { ...DEFAULT_RESCREEN, ...o };
  const now = o.now ?? (() => new Date());
  const run: RescreenRun = { changes: 0, queued: 0, truncated: 0, scored: 0, rises: 0, failed: 0 };
  for (;;) {
    const traced = await traceChanges(o.analysis.db, limits, now(), o.everyChain);
    run.changes += traced.changes;
    run.queued += traced.queued;
    run.truncated += traced.truncated;
    if (traced.changes < limits.changes) break;
  }
  const rescored = await rescoreQueued(o.analysis, limits, now);
  run.scored = rescored.scored;
  run.rises = rescored.rises;
  run.failed = rescored.failed;
  if (run.changes + run.scored + run.failed > 0)
    o.analysis.log?.info?.({ ...run }, "re-screening: label changes traced, monitored addresses re-scored");
  if (run.truncated > 0)
    o.analysis.log?.warn(
      { truncated: run.truncated },
      "re-screening: a busy neighbourhood was cut at the walk's limit; addresses beyond it were not re-screened",
    );
  return run;
}

export function startRescreening(o: RescreenOptions): { stop(): Promise<void> } {
  const limits = { ...DEFAULT_RESCREEN, ...o };
  const loop = new PollingLoop(
    async () => {
      const run = await rescreenOnce(o);
      // A full batch scored: more may be waiting, run again at once.
      return run.scored + run.failed >= limits.batch ? limits.batch : run.scored;
    },
    limits.batch,
    limits.pollMs,
    (error) => {
      o.analysis.log?.warn({ err: error }, "re-screening: a run failed; tried again at the next poll");
      o.onError?.(error);
    },
  );
  loop.start();
  return { stop: () => loop.stop() };
}
