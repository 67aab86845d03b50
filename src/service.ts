// The composition root of a running service: config -> database -> migrations -> features -> HTTP.
// `vigia serve`, `vigia worker` and the tests all start the service through here.

import fs from "node:fs";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pino from "pino";
import { startHistoryAudit, wireAlerts } from "./alerts/index.ts";
import { type AnalysisContext, wireAnalysis } from "./analysis/index.ts";
import { wireCases } from "./cases/index.ts";
import {
  type ChainRegistry,
  type ChainStatsService,
  type ExplorerHistory,
  type ExplorerOptions,
  loadChainRegistry,
  wireChains,
} from "./chains/index.ts";
import { type Indexers, wireChainFollowing } from "./chains/indexer/index.ts";
import { wireClusters } from "./clusters/index.ts";
import type { EmbeddedDevnet } from "./devnet/embedded.ts";
import { devnetApiExamples } from "./devnet/examples.ts";
import { followsDevnetChain } from "./devnet/when.ts";
import { wireDevnet } from "./devnet/wiring.ts";
import { wireExchangeOperations } from "./exchange-operations/index.ts";
import { wireLists } from "./ingest/index.ts";
import { type IntegratorContext, notificationWebhooks, wireIntegrator } from "./integrator/index.ts";
import { wireInvestigations } from "./investigations/index.ts";
import { wireJurisdictions } from "./jurisdictions/index.ts";
import { type KeyAuthenticator, type KeysContext, type KeysWiring, wireKeys } from "./keys/index.ts";
import { errorDetail, errorMessage, requestLang } from "./messages/index.ts";
import { wireMonitoring } from "./monitoring/index.ts";
import { wireNarratives } from "./narratives/index.ts";
import { type ServiceMetrics, serviceMetrics } from "./operations/index.ts";
import { Assembly, type Base } from "./platform/assembly.ts";
import type { Config } from "./platform/config.ts";
import { deriveKeys } from "./platform/crypto/secrets.ts";
import { previousSecrets, serverSecret } from "./platform/crypto/server-secret.ts";
import { migrate } from "./platform/db/migrate.ts";
import { type Database, openDatabase } from "./platform/db/open.ts";
import { buildHttpApp, type HttpApp } from "./platform/http/app.ts";
import { SharedRateCounter } from "./platform/http/shared-rate-store.ts";
import { JobQueue, type JobQueueOptions } from "./platform/jobs/index.ts";
import { AddressAllowList, createRegistry, poolMetrics, type Registry } from "./platform/metrics/index.ts";
import { OutboundClient, type OutboundOptions } from "./platform/outbound/index.ts";
import {
  type ProjectsContext,
  sealChainsAtUpgrade,
  upgradedToAuditHeads,
  wireProjects,
} from "./projects/index.ts";
import { type ReportsContext, wireReports } from "./reports/index.ts";
import { wireRescreening } from "./rescreen/index.ts";
import type { DB } from "./schema.ts";
import { wireScreening } from "./screening/index.ts";
import { resolveSession, type UsersContext, wireUsers } from "./users/index.ts";
import { wireViewer } from "./viewer/index.ts";

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
  // Every outbound call goes through this client (SSRF-safe: platform/outbound) with its address policy: calls to
  // integrators (URLs a project's admin sets), explorers, Blockscout statistics and the LLM. Loopback and private
  // addresses only where the operator allows them (VIGIA_ALLOW_PRIVATE_OUTBOUND), the demo devnet included:
  // docs/quickstart.md starts it with the setting, for its receiver on this machine. The devnet's own node is the
  // operator's configuration, not a project's: the indexer's RPC does not go through this client.
  const outbound = new OutboundClient({ allowPrivate: config.allowPrivateOutbound, ...options.outbound });
  // Background jobs: features define their queues and handlers on it; pg-boss starts here with the workers, or
  // on first use. Its tables live in the test's schema when there is one (dropped with it), else in `pgboss`.
  const jobs = new JobQueue(database, {
    workers: options.workers,
    schema: options.schema ?? config.jobsSchema,
    logLevel: config.logLevel,
    ...options.jobs,
  });
  // Prometheus metrics of this process (docs/operations.md, "Metrics").
  const metricsRegistry = createRegistry();
  const metrics = serviceMetrics(metricsRegistry, jobs);
  if (database.kind === "postgres" && database.pool) poolMetrics(metricsRegistry, database.pool);
  const assembly = new Assembly(options.workers, options.http === true);
  // Stopped last of what the rooms start: their loops may queue jobs until they stop.
  assembly.onClose(() => jobs.stop());
  const base: Base<DB> = {
    config,
    db: database.db,
    assembly,
    now: options.clock ?? Date.now,
    log: (name) => pino({ level: config.logLevel, name }),
    outbound,
    jobs,
    serverKeys: deriveKeys(serverSecret(config), previousSecrets(config)),
  };
  try {
    return await assembleRooms(base, {
      config,
      options,
      database,
      registry,
      metrics,
      metricsRegistry,
      applied,
    });
  } catch (error) {
    await assembly.close().catch(() => {});
    throw error;
  }
}

