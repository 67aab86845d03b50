// The composition root of a running service: config -> database -> migrations -> features -> HTTP.
// `vigia serve`, `vigia worker` and the tests all start the service through here.
import { sql } from "kysely";
import { ChainStatsService, loadChainRegistry, registerChainRoutes } from "./chains/index.ts";
import { createProject, KeyAuthenticator, type KeysContext, registerKeysRoutes } from "./keys/index.ts";
import type { Config } from "./platform/config.ts";
import { deriveKeys } from "./platform/crypto/secrets.ts";
import { resolveServerSecret } from "./platform/crypto/server-secret.ts";
import { migrate } from "./platform/db/migrate.ts";
import { type Database, openDatabase } from "./platform/db/open.ts";
import { buildHttpApp, type HttpApp } from "./platform/http/app.ts";
import type { DB } from "./schema.ts";

export interface ServiceOptions {
  /** Serve HTTP (false for `vigia worker`). */
  http: boolean;
  /** Run background workers in this process. */
  workers: boolean;
  /** PostgreSQL schema to use (tests); memory:// data dir for an in-memory PGlite (tests). */
  schema?: string;
  /** Overrides for tests: a fetch for Blockscout stats. */
  fetchStats?: ConstructorParameters<typeof ChainStatsService>[1]["fetchStats"];
}

export interface Service {
  config: Config;
  database: Database<DB>;
  app: HttpApp | undefined;
  keys: KeysContext;
  authenticator: KeyAuthenticator;
  /** Set when this start created the demo project (first start on the embedded database). */
  demo: { projectId: number; key: string } | undefined;
  /** Where the API listens, once `listen` has run. */
  url: string | undefined;
  listen(): Promise<string>;
  close(): Promise<void>;
}

export async function startService(config: Config, options: ServiceOptions): Promise<Service> {
  const database = await openDatabase<DB>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    schema: options.schema,
  });
  try {
    return await assemble(config, options, database);
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

async function assemble(config: Config, options: ServiceOptions, database: Database<DB>): Promise<Service> {
  await migrate(database);
  const embedded = database.kind !== "postgres";
  const secret = resolveServerSecret({
    secret: config.secret,
    dataDir: config.dataDir === "memory://" ? "" : config.dataDir,
    embedded: embedded && config.dataDir !== "memory://",
  });
  const keys: KeysContext = { db: database.db, serverKeys: deriveKeys(secret) };
  const registry = loadChainRegistry(config.chainsFile);
  const chainStats = new ChainStatsService(database.db, {
    ttlMs: config.chainStatsTtlSeconds * 1000,
    timeoutMs: config.upstreamTimeoutMs,
    ...(options.fetchStats ? { fetchStats: options.fetchStats } : {}),
  });

  const demo = embedded && database.kind === "pglite" ? await createDemoProjectOnFirstStart(keys) : undefined;

  const authenticator = new KeyAuthenticator(database.db, keys.serverKeys);
  const app = options.http
    ? await buildHttpApp({
        logLevel: config.logLevel,
        publicUrl: config.publicUrl,
        rateLimitPerMinute: config.rateLimitPerMinute,
        authenticate: authenticator.authenticate,
        checkReady: async () => {
          await sql`select 1`.execute(database.db);
        },
        routes: (v1) => {
          registerKeysRoutes(v1, keys, authenticator);
          registerChainRoutes(v1, registry, chainStats);
        },
      })
    : undefined;

  if (database.kind === "pglite" && config.dataDir !== "memory://") await database.startSocketBridge();

  let url: string | undefined;
  let closing: Promise<void> | undefined;
  return {
    config,
    database,
    app,
    keys,
    authenticator,
    demo,
    get url() {
      return url;
    },
    async listen() {
      if (!app) throw new Error("this service has no HTTP server");
      const address = await app.listen({ host: config.host, port: config.port });
      url = address.replace("[::1]", "127.0.0.1");
      return url;
    },
    close() {
      // In-flight requests finish first (fastify answers 503 to new ones meanwhile), then the database closes.
      closing ??= (async () => {
        await app?.close();
        await authenticator.close().catch(() => {});
        await database.close();
      })();
      return closing;
    },
  };
}

/** On the embedded database's first start, a demo project and its admin key let a newcomer try every route. */
async function createDemoProjectOnFirstStart(keys: KeysContext) {
  const existing = await keys.db.selectFrom("projects").select("id").limit(1).executeTakeFirst();
  if (existing) return undefined;
  const created = await createProject(keys, { name: "Demo project", isDemo: true }, { kind: "system" });
  return { projectId: created.projectId, key: created.key };
}
