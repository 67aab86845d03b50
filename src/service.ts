// The composition root of a running service: config -> database -> migrations -> features -> HTTP.
// `vigia serve`, `vigia worker` and the tests all start the service through here.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pino from "pino";
import {
  alertOnVerdict,
  alertSettings,
  countOpenAlerts,
  registerAlertRoutes,
  startHistoryAudit,
} from "./alerts/index.ts";
import {
  type AnalysisContext,
  quickAdmission,
  quickVerdict,
  ReadCoalescing,
  registerAnalysisRoutes,
  registerLayeredRoutes,
  registerLayerJobs,
  registerRiskJobs,
  startAnalysisPruning,
  sweepStalled,
} from "./analysis/index.ts";
import { registerCaseRoutes } from "./cases/index.ts";
import { DEFAULT_EXPLORER_OPTIONS } from "./chains/explorer/index.ts";
import {
  type ChainRegistry,
  ChainStatsService,
  DEVNET_CHAIN_ID,
  ExplorerHistory,
  type ExplorerOptions,
  isDevnetChain,
  loadChainRegistry,
  presentAddressesPerChain,
  recordChainTokens,
  registerChainRoutes,
} from "./chains/index.ts";
import { type Indexers, indexedChains, indexStats, startIndexers } from "./chains/indexer/index.ts";
import { type EmbeddedDevnet, startEmbeddedDevnet } from "./devnet/embedded.ts";
import { devnetApiExamples } from "./devnet/examples.ts";
import { followsDevnetChain } from "./devnet/when.ts";
import {
  exchangeClientOperations,
  nativeCoins,
  operationRuleSettings,
  registerExchangeOperationRoutes,
  startOperationMonitor,
} from "./exchange-operations/index.ts";
import { issuerFreezeLabels, ListRefresher, listFreshness, refreshUrl } from "./ingest/index.ts";
import {
  type IntegratorContext,
  integrationSettings,
  integratorsFailing,
  NotificationDeliverer,
  notificationWebhooks,
  outboxFull,
  ProfileReader,
  registerIntegratorRoutes,
} from "./integrator/index.ts";
import { createInvestigation, registerInvestigationRoutes } from "./investigations/index.ts";
import { importedUma, useImportedUma } from "./jurisdictions/index.ts";
import {
  createProject,
  KeyAuthenticator,
  type KeysContext,
  keyLabelsById,
  registerKeysRoutes,
} from "./keys/index.ts";
import { chainLags } from "./ledger/index.ts";
import { errorDetail, errorMessage, requestLang } from "./messages/index.ts";
import {
  findMonitored,
  registerMonitoringRoutes,
  registerWalletRoutes,
  TransferChecker,
  watcherForChains,
} from "./monitoring/index.ts";
import { LlmWriter, registerNarrativeRoutes, WalletReports } from "./narratives/index.ts";
import { serviceMetrics } from "./operations/index.ts";
import { chainReadinessProblems } from "./operations/ready-chains.ts";
import { type Config, ofKind } from "./platform/config.ts";
import { deriveKeys } from "./platform/crypto/secrets.ts";
import { previousSecrets, serverSecret } from "./platform/crypto/server-secret.ts";
import { migrate } from "./platform/db/migrate.ts";
import { type Database, openDatabase } from "./platform/db/open.ts";
import { buildHttpApp, type HttpApp, NotReadyError } from "./platform/http/app.ts";
import { SharedRateCounter } from "./platform/http/shared-rate-store.ts";
import { JobQueue, type JobQueueOptions } from "./platform/jobs/index.ts";
import { LoopLag } from "./platform/loop-lag.ts";
import { AddressAllowList, createRegistry, poolMetrics, type Registry } from "./platform/metrics/index.ts";
import { OutboundClient, type OutboundOptions } from "./platform/outbound/index.ts";
import { chooseFileStore, FilesystemStore } from "./platform/storage/index.ts";
import {
  type ProjectsContext,
  projectJurisdictions,
  registerProjectRoutes,
  sealChainsAtUpgrade,
  upgradedToAuditHeads,
  useAuditKeys,
} from "./projects/index.ts";
import {
  fileAlertFilings,
  overdueFilings,
  type ReportsContext,
  registerAvisoRoutes,
  registerFileRoutes,
  registerReportJobs,
  registerReportRoutes,
  UrgentAvisoWriter,
} from "./reports/index.ts";
import { startRescreening } from "./rescreen/index.ts";
import type { DB } from "./schema.ts";
import {
  clientListings,
  currentLists,
  matchView,
  profileRead,
  registerMatchReviewRoutes,
  registerScreeningRoutes,
  Screener,
  screeningSettings,
  screeningShare,
  startClientRescreening,
} from "./screening/index.ts";
import {
  listUsers,
  registerSessionRoutes,
  registerUserRoutes,
  resolveSession,
  type UsersContext,
} from "./users/index.ts";
import { registerViewerRoutes } from "./viewer/index.ts";

