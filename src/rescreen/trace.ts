// The first half of re-screening: reading the label changes logged since the last run and tracing, from each newly
// labelled address, the monitored addresses of every project within the default analysis depth, which are queued
// to be re-scored (rescreen_pending). The cursor moves in the same transaction as the queue is written, under its
// row lock, so a crash loses nothing and two workers never trace the same changes.
import { type Kysely, sql } from "kysely";
import { labelChangesAfter, reachFrom } from "../ledger/index.ts";
import { monitoredAmong, monitoredChains } from "../monitoring/index.ts";
import type { DB } from "../schema.ts";

export interface TraceLimits {
  /** label changes read per run */
  changes: number;
  /** hops from a newly labelled address (the analyses' default depth) */
  hops: number;
  /** counterparties read per address and side */
  perAddress: number;
  /** addresses a run's walk on one chain visits at most */
  maxNodes: number;
}

export interface TraceOutcome {
  /** changes read */
  changes: number;
  /** monitored addresses newly queued (one already waiting only gains the change) */
  queued: number;
  /** walks cut at maxNodes (a busy neighbourhood): what lies beyond is not re-screened by this change */
  truncated: number;
}

export async function traceChanges(
  db: Kysely<DB>,
  limits: TraceLimits,
  now: Date,
  /** the chains a change of every chain (chain 0) applies to when some address is monitored on every chain */
  everyChain: () => readonly number[],
): Promise<TraceOutcome> {
  return db.transaction().execute(async (trx) => {
    const cursor = await trx
      .selectFrom("rescreen_cursor")
      .select("last_change_id")
      .forUpdate()
      .executeTakeFirstOrThrow();
    const changes = await labelChangesAfter(trx, String(cursor.last_change_id), limits.changes);
    if (changes.length === 0) return { changes: 0, queued: 0, truncated: 0 };
    const monitored = await monitoredChains(trx);
    const watched = new Set([...monitored.chains, ...(monitored.everyChain ? everyChain() : [])]);
    // chain -> labelled address -> the change ids that labelled it (the first named in an alert)
    const byChain = new Map<number, Map<string, string[]>>();
    for (const c of changes) {
      const chains = c.chainId === 0 ? [...watched] : watched.has(c.chainId) ? [c.chainId] : [];
      for (const chain of chains) {
        const origins = byChain.get(chain) ?? new Map<string, string[]>();
        origins.set(c.address, [...(origins.get(c.address) ?? []), c.id]);
        byChain.set(chain, origins);
      }
    }
    let queued = 0;
    let truncated = 0;
    for (const [chainId, origins] of byChain) {
      const reach = await reachFrom(trx, chainId, [...origins.keys()], limits);
      if (reach.truncated) truncated += 1;
      const clients = await monitoredAmong(trx, chainId, [...reach.reached.keys()]);
      for (const client of clients) {
        const { origin, hops } = reach.reached.get(client.address) as { origin: string; hops: number };
        const ids = origins.get(origin) as string[];
        const { rows } = await sql<{ fresh: boolean }>`
          INSERT INTO rescreen_pending AS p (project_id, chain_id, address, change_ids, hops, queued_at)
          VALUES (${client.projectId}, ${chainId}, ${client.address}, ${ids}::bigint[], ${hops}, ${now})
          ON CONFLICT (project_id, chain_id, address) DO UPDATE
            SET change_ids = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(p.change_ids || excluded.change_ids) x),
              hops = LEAST(p.hops, excluded.hops)
          RETURNING (xmax::text = '0') AS fresh`.execute(trx);
        if (rows[0]?.fresh) queued += 1;
      }
    }
    await trx
      .updateTable("rescreen_cursor")
      .set({ last_change_id: (changes.at(-1) as { id: string }).id, updated_at: now })
      .execute();
    return { changes: changes.length, queued, truncated };
  });
}
