// The service's own Prometheus metrics, beside the process and HTTP ones of src/platform/metrics: the job queues'
// backlog, the chain followers' lag, webhook attempts, failed calls to integrators and integrators failing for an
// hour, open and overdue alerts, analysis durations, quick checks running, waiting and refused, registered addresses'
// first scans, report files that could not be written, overdue filings, failed loop steps, and each list's age and
// scheduled refreshes. Every metric here is listed, with what to watch, in docs/operations.md
// ("Metrics"); test/operations/metrics.test.ts checks the two agree.
import type { AlertCount } from "../alerts/index.ts";
import type { AnalysisKindObserved, FirstScanOutcome } from "../analysis/index.ts";
import type { Indexers } from "../chains/indexer/index.ts";
import { FAILURE_REASONS, type FailureReason, type IntegratorCall } from "../integrator/index.ts";
import type { ChainLag } from "../ledger/index.ts";
import type { AdmissionStats } from "../platform/admission.ts";
import type { JobQueue, QueueStats } from "../platform/jobs/index.ts";
import { Counter, Gauge, Histogram, METRIC_PREFIX, type Registry } from "../platform/metrics/index.ts";

export interface ServiceMetrics {
  observeAnalysis(kind: AnalysisKindObserved, seconds: number): void;
  webhookAttempt(outcome: "delivered" | "retrying" | "failed"): void;
  /** The chain followers, once this process runs them. */
  followIndexers(indexers: Indexers): void;
  /** A file a report generation could not write, by jurisdiction and reason class. */
  reportFailure(countryCode: string, reason: string): void;
  /** A law rule the checker could not judge (no price, rate or UMA for the day), by rule book. */
  ruleUnjudged(book: string): void;
  /** Monitored clients screened against the lists of persons, by `when` (first, rescreen, profile_changed). */
  clientsScreened(when: "first" | "rescreen" | "profile_changed", count: number): void;
  /** A monitored client the checker could not screen (its profile could not be read). */
  clientUnscreened(): void;
  /** How to count the overdue filings (src/reports' calendar), once reports are wired. */
  followFilings(overdue: () => Promise<Map<string, number>>): void;
  /** A call to an integrator that failed, by what was called and a reason class naming no project. */
  integratorFailure(call: IntegratorCall, reason: FailureReason): void;
  /** How to count the projects whose integrator has failed every call for an hour, once the integrator is wired. */
  followIntegrators(failing: () => Promise<number>): void;
  /** How to count the alerts not closed, by level, and those past their deadline, once alerts are wired. */
  followAlerts(count: () => Promise<AlertCount[]>): void;
  /** A step of a background loop that failed (a claim, a check, a delivery's record), by loop. */
  loopFailure(loop: string): void;
  /** A monitored transfer this process judged and marked. */
  transferChecked(): void;
  /** What became of a registered address's first scan on a chain (src/analysis/first-scans.ts). */
  firstScan(outcome: FirstScanOutcome): void;
  /** How to read every followed chain's lag from the database (any process serves it, follower or not). */
  followChainLags(read: () => Promise<ChainLag[]>): void;
  /** The quick checks' admission (its places in use and its queue), and a check it refused. */
  followQuickAdmission(stats: () => AdmissionStats): void;
  quickRefused(): void;
  /** A screening batch refused for want of a place (src/screening/fair-share.ts). */
  screeningRefused(): void;
  /** How to read each list's age (src/ingest's freshness), once the lists are wired. */
  followLists(read: () => Promise<{ kind: string; ageSeconds: number | null }[]>): void;
  /** A scheduled refresh of a list, by kind and outcome (imported, unchanged, refused, failed). */
  listRefresh(kind: string, outcome: string): void;
  /** Exchange operations judged by the operation rules, the alerts they raised by rule, the rules left unjudged. */
  operationsJudged(r: {
    operations: number;
    alerts: Record<string, number>;
    unjudged: readonly string[];
  }): void;
}

/** A scrape asks each queue gauge in turn: they share one query. */
const STATS_FRESH_MS = 1_000;
/** How long a count of overdue filings serves scrapes. */
const OVERDUE_FRESH_MS = 60_000;
/** How long a count of failing integrators serves scrapes. */
const FAILING_FRESH_MS = 15_000;
/** How long a count of open alerts serves scrapes (both alert gauges share it). */
const ALERTS_FRESH_MS = 15_000;
/** A scrape asks both chain gauges in turn: they share one read of the lags. */
const LAGS_FRESH_MS = 1_000;

