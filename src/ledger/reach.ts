// Which addresses a set of origins reaches through transfers within a number of hops, in either direction: for the
// re-screening, the neighbourhoods in which a newly labelled address can change a verdict. Bounded like the
// analyses' own expansion: each address contributes at most its newest `perAddress` counterparties on each side,
// a trace does not continue through addresses labelled as services (exchanges, mixers, bridges, DeFi, gambling:
// the risk core does not trace through them either), and the whole walk stops at `maxNodes`.
import { type Kysely, sql } from "kysely";
import { SERVICE_CATEGORIES } from "../risk/index.ts";
import type { DB } from "../schema.ts";

export interface ReachOptions {
  hops: number;
  perAddress: number;
  maxNodes: number;
}

export interface Reach {
  /** every address reached (the origins included), with the origin that reached it first and at how many hops */
  reached: Map<string, { origin: string; hops: number }>;
  /** the walk stopped at maxNodes */
  truncated: boolean;
}

export async function reachFrom(
  db: Kysely<DB>,
  chainId: number,
  origins: readonly string[],
  options: ReachOptions,
): Promise<Reach> {
  const reached = new Map<string, { origin: string; hops: number }>();
  for (const o of origins) if (!reached.has(o)) reached.set(o, { origin: o, hops: 0 });
  let frontier = [...reached.keys()];
  for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
    const { rows } = await sql<{ src: string; dst: string }>`
      SELECT f.a AS src, n.b AS dst
      FROM unnest(${frontier}::text[]) AS f(a)
      CROSS JOIN LATERAL (
        (SELECT t.to_address AS b FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.from_address = f.a
          ORDER BY t.block_time DESC LIMIT ${options.perAddress})
        UNION
        (SELECT t.from_address AS b FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.to_address = f.a
          ORDER BY t.block_time DESC LIMIT ${options.perAddress})
      ) AS n
      ORDER BY f.a, n.b`.execute(db);
    const next: string[] = [];
    for (const { src, dst } of rows) {
      if (reached.has(dst)) continue;
      if (reached.size >= options.maxNodes) return { reached, truncated: true };
      reached.set(dst, { origin: (reached.get(src) as { origin: string }).origin, hops: hop });
      next.push(dst);
    }
    frontier = hop < options.hops ? await withoutServices(db, chainId, next) : [];
  }
  return { reached, truncated: false };
}

async function withoutServices(db: Kysely<DB>, chainId: number, addresses: string[]): Promise<string[]> {
  if (addresses.length === 0) return [];
  const rows = await db
    .selectFrom("labels")
    .select("address")
    .distinct()
    .where("address", "in", addresses)
    .where("chain_id", "in", [0, chainId])
    .where("category", "in", [...SERVICE_CATEGORIES])
    .execute();
  const services = new Set(rows.map((r) => r.address));
  return addresses.filter((a) => !services.has(a));
}
