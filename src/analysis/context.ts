// What the analysis verbs need: the store, the chains the service knows, the durable job queue, the jurisdictions
// a project enables (their reporting thresholds go to the structuring detector), and optional expansion and
// risk-model overrides (tests, benchmarks).
import type { Kysely } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import type { CoverageLimits } from "../ledger/index.ts";
import type { Admission } from "../platform/admission.ts";
import type { JobQueue } from "../platform/jobs/index.ts";
import type { RiskConfig } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { ExpansionOverrides } from "./graph/index.ts";
import type { StoredResult } from "./result.ts";

/**
 * What became of a registered address's first scan on a chain (src/analysis/first-scans.ts): `queued` as a risk
 * job at registration; `deferred` past the project's share of its risk-job cap, to wait for a place;
 * `queued_later` a deferred one queued once a place freed; `skipped` an analysis of it is already on its way;
 * `failed` it could not be started (logged; the registration stands).
 */
export type FirstScanOutcome = "queued" | "deferred" | "queued_later" | "skipped" | "failed";

/** What an analysis duration is reported as: a quick check, a scan request, a risk job, one layer. */
export type AnalysisKindObserved = "quick" | "scan" | "risk_job" | "layer";

/** A completed analysis with a verdict, as stored (src/analysis/store.ts), for those told of verdicts. */
export interface CompletedVerdict {
  projectId: number;
  chainId: number;
  address: string;
  kind: "scan" | "risk_job" | "investigation";
  result: StoredResult;
}

export interface AnalysisContext {
  db: Kysely<DB>;
  registry: ChainRegistry;
  jobs: JobQueue;
  expansion?: ExpansionOverrides;
  risk?: RiskConfig;
  /** The jurisdictions (MX, CO, SV, GT) a project enables; none when absent. */
  projectJurisdictions?: (projectId: number) => Promise<readonly string[]>;
  /** Risk jobs (POST /risk) a project may have queued or running at once; beyond it, 429. Default 20. */
  maxActiveJobsPerProject?: number;
  /**
   * Layered analyses (investigations, incremental or standard) a project may have queued or running at once;
   * beyond it, 429. Default 10.
   */
  maxActiveAnalysesPerProject?: number;
  /**
   * Quick checks in flight, by project, with a bounded wait (load shedding: docs/decisions/0035); unbounded when
   * absent.
   */
  quickAdmission?: Admission;
  /** How long an analysis run inside a request (scans, standard investigations) may take, in ms. Default 30 s. */
  requestDeadlineMs?: number;
  /** Told how long each analysis took, by kind (the service's metrics); nothing when absent. */
  observeDuration?: (kind: AnalysisKindObserved, seconds: number) => void;
  /** When the data a verdict rests on is current (the configuration's VIGIA_COVERAGE_*); its defaults when absent. */
  coverageLimits?: CoverageLimits;
  /** How long a chain's holding read for coverage is reused, in ms (VIGIA_COVERAGE_TTL_MS); 0 reads it each time. */
  coverageTtlMs?: number;
  /** Where the detail of a failure goes (clients get a fixed reason); none when absent. */
  log?: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** Told what became of each first scan of a registered address (the service's metrics); nothing when absent. */
  countFirstScan?: (outcome: FirstScanOutcome) => void;
  /**
   * Told of each verdict once it is stored (the alerts of monitored addresses); a failure is logged and does not
   * fail the analysis. Nothing when absent.
   */
  onVerdict?: (verdict: CompletedVerdict) => Promise<void>;
}
