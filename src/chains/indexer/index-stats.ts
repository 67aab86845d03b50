// Network totals of a chain from the service's own store, for GET /chains/{id} of chains without Blockscout:
// total_blocks (highest stored block + 1), total_transactions (distinct transaction hashes among the stored
// transfers: the transactions that moved value), total_addresses (addresses with a fact row).
//
// The route runs on every request, so the figures are cached per chain and refreshed behind the answer
// (stale-while-revalidate, one refresh at a time). Counting distinct hashes reads the transfers index of the
// chain, which grows with it: the refresh interval stretches to 20 times the last count's duration, so the
// counting never takes more than about 5 % of one connection, whatever the store's size.
import type { Kysely } from "kysely";
import { heldTotals } from "../../ledger/index.ts";
import type { DB } from "../../schema.ts";
import type { OwnStats } from "../chain-stats.ts";

export interface IndexStatsOptions {
  /** Shortest time between two counts of one chain. */
  ttlMs?: number;
  now?: () => number;
}

type Totals = Awaited<ReturnType<OwnStats>>;

interface Entry {
  totals: Totals;
  expiresAt: number;
}

export function indexStats(db: Kysely<DB>, options: IndexStatsOptions = {}): OwnStats {
  const ttlMs = options.ttlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Map<number, Entry>();
  const inFlight = new Map<number, Promise<Totals>>();

  const refresh = (chainId: number): Promise<Totals> => {
    const running = inFlight.get(chainId);
    if (running) return running;
    const started = now();
    const task = countTotals(db, chainId)
      .then((totals) => {
        const took = now() - started;
        cache.set(chainId, { totals, expiresAt: now() + Math.max(ttlMs, took * 20) });
        return totals;
      })
      .finally(() => inFlight.delete(chainId));
    inFlight.set(chainId, task);
    return task;
  };

  return async (chainId) => {
    const entry = cache.get(chainId);
    if (!entry) return refresh(chainId);
    if (now() >= entry.expiresAt) refresh(chainId).catch(() => {});
    return entry.totals;
  };
}

async function countTotals(db: Kysely<DB>, chainId: number): Promise<Totals> {
  const held = await heldTotals(db, chainId);
  // A chain the store knows nothing of keeps its figures null (unknown), as without an index.
  if (!held) return {};
  return {
    total_blocks: held.maxBlock === null ? null : (held.maxBlock + 1n).toString(),
    total_transactions: held.transactions,
    total_addresses: held.addresses,
  };
}
