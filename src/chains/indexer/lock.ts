// Exactly one follower per chain: on PostgreSQL a session advisory lock per chain, held on a dedicated
// connection for as long as this process follows the chain. When the process dies its session ends and the
// lock is free for another worker's next attempt. On the embedded database this process owns the data anyway.
//
// The lock key is (hash of the current schema, chain id): advisory locks are database-wide, and two schemas
// (tests, or two deployments sharing a database) must not lock each other out. The held connection is checked
// from time to time; once it is gone the lock is gone too, and the follower stops writing until it takes it
// again (the checkpoint's compare-and-set covers the moment in between).
import pg from "pg";

/**
 * "held": held without interruption since the last call; "taken": just taken (first time, or again after losing
 * it, when another worker may have written meanwhile); "busy": another worker holds it.
 */
export type LockState = "held" | "taken" | "busy";

export interface ChainLock {
  /** Keeps the chain's lock, or tries to take it. */
  acquire(): Promise<LockState>;
  release(): Promise<void>;
}

export function processOwnsDatabase(): ChainLock {
  let taken = false;
  return {
    acquire: async () => {
      if (taken) return "held";
      taken = true;
      return "taken";
    },
    release: async () => {
      taken = false;
    },
  };
}

const CHECK_EVERY_MS = 5000;

export function advisoryLock(poolOptions: pg.PoolConfig, chainId: number): ChainLock {
  let client: pg.Client | undefined;
  let held = false;
  let checkedAt = 0;

  const drop = () => {
    const old = client;
    client = undefined;
    held = false;
    old?.end().catch(() => {});
  };

  return {
    async acquire() {
      if (client && held) {
        if (Date.now() - checkedAt < CHECK_EVERY_MS) return "held";
        try {
          await client.query("SELECT 1");
          checkedAt = Date.now();
          return "held";
        } catch {
          drop();
        }
      }
      if (!client) {
        const fresh = new pg.Client({
          connectionString: poolOptions.connectionString,
          ...(poolOptions.options ? { options: poolOptions.options } : {}),
          application_name: `vigia-indexer-${chainId}`,
        });
        // A dropped connection must not crash the process: it only means the lock is lost.
        fresh.on("error", () => {
          if (client === fresh) drop();
        });
        fresh.on("end", () => {
          if (client === fresh) {
            client = undefined;
            held = false;
          }
        });
        try {
          await fresh.connect();
        } catch (error) {
          fresh.end().catch(() => {});
          throw error;
        }
        client = fresh;
      }
      try {
        const result = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock(hashtext(current_schema() || '/vigia-indexer'), $1) AS locked",
          [chainId],
        );
        held = result.rows[0]?.locked === true;
      } catch (error) {
        drop();
        throw error;
      }
      checkedAt = Date.now();
      return held ? "taken" : "busy";
    },
    async release() {
      const current = client;
      if (!current) return;
      client = undefined;
      held = false;
      // Ending the session releases every advisory lock it held.
      await current.end().catch(() => {});
    },
  };
}
