// Starts a follower for every enabled chain with an RPC URL (the worker side of `vigia serve` / `vigia worker`).
// On PostgreSQL each follower first takes its chain's advisory lock, so any number of worker processes can run:
// one follows each chain, the others stand by and take over when it dies.
import type { Database } from "../../platform/db/open.ts";
import type { DB } from "../../schema.ts";
import type { ChainConfig } from "../registry.ts";
import type { BackoffPolicy } from "./backoff.ts";
import { ChainFollower, type FollowerHooks, type FollowerStatus } from "./follower.ts";
import { advisoryLock, processOwnsDatabase } from "./lock.ts";
import { defaultIndexerLog, type IndexerLog } from "./log.ts";
import { type IndexerTuning, indexedChains, settingsFor } from "./settings.ts";

export interface StartIndexersOptions {
  database: Database<DB>;
  chains: ChainConfig[];
  /** A logger, or the level of a pino logger created here. */
  log?: IndexerLog;
  logLevel?: string;
  tuning?: IndexerTuning;
  hooks?: FollowerHooks;
  backoff?: BackoffPolicy;
}

export interface Indexers {
  followers: ChainFollower[];
  status(): FollowerStatus[];
  stop(): Promise<void>;
}

export function startIndexers(options: StartIndexersOptions): Indexers {
  const { database } = options;
  // Through the socket bridge another process owns the embedded database and would be its only follower.
  if (database.kind === "pglite-socket")
    throw new Error("the indexer runs in the process that owns the database");
  const log = options.log ?? defaultIndexerLog(options.logLevel ?? "info");
  const followers = indexedChains(options.chains).map((chain) => {
    const settings = settingsFor(chain, options.tuning);
    const lock =
      database.kind === "postgres" && database.pool
        ? advisoryLock(database.pool.options, chain.id)
        : processOwnsDatabase();
    return new ChainFollower({
      db: database.db,
      settings,
      lock,
      log,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
    });
  });
  for (const follower of followers) follower.start();
  let stopping: Promise<void> | undefined;
  return {
    followers,
    status: () => followers.map((f) => f.status()),
    stop() {
      stopping ??= Promise.all(followers.map((f) => f.stop())).then(() => {});
      return stopping;
    },
  };
}
