// The analysis room in a running service: the address histories fetched from explorers, the quick checks'
// admission, the context every analysis runs with, its jobs and routes, and in processes with workers the sweep of
// stalled analyses and the pruning of old ones. Rooms that act on verdicts (the alerts of monitored addresses)
// listen to them here.
import os from "node:os";
import { DEFAULT_EXPLORER_OPTIONS, ExplorerHistory, type ExplorerOptions } from "../chains/explorer/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { AdmissionStats } from "../platform/admission.ts";
import type { Base } from "../platform/assembly.ts";
import { LoopLag } from "../platform/loop-lag.ts";
import type { DB } from "../schema.ts";
import type { AnalysisContext, CompletedVerdict } from "./context.ts";
import { ReadCoalescing } from "./graph/index.ts";
import { registerRiskJobs } from "./jobs.ts";
import { registerLayerJobs, sweepStalled } from "./layered/jobs.ts";
import { registerLayeredRoutes } from "./layered/routes.ts";
import { quickAdmission } from "./quick-admission.ts";
import { startAnalysisPruning } from "./retention.ts";
import { registerAnalysisRoutes } from "./routes.ts";

export interface AnalysisNeeds {
  registry: ChainRegistry;
  /** The database's kind and how many statements it runs at once. */
  database: { kind: string; concurrency: number };
  projects: { jurisdictionsOf(projectId: number): Promise<readonly string[]> };
  /** For tests: the explorer adapter's timings. */
  explorer?: Partial<Omit<ExplorerOptions, "publicExplorers">> | undefined;
  metrics: {
    quickRefused(): void;
    followQuickAdmission(read: () => AdmissionStats): void;
    observeAnalysis: NonNullable<AnalysisContext["observeDuration"]>;
    firstScan: NonNullable<AnalysisContext["countFirstScan"]>;
  };
}

export interface AnalysisWiring {
  context: AnalysisContext;
  /** Address histories from explorers, as every analysis of this service fetches them. */
  history: ExplorerHistory;
  /** Adds a listener of every stored verdict; one that fails is logged and fails no analysis. */
  onVerdict(listener: (verdict: CompletedVerdict) => Promise<void>): void;
}

export async function wireAnalysis(base: Base<DB>, needs: AnalysisNeeds): Promise<AnalysisWiring> {
  const { config } = base;
  const { database, metrics } = needs;
  // Quick checks arriving while the database is busy share their reads (one statement for several). Busy: as many
  // reads running as it runs at once (PGlite: 1), and on PostgreSQL no more than this machine has cores: with the
  // pool's 10, the 5M-store benchmark ran 770 checks/s on 2 cores; with 2, 930/s (docs/decisions/0007). PGlite
  // runs statements on this thread, so its reads are gathered per event-loop turn instead.
  const coalescing = new ReadCoalescing(
    Math.min(database.concurrency, os.availableParallelism()),
    database.kind === "pglite",
  );
  // Address histories on demand, on the chains whose config names an explorer API (`explorer_api_url`) or, with
  // public explorers on, a Blockscout (`blockscout_url`, as the built-in chains do): every analysis (quick check,
  // scans, jobs, investigations) fetches each frontier address's history into the store before reading it, within
  // the expansion's time budget; other chains read the store as it is. Requests are rate-limited per host across
  // every analysis of this process (docs/decisions/0025).
  const history = new ExplorerHistory(base.db, needs.registry, {
    outbound: base.outbound,
    coalescing,
    ...needs.explorer,
    publicExplorers: config.publicExplorers,
  });
  const log = base.log("analysis");
  // How late this thread runs: a request read after a stall has waited that long (on PGlite, statements run here).
  const loopLag = new LoopLag().start();
  base.assembly.onClose(() => loopLag.stop());
  const admission = quickAdmission(
    {
      maxInFlight: config.quickMaxInFlight,
      maxInFlightPerProject: config.quickMaxInFlightPerProject,
      maxWaitMs: config.quickMaxWaitMs,
    },
    { refused: metrics.quickRefused, log, lag: () => loopLag.ms },
  );
  metrics.followQuickAdmission(() => admission.stats());
  const listeners: ((verdict: CompletedVerdict) => Promise<void>)[] = [];
  const context: AnalysisContext = {
    db: base.db,
    registry: needs.registry,
    jobs: base.jobs,
    // PGlite decodes one JSON text of a layer faster than its rows (docs/decisions/0018).
    expansion: { history, coalescing, jsonRows: database.kind === "pglite" },
    projectJurisdictions: (projectId) => needs.projects.jurisdictionsOf(projectId),
    log,
    maxActiveJobsPerProject: config.maxActiveJobsPerProject,
    maxActiveAnalysesPerProject: config.maxActiveAnalysesPerProject,
    requestDeadlineMs: config.requestDeadlineMs,
    coverageLimits: {
      maxLagBlocks: config.coverageMaxLagBlocks,
      maxSilenceMs: config.coverageMaxSilenceSeconds * 1000,
      explorerFreshMs: needs.explorer?.freshnessMs ?? DEFAULT_EXPLORER_OPTIONS.freshnessMs,
    },
    coverageTtlMs: config.coverageTtlMs,
    quickAdmission: admission,
    observeDuration: metrics.observeAnalysis,
    countFirstScan: metrics.firstScan,
    onVerdict: async (verdict) => {
      for (const listener of listeners) await listener(verdict);
    },
  };
  await registerRiskJobs(context);
  await registerLayerJobs(context);
  base.assembly.routes((v1) => {
    registerAnalysisRoutes(v1, context);
    registerLayeredRoutes(v1, context);
  });
  // Analyses whose worker died are queued again; finished ones past their retention are deleted.
  base.assembly.loop(() => ({ stop: sweepStalled(context) }));
  // Retention is by the wall clock, whatever clock a test gives the service.
  base.assembly.loop(() => startAnalysisPruning(base.db, config.analysisRetentionDays, base.log("analysis")));
  return { context, history, onVerdict: (listener) => listeners.push(listener) };
}