/** Each room wires itself from what it needs; the order is that of their needs. */
async function assembleRooms(
  base: Base<DB>,
  parts: {
    config: Config;
    options: ServiceOptions;
    database: Database<DB>;
    registry: ChainRegistry;
    metrics: ServiceMetrics;
    metricsRegistry: Registry;
    applied: string[];
  },
): Promise<Service> {
  const { config, options, database, registry, metrics } = parts;
  const { assembly } = base;
  const common = { registry, metrics, database };
  const projects = wireProjects(base);
  // Once, in the process that applied the signed audit heads' migration (after the audit keys are set).
  if (upgradedToAuditHeads(parts.applied)) await upgradeAuditLog(database.db);
  await wireChains(base, { registry, ...(options.fetchStats ? { fetchStats: options.fetchStats } : {}) });
  await wireJurisdictions(base);
  const keys = await wireKeys(base, { projects, embedded: database.kind === "pglite" });
  const users = wireUsers(base, { projects });
  const integrator = wireIntegrator(base, { ...common, projects });
  const lists = wireLists(base, common);
  const analysis = await wireAnalysis(base, { ...common, projects, explorer: options.explorer });
  const screening = await wireScreening(base, {
    ...common,
    analysis,
    projects,
    lists,
    profiles: integrator.profiles,
  });
  const reports = await wireReports(base, { ...common, profiles: integrator.profiles });
  wireAlerts(base, { ...common, projects, reports, screening });
  const operations = wireExchangeOperations(base, { ...common, analysis, projects, integrator, screening });
  const monitoring = wireMonitoring(base, {
    ...common,
    analysis,
    integrator,
    screening,
    exchangeHistory: operations.history,
  });
  wireRescreening(base, { ...common, analysis });
  wireNarratives(base, { registry, analysis });
  wireCases(base);
  wireViewer(base);
  wireClusters(base, { registry });
  if (database.kind === "pglite" && config.dataDir !== "memory://") await database.startSocketBridge();
  const devnet = await wireDevnet(base, options.devnet, database);
  // The devnet's chain only where devnets run (src/devnet/when.ts): after a move to PostgreSQL, 127.0.0.1:8545 may
  // be another program's anvil.
  const followDevnet = followsDevnetChain(config, Boolean(options.devnet));
  const indexers = wireChainFollowing(base, {
    ...common,
    followDevnet,
    devnet,
    watcherFor: monitoring.watcherFor,
    issuerFreezes: lists.issuerFreezes,
  });
  const { demoInvestigation } = wireInvestigations(base, {
    analysis,
    demo: devnet && indexers ? devnet : undefined,
  });

  const app = await serveHttp(base, { ...parts, keys, users });
  if (options.workers) await base.jobs.start();

  let url: string | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    database,
    app,
    keys: keys.context,
    projects: projects.context,
    integrator: integrator.context,
    authenticator: keys.authenticator,
    users,
    jobs: base.jobs,
    registry,
    analysis: analysis.context,
    history: analysis.history,
    metrics: parts.metricsRegistry,
    reports: reports.context,
    indexers,
    devnet,
    demo: keys.demo,
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
        reports.context.publicUrl = url;
        users.publicUrl = url;
      }
      return url;
    },
    close() {
      // In-flight requests finish first (fastify answers 503 to new ones meanwhile), then every room's loops stop,
      // the last started first, then the database closes.
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
        await assembly.close();
        await database.close();
      })();
      return closing;
    },
  };
}

/** The HTTP app, when this process serves: the API with every room's routes, or only the probes and /metrics. */
async function serveHttp(
  base: Base<DB>,
  parts: {
    config: Config;
    options: ServiceOptions;
    database: Database<DB>;
    metricsRegistry: Registry;
    keys: KeysWiring;
    users: UsersContext;
  },
): Promise<HttpApp | undefined> {
  const { config, options, database, keys, users } = parts;
  const { assembly } = base;
  if (!options.http) return undefined;
  return buildHttpApp({
    logLevel: config.logLevel,
    publicUrl: config.publicUrl,
    rateLimitPerMinute: config.rateLimitPerMinute,
    authFailuresPerMinute: config.authFailuresPerMinute,
    heavyRateLimitPerMinute: config.heavyRateLimitPerMinute,
    // On PostgreSQL every API process of a fleet counts in one table: N processes allow a key its limit once.
    ...(database.kind === "postgres" && database.pool
      ? { sharedRateCounter: new SharedRateCounter(database.pool) }
      : {}),
    authenticate: keys.authenticator.authenticate,
    sessions: (sessionId) => resolveSession(users, sessionId),
    language: { choose: requestLang, errorMessage, errorDetail },
    knownValidKey: keys.authenticator.knows,
    wellFormedKey: keys.authenticator.wellFormed,
    ...(config.trustProxy !== undefined ? { trustProxy: config.trustProxy } : {}),
    // What /readyz checks: the database, and what the rooms add (the report files' folder, the chains when
    // VIGIA_READY_MAX_LAG_BLOCKS asks); what a ready process says beside it (each chain's lag, each list's age).
    readiness: { database: () => sql`select 1`.execute(database.db), ...assembly.readiness },
    readinessFacts: () => assembly.readFacts(),
    metrics: { registry: parts.metricsRegistry, allow: new AddressAllowList(config.metricsAllow) },
    // The OpenAPI document's examples are the devnet scenario's, which `npm start` runs; its webhooks section
    // describes the notification the integrator receives.
    examples: devnetApiExamples(),
    webhooks: notificationWebhooks(),
    routes: (v1) => assembly.registerRoutes(v1),
    session: (root) => assembly.registerSession(root),
    pages: (root) => assembly.registerPages(root),
  });
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
