// Starts a follower for every enabled chain with an RPC URL (the worker side of `vigia serve` / `vigia worker`): an
// EVM or Tron node's, or a Bitcoin Core node's (bitcoin-follower.ts).
// On PostgreSQL each follower first takes its chain's advisory lock, so any number of worker processes can run:
// one follows each chain, the others stand by and take over when it dies.
import type { Database } from "../../platform/db/open.ts";
import type { DB } from "../../schema.ts";
import type { ChainConfig } from "../registry.ts";
import type { BackoffPolicy } from "./backoff.ts";
import { BitcoinFollower } from "./bitcoin-follower.ts";
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

/** A chain's follower, whatever its node speaks (EVM JSON-RPC, Tron's, Bitcoin Core's). */
export interface Follower {
  readonly chainId: number;
  status(): FollowerStatus;
  start(): void;
  stop(): Promise<void>;
}

export interface Indexers {
  followers: Follower[];
  status(): FollowerStatus[];
  stop(): Promise<void>;
}

export function startIndexers(options: StartIndexersOptions): Indexers {
  const { database } = options;
  // Through the socket bridge another process owns the embedded database and would be its only follower.
  if (database.kind === "pglite-socket")
    throw new Error("the indexer runs in the process that owns the database");
  const log = options.log ?? defaultIndexerLog(options.logLevel ?? "info");
  const followers = indexedChains(options.chains).map((chain): Follower => {
    const settings = settingsFor(chain, options.tuning);
    const lock =
      database.kind === "postgres" && database.pool
        ? advisoryLock(database.pool.options, chain.id)
        : processOwnsDatabase();
    const deps = {
      db: database.db,
      settings,
      lock,
      log,
      ...(options.hooks ? { hooks: options.hooks } : {}),
      ...(options.backoff ? { backoff: options.backoff } : {}),
    };
    return chain.kind === "bitcoin"
      ? new BitcoinFollower({ ...deps, network: chain.bitcoin_network ?? "mainnet" })
      : new ChainFollower(deps);
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