export function serviceMetrics(registry: Registry, jobs: JobQueue): ServiceMetrics {
  let stats: { at: number; value: Promise<QueueStats[]> } | undefined;
  const queueStats = () => {
    if (!stats || Date.now() - stats.at > STATS_FRESH_MS) {
      const value = jobs.stats();
      value.catch(() => {});
      stats = { at: Date.now(), value };
    }
    return stats.value;
  };
  new Gauge({
    name: `${METRIC_PREFIX}jobs`,
    help: "Background jobs by queue and state: waiting (sent or waiting to retry), due (waiting and due now), active",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      for (const q of await queueStats()) {
        this.set({ queue: q.name, state: "waiting" }, q.waiting);
        this.set({ queue: q.name, state: "due" }, q.due);
        this.set({ queue: q.name, state: "active" }, q.active);
      }
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}jobs_oldest_due_seconds`,
    help: "How long the oldest job that is due to run has waited since it was sent, by queue (0: none waits)",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      for (const q of await queueStats()) this.set({ queue: q.name }, q.oldest);
    },
  });

  let indexers: Indexers | undefined;
  const followers = (fn: (s: ReturnType<Indexers["status"]>[number]) => void) => {
    for (const status of indexers?.status() ?? []) fn(status);
  };
  new Gauge({
    name: `${METRIC_PREFIX}indexer_following`,
    help: "1 where this process follows the chain (holds its lock), 0 where it stands by or fails",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      followers((s) => this.set({ chain: String(s.chainId) }, s.state === "following" ? 1 : 0));
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}indexer_head_lag_blocks`,
    help: "Blocks between the chain node's head and the last block indexed, where this process follows the chain",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      this.reset();
      followers((s) => {
        if (s.state !== "following" || s.head === null) return;
        this.set({ chain: String(s.chainId) }, Number(s.head - (s.checkpoint ?? -1n)));
      });
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}indexer_consecutive_failures`,
    help: "Failed attempts in a row to read the chain (node down, bad answers); 0 while it follows",
    labelNames: ["chain"] as const,
    registers: [registry],
    collect() {
      followers((s) => this.set({ chain: String(s.chainId) }, s.failures));
    },
  });

  // Each chain's lag as its verdicts' coverage sees it (src/ledger/coverage.ts), from the database: every process,
  // API or worker, answers for every followed chain, whichever process follows it.
  let chainLags: (() => Promise<ChainLag[]>) | undefined;
  let lags: { at: number; value: Promise<ChainLag[]> } | undefined;
  const readLags = () => {
    if (!chainLags) return Promise.resolve([]);
    if (!lags || Date.now() - lags.at > LAGS_FRESH_MS) {
      const value = chainLags();
      value.catch(() => {});
      lags = { at: Date.now(), value };
    }
    return lags.value.catch(() => [] as ChainLag[]);
  };
  new Gauge({
    name: `${METRIC_PREFIX}chain_lag_blocks`,
    help: "Blocks between the chain node's head, as its indexer last read it, and the last block confirmed, by chain (absent until the head is known)",
    labelNames: ["chain"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const l of await readLags())
        if (l.lagBlocks !== null) this.set({ chain: String(l.chainId) }, l.lagBlocks);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}chain_silent_seconds`,
    help: "Seconds since the chain's indexer last read its node's head (or moved its checkpoint), by chain",
    labelNames: ["chain"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const l of await readLags()) this.set({ chain: String(l.chainId) }, l.silentSeconds);
    },
  });

  const attempts = new Counter({
    name: `${METRIC_PREFIX}webhook_attempts_total`,
    help: "Webhook delivery attempts by this process, by outcome: delivered, retrying (failed, to be retried), failed (the last of its round)",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const failures = new Counter({
    name: `${METRIC_PREFIX}webhook_failures_total`,
    help: "Webhook delivery attempts that failed (no 2xx in time), retried or not",
    registers: [registry],
  });
  for (const outcome of ["delivered", "retrying", "failed"]) attempts.inc({ outcome }, 0);

  const analyses = new Histogram({
    name: `${METRIC_PREFIX}analysis_duration_seconds`,
    help: "How long analyses took in this process: quick checks, scan requests, risk jobs, layers of layered analyses",
    labelNames: ["kind"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });

  const reportFailures = new Counter({
    name: `${METRIC_PREFIX}report_failures_total`,
    help: "Report files a generation could not write, by jurisdiction and reason (profile_unreadable, profile_incomplete, no_value, no_reporting_entity, invalid_file)",
    labelNames: ["country", "reason"] as const,
    registers: [registry],
  });
  const unjudged = new Counter({
    name: `${METRIC_PREFIX}rules_unjudged_total`,
    help: "Law rules the transfer checker could not judge for want of a price, a rate or a UMA of the day, by rule book",
    labelNames: ["book"] as const,
    registers: [registry],
  });
  const screened = new Counter({
    name: `${METRIC_PREFIX}clients_screened_total`,
    help: "Monitored clients screened against the lists of persons, on their first reading or again after a list changed",
    labelNames: ["when"] as const,
    registers: [registry],
  });
  const operationsJudged = new Counter({
    name: `${METRIC_PREFIX}exchange_operations_judged_total`,
    help: "Exchange operations judged by the operation rules",
    registers: [registry],
  });
  const operationAlerts = new Counter({
    name: `${METRIC_PREFIX}operation_alerts_total`,
    help: "Alerts raised by the operation rules over the exchange's operations, by rule",
    labelNames: ["rule"] as const,
    registers: [registry],
  });
  const operationRulesUnjudged = new Counter({
    name: `${METRIC_PREFIX}operation_rules_unjudged_total`,
    help: "Clients' checks in which an operation rule could not be judged (profile unreadable, destination not analysed), by rule",
    labelNames: ["rule"] as const,
    registers: [registry],
  });
  const unscreened = new Counter({
    name: `${METRIC_PREFIX}clients_unscreened_total`,
    help: "Monitored clients the transfer checker could not screen against the lists of persons (profile unreadable)",
    registers: [registry],
  });
  // The overdue filings take a few queries per project: counted at most once a minute, the last count kept when a
  // count fails (the failure is the database's, which other metrics and /readyz show).
  let overdue: (() => Promise<Map<string, number>>) | undefined;
  let counted: { at: number; value: Map<string, number> } | undefined;
  new Gauge({
    name: `${METRIC_PREFIX}filings_overdue`,
    help: "Filings past their deadline and not filed (this month and the three before), by jurisdiction",
    labelNames: ["country"] as const,
    registers: [registry],
    async collect() {
      if (!overdue) return;
      if (!counted || Date.now() - counted.at > OVERDUE_FRESH_MS) {
        const value = await overdue().catch(() => counted?.value);
        if (value) counted = { at: Date.now(), value };
      }
      this.reset();
      for (const [country, n] of counted?.value ?? []) this.set({ country }, n);
    },
  });

  const integratorFailures = new Counter({
    name: `${METRIC_PREFIX}integrator_failures_total`,
    help: "Calls to integrators that failed, by call (profile, webhook) and reason (timeout, connect_timeout, dns, network, refused, invalid_url, no_url, too_large, status_4xx, status_5xx, status_other, invalid_profile)",
    labelNames: ["call", "reason"] as const,
    registers: [registry],
  });
  for (const call of ["profile", "webhook"])
    for (const reason of FAILURE_REASONS) integratorFailures.inc({ call, reason }, 0);
  let failing: (() => Promise<number>) | undefined;
  let failingCount: { at: number; value: number } | undefined;
  new Gauge({
    name: `${METRIC_PREFIX}integrators_failing`,
    help: "Projects whose integrator has failed every call (profile reads and webhooks) for at least an hour",
    registers: [registry],
    async collect() {
      if (!failing) return;
      if (!failingCount || Date.now() - failingCount.at > FAILING_FRESH_MS) {
        const value = await failing().catch(() => failingCount?.value);
        if (value !== undefined) failingCount = { at: Date.now(), value };
      }
      this.set(failingCount?.value ?? 0);
    },
  });
  // Open and overdue alerts: one grouped count, shared by both gauges, the last count kept when one fails.
  let alerts: (() => Promise<AlertCount[]>) | undefined;
  let alertCount: { at: number; value: Promise<AlertCount[] | undefined> } | undefined;
  const countAlerts = async () => {
    if (!alerts) return [];
    if (!alertCount || Date.now() - alertCount.at > ALERTS_FRESH_MS) {
      const previous = alertCount?.value;
      const value = alerts().catch(async () => previous && (await previous));
      alertCount = { at: Date.now(), value };
    }
    return (await alertCount.value) ?? [];
  };
  new Gauge({
    name: `${METRIC_PREFIX}alerts_open`,
    help: "Alerts not closed (open, in_review, escalated), by level, across projects",
    labelNames: ["level"] as const,
    registers: [registry],
    async collect() {
      const counts = await countAlerts();
      this.reset();
      for (const c of counts) this.set({ level: c.level }, c.open);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}alerts_overdue`,
    help: "Alerts not closed whose filing deadline has passed, by level, across projects",
    labelNames: ["level"] as const,
    registers: [registry],
    async collect() {
      const counts = await countAlerts();
      this.reset();
      for (const c of counts) this.set({ level: c.level }, c.overdue);
    },
  });
  const loopFailures = new Counter({
    name: `${METRIC_PREFIX}worker_step_failures_total`,
    help: "Steps of the background loops that failed and were tried again (the database went away, a bug), by loop: checker, deliverer, urgent_avisos, rescreen",
    labelNames: ["loop"] as const,
    registers: [registry],
  });
  for (const loop of ["checker", "deliverer", "urgent_avisos", "rescreen"]) loopFailures.inc({ loop }, 0);

  const checked = new Counter({
    name: `${METRIC_PREFIX}monitored_transfers_checked_total`,
    help: "Transfers of monitored addresses this process judged against the law rules and marked evaluated",
    registers: [registry],
  });

  const firstScans = new Counter({
    name: `${METRIC_PREFIX}first_scans_total`,
    help: "First scans of registered addresses, one per chain, by outcome: queued, deferred (past the project's share of its risk-job cap), queued_later, skipped (an analysis already on its way), failed",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });

  let quickAdmission: (() => AdmissionStats) | undefined;
  new Gauge({
    name: `${METRIC_PREFIX}quick_checks`,
    help: "Quick checks in this process, by state: running (holding a place), waiting (for a place, at most VIGIA_QUICK_MAX_WAIT_MS)",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const stats = quickAdmission?.();
      this.set({ state: "running" }, stats?.inFlight ?? 0);
      this.set({ state: "waiting" }, stats?.waiting ?? 0);
    },
  });
  const quickRefusals = new Counter({
    name: `${METRIC_PREFIX}quick_checks_refused_total`,
    help: "Quick checks refused with 503 and Retry-After because no place freed within VIGIA_QUICK_MAX_WAIT_MS (the process is past its capacity)",
    registers: [registry],
  });

  const screeningRefusals = new Counter({
    name: `${METRIC_PREFIX}screening_batches_refused_total`,
    help: "Screening batches (POST /screening/persons) refused with 503 and Retry-After because no place freed within VIGIA_SCREENING_MAX_WAIT_MS",
    registers: [registry],
  });

  let lists: (() => Promise<{ kind: string; ageSeconds: number | null }[]>) | undefined;
  new Gauge({
    name: `${METRIC_PREFIX}list_age_seconds`,
    help: "Seconds since each list's last completed import (by hand or by the workers' schedule), by kind; absent until it is imported",
    labelNames: ["kind"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const read = await (lists?.() ?? Promise.resolve([])).catch(() => []);
      for (const l of read) if (l.ageSeconds !== null) this.set({ kind: l.kind }, l.ageSeconds);
    },
  });
  const listRefreshes = new Counter({
    name: `${METRIC_PREFIX}list_refreshes_total`,
    help: "Scheduled refreshes of the lists by this process, by kind and outcome: imported, unchanged, refused (it would shrink, roll back or empty the list: nothing changed), failed",
    labelNames: ["kind", "outcome"] as const,
    registers: [registry],
  });

  return {
    followLists: (read) => {
      lists = read;
    },
    listRefresh: (kind, outcome) => listRefreshes.inc({ kind, outcome }),
    screeningRefused: () => screeningRefusals.inc(),
    followQuickAdmission: (stats) => {
      quickAdmission = stats;
    },
    quickRefused: () => quickRefusals.inc(),
    firstScan: (outcome) => firstScans.inc({ outcome }),
    followChainLags: (read) => {
      chainLags = read;
    },
    transferChecked: () => checked.inc(),
    integratorFailure: (call, reason) => integratorFailures.inc({ call, reason }),
    followIntegrators(count) {
      failing = count;
    },
    followAlerts(count) {
      alerts = count;
    },
    loopFailure: (loop) => loopFailures.inc({ loop }),
    observeAnalysis: (kind, seconds) => analyses.observe({ kind }, seconds),
    reportFailure: (country, reason) => reportFailures.inc({ country, reason }),
    ruleUnjudged: (book) => unjudged.inc({ book }),
    clientsScreened: (when, count) => screened.inc({ when }, count),
    operationsJudged: (r) => {
      operationsJudged.inc(r.operations);
      for (const [rule, n] of Object.entries(r.alerts)) operationAlerts.inc({ rule }, n);
      for (const rule of r.unjudged) operationRulesUnjudged.inc({ rule });
    },
    clientUnscreened: () => unscreened.inc(),
    followFilings(count) {
      overdue = count;
    },
    webhookAttempt(outcome) {
      attempts.inc({ outcome });
      if (outcome !== "delivered") failures.inc();
    },
    followIndexers(found) {
      indexers = found;
    },
  };
}