export interface ServiceOptions {
  /**
   * Serve HTTP: the API (`vigia serve`), only the probes and /metrics (`vigia worker` with VIGIA_METRICS_PORT), or
   * nothing.
   */
  http: boolean | "probes";
  /** Run background workers in this process. */
  workers: boolean;
  /** PostgreSQL schema to use (tests); memory:// data dir for an in-memory PGlite (tests). */
  schema?: string;
  /**
   * Run the demo devnet in this process (`vigia serve` without VIGIA_CHAINS): anvil with the scenario, its labels
   * and prices, followed by the indexer. `port`: the preferred RPC port (default 8545; a taken one is replaced).
   */
  devnet?: boolean | { port?: number };
  /** For tests: an in-memory database starts as this dump of a migrated one (OpenOptions.startFrom). */
  startFrom?: Blob;
  /** Overrides for tests: a fetch for Blockscout stats. */
  fetchStats?: ConstructorParameters<typeof ChainStatsService>[1]["fetchStats"];
  /** Overrides for tests: the clock of the reports (signed URL expiry, closed months, generation times). */
  clock?: () => number;
  /** Overrides for tests: the explorer adapter's timings (retry backoff, request timeout, freshness, …). */
  explorer?: Partial<Omit<ExplorerOptions, "publicExplorers">>;
  /** Overrides for tests: how calls to integrators, explorers and LLMs resolve names (a name that never resolves). */
  outbound?: Pick<OutboundOptions, "resolve">;
  /** Overrides for tests: how often workers poll and maintenance runs, and the longest wait before a retry. */
  jobs?: Pick<
    JobQueueOptions,
    "pollingIntervalSeconds" | "superviseIntervalSeconds" | "retryDelayMaxSeconds"
  >;
}

export interface Service {
  config: Config;
  database: Database<DB>;
  app: HttpApp | undefined;
  keys: KeysContext;
  /** projects and the settings parts other rooms own (src/projects) */
  projects: ProjectsContext;
  /** what calls integrators (src/integrator) */
  integrator: IntegratorContext;
  authenticator: KeyAuthenticator;
  /** People, their sessions and sign-in (src/users). */
  users: UsersContext;
  /** Durable background jobs: any process queues them, only a process with workers runs them. */
  jobs: JobQueue;
  /** The chains this service knows (VIGIA_CHAINS or the built-in list). */
  registry: ChainRegistry;
  /** What every analysis of this service runs with (its store, chains, jobs and listeners). */
  analysis: AnalysisContext;
  /** Address histories from explorers, as every analysis of this service fetches them (src/chains/explorer). */
  history: ExplorerHistory;
  /** This process's Prometheus metrics (served at /metrics). */
  metrics: Registry;
  /** The compliance reports' context (its file store, clock and profile reader). */
  reports: ReportsContext;
  /** The chain followers, when this process runs the workers. */
  indexers: Indexers | undefined;
  /** The demo devnet, when this process runs it (ServiceOptions.devnet). */
  devnet: EmbeddedDevnet | undefined;
  /** Set when this start created the demo project (first start on the embedded database). */
  demo: { projectId: number; key: string } | undefined;
  /**
   * With the devnet and the workers: the demo project's investigation of the scenario's mixing case, made once the
   * scenario is indexed (or found, from an earlier start), for the viewer link `npm start` prints.
   */
  demoInvestigation: Promise<{ projectId: number; investigationId: string } | undefined> | undefined;
  /** Where the API listens, once `listen` has run. */
  url: string | undefined;
  /** Listens on the configured port, or on `port` (a worker's VIGIA_METRICS_PORT). */
  listen(port?: number): Promise<string>;
  close(): Promise<void>;
}

export async function startService(config: Config, options: ServiceOptions): Promise<Service> {
  // A bad chains file fails the start before anything is opened.
  const registry = loadChainRegistry(config.chainsFile);
  const database = await openDatabase<DB>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: options.schema,
    statementTimeoutMs: config.statementTimeoutMs,
    poolSize: config.dbPoolSize,
    startFrom: options.startFrom,
  });
  try {
    return await assemble(config, options, database, registry);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

async function assemble(
  config: Config,
  options: ServiceOptions,
  database: Database<DB>,
  registry: ChainRegistry,
): Promise<Service> {
  // openDatabase fell back to the socket of a running service: a second serve/worker would run beside the owner
  // of the data dir (and stop working when it stops), so it refuses to start.
  if (database.kind === "pglite-socket") {
    throw new Error(
      `the embedded database in ${config.dataDir} is already served by a running Vigía process${ownerPid(config.dataDir)}; stop it first or set another VIGIA_DATA_DIR`,
    );
  }
  const applied = await migrate(database);
  await recordChainTokens(database.db, registry.enabled());
  const embedded = database.kind !== "postgres";
  // The chains whose follower stopped because the node is not the chain the store holds (set once they start).
  let stoppedChains = (): { chainId: number; reason: string }[] => [];
  // The devnet's chain only where devnets run (src/devnet/when.ts): after a move to PostgreSQL, 127.0.0.1:8545 may
  // be another program's anvil.
  const followDevnet = followsDevnetChain(config, Boolean(options.devnet));
  // The chains this deployment follows (every worker process follows them; an API process reads their lag).
  const followed = indexedChains(registry.enabled()).filter((c) => followDevnet || !isDevnetChain(c.id));
  const readyMaxLagBlocks = config.readyMaxLagBlocks;
  const keys: KeysContext = {
    db: database.db,
    serverKeys: deriveKeys(serverSecret(config), previousSecrets(config)),
  };
  // Every audit entry this process writes moves its chain's signed head (src/projects/audit-head.ts).
  useAuditKeys(keys.serverKeys);
  if (upgradedToAuditHeads(applied)) await upgradeAuditLog(database.db);
  // Every outbound call goes through this client (SSRF-safe: platform/outbound) with its address policy: calls to
  // integrators (URLs a project's admin sets), explorers, Blockscout statistics and the LLM. Loopback and private
  // addresses only where the operator allows them (VIGIA_ALLOW_PRIVATE_OUTBOUND), the demo devnet included:
  // docs/quickstart.md starts it with the setting, for its receiver on this machine. The devnet's own node is the
  // operator's configuration, not a project's: the indexer's RPC does not go through this client.
  const outbound = new OutboundClient({
    allowPrivate: config.allowPrivateOutbound,
    ...options.outbound,
  });
  const chainStats = new ChainStatsService(database.db, {
    ttlMs: config.chainStatsTtlSeconds * 1000,
    timeoutMs: config.upstreamTimeoutMs,
    ownStats: indexStats(database.db),
    outbound,
    ...(options.fetchStats ? { fetchStats: options.fetchStats } : {}),
  });

  // Background jobs: features define their queues and handlers on it; pg-boss starts here with the workers, or
  // on first use. Its tables live in the test's schema when there is one (dropped with it), else in `pgboss`.
  const jobs = new JobQueue(database, {
    workers: options.workers,
    schema: options.schema ?? config.jobsSchema,
    logLevel: config.logLevel,
    ...options.jobs,
  });

  // Quick checks arriving while the database is busy share their reads (one statement for several). Busy: as many
  // reads running as it runs at once (PGlite: 1), and on PostgreSQL no more than this machine has cores: with the
  // pool's 10, the 5M-store benchmark ran 770 checks/s on 2 cores; with 2, 930/s (docs/decisions/0007). PGlite
  // runs statements on this thread, so its reads are gathered per event-loop turn instead.
  // Prometheus metrics of this process (docs/operations.md, "Metrics").
  const metricsRegistry = createRegistry();
  const metrics = serviceMetrics(metricsRegistry, jobs);
  if (database.kind === "postgres" && database.pool) poolMetrics(metricsRegistry, database.pool);

  const coalescing = new ReadCoalescing(
    Math.min(database.concurrency, os.availableParallelism()),
    database.kind === "pglite",
  );
  // Address histories on demand, on the chains whose config names an explorer API (`explorer_api_url`) or, with
  // public explorers on, a Blockscout (`blockscout_url`, as the built-in chains do): every analysis (quick check,
  // scans, jobs, investigations) fetches each frontier address's history into the store before reading it, within
  // the expansion's time budget; other chains read the store as it is. Requests are rate-limited per host across
  // every analysis of this process (docs/decisions/0025).
  const history = new ExplorerHistory(database.db, registry, {
    outbound,
    coalescing,
    ...options.explorer,
    publicExplorers: config.publicExplorers,
  });
  const analysisLog = pino({ level: config.logLevel, name: "analysis" });
  // How late this thread runs: a request read after a stall has waited that long (on PGlite, statements run here).
  const loopLag = new LoopLag().start();
  const admission = quickAdmission(
    {
      maxInFlight: config.quickMaxInFlight,
      maxInFlightPerProject: config.quickMaxInFlightPerProject,
      maxWaitMs: config.quickMaxWaitMs,
    },
    { refused: metrics.quickRefused, log: analysisLog, lag: () => loopLag.ms },
  );
  metrics.followQuickAdmission(() => admission.stats());
  const analysis: AnalysisContext = {
    db: database.db,
    registry,
    jobs,
    // PGlite decodes one JSON text of a layer faster than its rows (docs/decisions/0018).
    expansion: { history, coalescing, jsonRows: database.kind === "pglite" },
    projectJurisdictions: (projectId) => projectJurisdictions(database.db, projectId),
    log: analysisLog,
    maxActiveJobsPerProject: config.maxActiveJobsPerProject,
    maxActiveAnalysesPerProject: config.maxActiveAnalysesPerProject,
    requestDeadlineMs: config.requestDeadlineMs,
    coverageLimits: {
      maxLagBlocks: config.coverageMaxLagBlocks,
      maxSilenceMs: config.coverageMaxSilenceSeconds * 1000,
      explorerFreshMs: options.explorer?.freshnessMs ?? DEFAULT_EXPLORER_OPTIONS.freshnessMs,
    },
    coverageTtlMs: config.coverageTtlMs,
    quickAdmission: admission,
    observeDuration: metrics.observeAnalysis,
    countFirstScan: metrics.firstScan,
    // An analysis of a monitored address at the project's alert level raises an alert (src/alerts).
    onVerdict: async (verdict) => {
      const findClient = (projectId: number, chainId: number, address: string) =>
        findMonitored(database.db, projectId, chainId, address);
      const now = new Date(options.clock?.() ?? Date.now());
      await alertOnVerdict(database.db, verdict, findClient, config.alertLevel, now);
    },
  };
  await registerRiskJobs(analysis);
  await registerLayerJobs(analysis);
  // Mexico's UMA of the years imported after this release (`vigia import uma`), read now and every minute: a year
  // imported while the service runs is judged by every process within a minute.
  const umaLog = pino({ level: config.logLevel, name: "uma" });
  const readUma = () =>
    importedUma(database.db).then(useImportedUma, (error: Error) =>
      umaLog.error({ err: error.message }, "the imported UMA values could not be read: kept as they were"),
    );
  await readUma();
  const umaRefresh = setInterval(readUma, 60_000);
  umaRefresh.unref();
  // The lists of persons and their matcher, rebuilt when an import changes a list (src/screening).
  const screeningLog = pino({ level: config.logLevel, name: "screening" });
  const screener = new Screener(database.db, screeningLog);
  if (options.workers && (await currentLists(database.db)).lists.length === 0)
    screeningLog.info(
      "no list of persons is imported: monitored clients are screened against none, and POST /v1/screening answers 409 until `vigia lists import KIND FILE` (docs/person-lists.md)",
    );

  // The public lists kept fresh by the workers, and each list's age for the metrics, /readyz and the screening
  // routes (src/ingest/refresh).
  const listFreshnessNow = () =>
    listFreshness(database.db, new Date(options.clock?.() ?? Date.now()), {
      maxAgeHours: config.listMaxAgeHours,
      refreshHours: config.listRefreshHours,
      refreshable: (kind) => refreshUrl(kind, config.listUrls) !== undefined,
    });
  metrics.followLists(listFreshnessNow);

  const demo = embedded && database.kind === "pglite" ? await createDemoProjectOnFirstStart(keys) : undefined;

  const authenticator = new KeyAuthenticator(database.db, keys.serverKeys);
  const users: UsersContext = {
    db: database.db,
    serverKeys: keys.serverKeys,
    now: options.clock ?? Date.now,
    publicUrl: config.publicUrl,
    sessions: { idleMs: config.sessionIdleMs, maxMs: config.sessionMaxMs },
    logins: {
      perEmail: config.loginFailuresPerEmail,
      perAddress: config.loginFailuresPerAddress,
      windowMs: config.loginWindowMs,
    },
    oidc: config.oidc,
  };
  // Everything sent to or read from integrators (src/integrator): failures logged at warn and counted by reason.
  const integrator: IntegratorContext = {
    db: database.db,
    serverKeys: keys.serverKeys,
    outbound,
    now: Date.now,
    log: pino({ level: config.logLevel, name: "integrator" }),
    countFailure: metrics.integratorFailure,
    countLoopFailure: metrics.loopFailure,
  };
  metrics.followIntegrators(() => integratorsFailing(database.db, new Date(), 3_600_000));
  metrics.followAlerts(() => countOpenAlerts(database.db, new Date(options.clock?.() ?? Date.now())));
  const projects: ProjectsContext = {
    db: database.db,
    parts: [
      integrationSettings(keys.serverKeys, config.allowPrivateOutbound),
      alertSettings(config.alertLevel),
      screeningSettings(),
      operationRuleSettings(),
    ],
    actorNames: async (projectId) => {
      const [people, labels] = await Promise.all([
        listUsers(database.db, projectId),
        keyLabelsById(database.db, projectId),
      ]);
      return new Map([
        ...people.map((p) => [`user:${p.id}`, p.displayName] as const),
        ...[...labels].map(([id, label]) => [`key:${id}`, label] as const),
      ]);
    },
  };
  const profiles = new ProfileReader(integrator, { perProject: config.profileReadsPerProject });
  const files = chooseFileStore(config, database);
  const reports: ReportsContext = {
    db: database.db,
    serverKeys: keys.serverKeys,
    registry,
    store: files,
    profiles,
    publicUrl: config.publicUrl,
    now: options.clock ?? Date.now,
    log: pino({ level: config.logLevel, name: "reports" }),
    countFailure: metrics.reportFailure,
    countLoopFailure: metrics.loopFailure,
  };
  metrics.followFilings(() => overdueFilings(reports));
  // Only the chains this deployment follows: a store moved from another setup (the devnet's checkpoints, brought
  // to PostgreSQL by export and import-db) keeps rows of chains nothing here follows, whose last lag is no news.
  const followedIds = new Set(followed.map((c) => c.id));
  const followedLags = async () =>
    (await chainLags(database.db, new Date())).filter((lag) => followedIds.has(lag.chainId));
  metrics.followChainLags(followedLags);
  await registerReportJobs(reports, jobs);
  const walletReports = new WalletReports({
    db: database.db,
    registry,
    analysis,
    llm: config.llm ? new LlmWriter(config.llm, outbound) : undefined,
    now: options.clock ?? Date.now,
    ttlMs: config.walletReportTtlSeconds * 1000,
    llmPerHour: config.llmReportsPerHour,
    log: pino({ level: config.logLevel, name: "narratives" }),
  });
  const app = options.http
    ? await buildHttpApp({
        logLevel: config.logLevel,
        publicUrl: config.publicUrl,
        rateLimitPerMinute: config.rateLimitPerMinute,
        authFailuresPerMinute: config.authFailuresPerMinute,
        heavyRateLimitPerMinute: config.heavyRateLimitPerMinute,
        // On PostgreSQL every API process of a fleet counts in one table: N processes allow a key its limit once.
        ...(database.kind === "postgres" && database.pool
          ? { sharedRateCounter: new SharedRateCounter(database.pool) }
          : {}),
        authenticate: authenticator.authenticate,
        sessions: (sessionId) => resolveSession(users, sessionId),
        language: { choose: requestLang, errorMessage, errorDetail },
        knownValidKey: authenticator.knows,
        wellFormedKey: authenticator.wellFormed,
        ...(config.trustProxy !== undefined ? { trustProxy: config.trustProxy } : {}),
        // What /readyz checks: the database, and the report files' store where it is a folder.
        readiness: {
          database: () => sql`select 1`.execute(database.db),
          ...(files instanceof FilesystemStore ? { "file store": () => files.check() } : {}),
          // With VIGIA_READY_MAX_LAG_BLOCKS: every followed chain current, none stopped (operations/ready-chains.ts).
          ...(readyMaxLagBlocks !== undefined
            ? {
                chains: async () => {
                  const problems = chainReadinessProblems({
                    followed: followed.map((c) => c.id),
                    lags: await followedLags(),
                    stopped: stoppedChains(),
                    maxLagBlocks: readyMaxLagBlocks,
                    maxSilenceSeconds: config.coverageMaxSilenceSeconds,
                  });
                  if (problems.length > 0) throw new NotReadyError(problems.join(", "));
                },
              }
            : {}),
        },
        // Each followed chain's lag: unless VIGIA_READY_MAX_LAG_BLOCKS says otherwise, a lagging chain does not make
        // the API unready, its verdicts say so. A chain whose follower stopped because the node is not the chain the
        // store holds is named with the reason.
        readinessFacts: async () => {
          const stopped = stoppedChains();
          return {
            chains: await followedLags(),
            // Each list's age and last refresh: a stale list is said here and alerted, it does not make the API
            // unready (screening against the list held goes on).
            lists: await listFreshnessNow(),
            ...(stopped.length > 0 ? { stoppedChains: stopped } : {}),
          };
        },
        metrics: { registry: metricsRegistry, allow: new AddressAllowList(config.metricsAllow) },
        // The OpenAPI document's examples are the devnet scenario's, which `npm start` runs; its webhooks section
        // describes the notification the integrator receives.
        examples: devnetApiExamples(),
        webhooks: notificationWebhooks(),
        routes: (v1) => {
          if (options.http === "probes") return;
          presentAddressesPerChain(v1, registry);
          registerProjectRoutes(v1, projects);
          registerAlertRoutes(v1, {
            db: database.db,
            now: options.clock ?? Date.now,
            codecOf: (id) => registry.codec(id),
            fileReported: (projectId, alert, reference, actor) =>
              fileAlertFilings(reports, projectId, alert, reference, actor),
            matchOf: (projectId, alertId, lang) => matchView(database.db, projectId, alertId, lang),
          });
          registerCaseRoutes(v1, { db: database.db, now: options.clock ?? Date.now });
          registerExchangeOperationRoutes(v1, { db: database.db, registry });
          registerKeysRoutes(v1, keys, authenticator);
          registerUserRoutes(v1, users);
          registerChainRoutes(v1, registry, chainStats);
          registerAnalysisRoutes(v1, analysis);
          registerLayeredRoutes(v1, analysis);
          registerInvestigationRoutes(v1, analysis, {
            openInvestigations: config.maxOpenInvestigationsPerProject,
          });
          registerMonitoringRoutes(v1, analysis, {
            monitoredAddresses: config.maxMonitoredAddressesPerProject,
          });
          registerWalletRoutes(v1, analysis);
          registerMatchReviewRoutes(v1, { db: database.db, now: options.clock ?? Date.now });
          registerScreeningRoutes(v1, {
            screener,
            analysis,
            share: screeningShare(
              {
                maxInFlight: config.screeningMaxInFlight,
                maxInFlightPerProject: config.screeningMaxInFlightPerProject,
                maxWaitMs: config.screeningMaxWaitMs,
              },
              { refused: metrics.screeningRefused, log: analysisLog },
            ),
            freshness: listFreshnessNow,
            maxAgeHours: (kind) => ofKind(config.listMaxAgeHours, kind),
            ...(options.clock ? { now: options.clock } : {}),
          });
          registerIntegratorRoutes(v1, integrator, {
            redeliveriesPerMinute: config.redeliveriesPerMinute,
            maxPendingNotifications: config.maxPendingNotificationsPerProject,
          });
          registerReportRoutes(v1, reports);
          registerAvisoRoutes(v1, reports);
          registerFileRoutes(v1, reports);
          registerNarrativeRoutes(
            v1,
            walletReports,
            (chainId) => registry.get(chainId)?.kind ?? (registry.get(chainId) ? "evm" : undefined),
            {
              refreshesPerHour: config.walletReportRefreshesPerHour,
            },
            (chainId) => registry.unknownChain(chainId),
          );
        },
        session: (root) => (options.http === "probes" ? undefined : registerSessionRoutes(root, users)),
        pages: (root) => (options.http === "probes" ? undefined : registerViewerRoutes(root)),
      })
    : undefined;

  if (options.workers) await jobs.start();
  // Notifications go out from every process with workers; they share the outbox (src/integrator), each project
  // within its own limit of deliveries at once.
  const deliverer = options.workers
    ? new NotificationDeliverer(integrator, {
        slots: config.deliveriesPerProcess,
        perProject: config.deliveriesPerProject,
        onAttempt: metrics.webhookAttempt,
      })
    : undefined;
  deliverer?.start();
  const monitoringLog = pino({ level: config.logLevel, name: "monitoring" });
  // The recorded transfers of monitored addresses are checked against the law rules in the same processes, each
  // project within its own limit of users checked at once; a project whose outbox is full waits.
  const checker = options.workers
    ? new TransferChecker({
        db: database.db,
        registry,
        profiles,
        slots: config.checksPerProcess,
        perProject: config.checksPerProject,
        held: outboxFull(integrator, config.maxPendingNotificationsPerProject),
        onMessages: () => deliverer?.wake(),
        log: monitoringLog,
        countUnjudged: metrics.ruleUnjudged,
        countLoopFailure: metrics.loopFailure,
        onChecked: metrics.transferChecked,
        // Each client is screened against the lists of persons at its first checked transfer (src/screening).
        clientListings: async (client, readProfile) => {
          const now = new Date(options.clock?.() ?? Date.now());
          const listed = await clientListings(database.db, screener, client, readProfile, now);
          if ("screened" in listed && listed.screened) metrics.clientsScreened(listed.screened, 1);
          return listed;
        },
        countUnscreened: metrics.clientUnscreened,
        // A client's operations inside the exchange add to its accumulations (src/exchange-operations).
        exchangeHistory: (q) =>
          exchangeClientOperations(database.db, { ...q, status: "recorded" }, nativeCoins(registry)),
        onProfile: async (client, profile) => {
          const now = new Date(options.clock?.() ?? Date.now());
          if (await profileRead(database.db, screener, client, profile, now))
            metrics.clientsScreened("profile_changed", 1);
        },
      })
    : undefined;
  checker?.start();
  // Urgent avisos (Mexico's 24 hours) are written as soon as the checker finds them (src/reports).
  const urgentAvisos = options.workers ? new UrgentAvisoWriter(reports) : undefined;
  urgentAvisos?.start();
  const stopSweep = options.workers ? sweepStalled(analysis) : undefined;
  // Label changes re-screen the monitored addresses they reach (src/rescreen).
  const rescreening = options.workers
    ? startRescreening({
        analysis,
        alertLevel: config.alertLevel,
        everyChain: () => registry.enabled().map((c) => c.id),
        onError: () => metrics.loopFailure("rescreen"),
      })
    : undefined;
  // A list of persons that changed screens the monitored clients again (src/screening).
  const clientRescreening = options.workers
    ? startClientRescreening({
        db: database.db,
        screener,
        profileOf: (projectId, userId) => profiles.read(projectId, userId),
        log: screeningLog,
        onError: () => metrics.loopFailure("client_rescreen"),
        onScreened: (clients) => metrics.clientsScreened("rescreen", clients),
        ...(options.clock ? { now: () => new Date((options.clock as () => number)()) } : {}),
      })
    : undefined;
  // The exchange's operations are judged by the operation rules (src/exchange-operations).
  const operationMonitor = options.workers
    ? startOperationMonitor({
        db: database.db,
        registry,
        natives: () => nativeCoins(registry),
        readProfile: (projectId, userId) => profiles.read(projectId, userId),
        destinationVerdict: async (projectId, chainId, address) => {
          const v = await quickVerdict(analysis, projectId, address, chainId);
          return v.level === null || v.score === null
            ? null
            : { level: v.level, score: v.score, reason: v.reason };
        },
        log: pino({ level: config.logLevel, name: "exchange-operations" }),
        onError: () => metrics.loopFailure("exchange_operations"),
        onJudged: (r) => metrics.operationsJudged(r),
        countUnjudged: metrics.ruleUnjudged,
        onMessages: () => deliverer?.wake(),
        // The client of operations alone is screened like a monitored one, at its first operations.
        clientListings: async (client, readProfile) => {
          const listed = await clientListings(database.db, screener, client, readProfile, new Date());
          if ("screened" in listed && listed.screened) metrics.clientsScreened(listed.screened, 1);
          return listed;
        },
      })
    : undefined;
  // The public lists are refreshed on their schedule (VIGIA_LIST_REFRESH_HOURS), shrink guard included.
  const listRefresher = options.workers
    ? new ListRefresher({
        db: database.db,
        outbound,
        refreshHours: config.listRefreshHours,
        urls: config.listUrls,
        maxShrink: config.listMaxShrink,
        log: pino({ level: config.logLevel, name: "lists" }),
        onOutcome: metrics.listRefresh,
        onError: () => metrics.loopFailure("list_refresh"),
        ...(options.clock ? { now: () => new Date((options.clock as () => number)()) } : {}),
      })
    : undefined;
  listRefresher?.start();
  // Finished analyses past their retention are deleted (src/analysis/retention.ts).
  const pruning = options.workers
    ? startAnalysisPruning(
        database.db,
        config.analysisRetentionDays,
        pino({ level: config.logLevel, name: "analysis" }),
      )
    : undefined;

  if (database.kind === "pglite" && config.dataDir !== "memory://") await database.startSocketBridge();
  // The devnet's node may not get port 8545: the indexer follows the chain at the node's actual URL.
  const devnet = options.devnet
    ? await startEmbeddedDevnet({
        db: database.db,
        stateDir: config.dataDir === "memory://" ? undefined : path.join(config.dataDir, "devnet"),
        ...(typeof options.devnet === "object" ? options.devnet : {}),
        logLevel: config.logLevel,
      })
    : undefined;
  const indexers = options.workers
    ? startIndexers({
        database,
        chains: (devnet?.registry ?? registry).enabled().filter((c) => followDevnet || !isDevnetChain(c.id)),
        logLevel: config.logLevel,
        hooks: {
          watcher: watcherForChains((id) => (devnet?.registry ?? registry).codec(id).kind === "evm"),
          // Tether's freezes on Tron become `blacklisted_by_issuer` labels, written by the labels' room.
          issuerFreezes: issuerFreezeLabels,
        },
      })
    : undefined;
  if (indexers) metrics.followIndexers(indexers);
  stoppedChains = () =>
    (indexers?.status() ?? []).flatMap((s) =>
      s.stoppedReason ? [{ chainId: s.chainId, reason: s.stoppedReason }] : [],
    );
  const tour = new AbortController();
  const demoInvestigation =
    devnet && indexers
      ? openDemoInvestigation(analysis, devnet, tour.signal).catch(() => undefined)
      : undefined;

  let url: string | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    database,
    app,
    keys,
    projects,
    integrator,
    authenticator,
    users,
    jobs,
    registry,
    analysis,
    history,
    metrics: metricsRegistry,
    reports,
    indexers,
    devnet,
    demo,
    demoInvestigation,
    get url() {
      return url;
    },
    async listen(port = config.port) {
      if (!app) throw new Error("this service has no HTTP server");
      const address = await app.listen({ host: config.host, port });
      url = address.replace("[::1]", "127.0.0.1");
      // Without VIGIA_PUBLIC_URL, links are built on where the API listens: the port it got when PORT was 0.
      if (config.publicUrl === `http://${config.host}:0`) {
        reports.publicUrl = url;
        users.publicUrl = url;
      }
      return url;
    },
    close() {
      // In-flight requests finish first (fastify answers 503 to new ones meanwhile), then the database closes.
      closing ??= (async () => {
        if (app) {
          // fastify closes the idle keep-alive connections when the stop begins; a connection whose request was
          // in flight then would stay open once answered, until the client drops it (up to the 72 s keep-alive),
          // and hold the stop. Close such connections as soon as they are idle.
          const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
          try {
            await app.close();
          } finally {
            clearInterval(sweep);
          }
        }
        tour.abort();
        clearInterval(umaRefresh);
        await demoInvestigation;
        stopSweep?.();
        loopLag.stop();
        await pruning?.stop();
        await listRefresher?.stop();
        await checker?.stop();
        await rescreening?.stop();
        await clientRescreening?.stop();
        await operationMonitor?.stop();
        await urgentAvisos?.stop();
        await deliverer?.stop();
        await jobs.stop();
        await indexers?.stop();
        await devnet?.stop();
        await authenticator.close().catch(() => {});
        await database.close();
      })();
      return closing;
    },
  };
}

const DEMO_INVESTIGATION = "Demo: the mixing case";

/**
 * The demo project's investigation of the scenario's mixing case (incremental, 4 layers), once the indexer holds
 * the whole scenario: made on the first start with the devnet, found again on the next ones.
 */
async function openDemoInvestigation(
  analysis: AnalysisContext,
  devnet: EmbeddedDevnet,
  signal: AbortSignal,
): Promise<{ projectId: number; investigationId: string } | undefined> {
  const ready = await devnet.ready;
  const mixing = devnet.addresses.find((a) => a.pattern === "mixing");
  if (!ready || !mixing) return undefined;
  const db = analysis.db;
  const project = await db
    .selectFrom("projects")
    .select("id")
    .where("is_demo", "=", true)
    .orderBy("id")
    .executeTakeFirst();
  if (!project) return undefined;
  const existing = await db
    .selectFrom("investigations")
    .select("id")
    .where("project_id", "=", project.id)
    .where("name", "=", DEMO_INVESTIGATION)
    .executeTakeFirst();
  if (existing) return { projectId: project.id, investigationId: existing.id };
  // The analysis reads the store: wait until the indexer has the scenario's transfers (a few seconds).
  for (const deadline = Date.now() + 10 * 60_000; ; ) {
    if (signal.aborted || Date.now() > deadline) return undefined;
    const indexed = await db
      .selectFrom("transfers")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("chain_id", "=", DEVNET_CHAIN_ID)
      .executeTakeFirst();
    if (Number(indexed?.n ?? 0) >= ready.transfers) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const created = await createInvestigation(analysis, {
    projectId: project.id,
    name: DEMO_INVESTIGATION,
    address: mixing.address,
    chainId: DEVNET_CHAIN_ID,
    incremental: true,
    maxDepth: 4,
  });
  return { projectId: project.id, investigationId: created.id };
}

/** On the embedded database's first start, a demo project and its admin key let a newcomer try every route. */
async function createDemoProjectOnFirstStart(keys: KeysContext) {
  const existing = await keys.db.selectFrom("projects").select("id").limit(1).executeTakeFirst();
  if (existing) return undefined;
  const created = await createProject(keys, { name: "Demo project", isDemo: true }, { kind: "system" });
  return { projectId: created.projectId, key: created.key };
}

/** " (pid N)" from the data dir's lock file, for error messages. */
function ownerPid(dataDir: string): string {
  try {
    const pid = fs.readFileSync(path.join(dataDir, "pglite.lock"), "utf8").trim();
    return /^\d+$/.test(pid) ? ` (pid ${pid})` : "";
  } catch {
    return "";
  }
}

/**
 * Once, in the process that applied the signed audit heads' migration: links and signs the chains written before
 * it, and marks where alert histories start being audited (docs/operations.md, "The audit log").
 */
export async function upgradeAuditLog(db: Kysely<DB>): Promise<void> {
  await sealChainsAtUpgrade(db);
  await startHistoryAudit(db);
}
