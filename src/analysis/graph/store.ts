// The expansion's reads from the chain data store. One statement per BFS layer: the transfers of every frontier
// address (each direction read through its own index, newest first, capped per address), their token metadata
// and daily price, and the facts and strongest label of every counterparty. Never recursive SQL.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB } from "../../schema.ts";
import { type AddressFacts, CATEGORY_ORDER } from "./node-types.ts";

export interface Window {
  /** unix seconds, inclusive */
  from?: number | undefined;
  /** unix seconds, inclusive */
  to?: number | undefined;
}

export interface LayerRow {
  /** the frontier address this row was read for */
  frontier: string;
  dir: "out" | "in";
  txHash: string;
  logIndex: number;
  blockNumber: number;
  /** unix seconds */
  at: number;
  from: string;
  to: string;
  token: string;
  value: bigint;
  symbol: string | null;
  decimals: number | null;
  priceUsd: number | null;
  /** the other end of the transfer, seen from `frontier` (itself for a self-transfer) */
  counterparty: string;
  facts: AddressFacts;
}

interface RawLayerRow {
  frontier: string;
  dir: "out" | "in";
  tx_hash: string;
  log_index: number;
  block_number: string;
  /** unix seconds */
  at: string | number;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
  symbol: string | null;
  decimals: number | null;
  price_usd: string | null;
  cp: string;
  cp_known: boolean;
  cp_is_contract: boolean;
  cp_first_seen_at: string | number | null;
  cp_label: string | null;
  cp_category: string | null;
}

interface RawFactsRow {
  address: string;
  known: boolean;
  is_contract: boolean;
  /** unix seconds */
  first_seen_at: string | number | null;
  label: string | null;
  category: string | null;
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/**
 * `facts` over the addresses of the CTE `addrs(address)`: whether address_facts knows the address, whether it is a
 * contract, when it was first seen, and its strongest label on this chain (chain-specific or chain 0), the
 * riskiest category first (CATEGORY_ORDER), then the highest confidence, the chain-specific label, label text.
 */
function factsCte(chainId: number): RawBuilder<unknown> {
  return sql`facts AS (
    SELECT a.address,
      fa.address IS NOT NULL AS known,
      COALESCE(fa.is_contract, false) AS is_contract,
      floor(extract(epoch FROM fa.first_seen_at))::bigint AS first_seen_at,
      lb.label,
      lb.category
    FROM addrs a
    LEFT JOIN address_facts fa ON fa.chain_id = ${chainId} AND fa.address = a.address
    LEFT JOIN (
      SELECT DISTINCT ON (l.address) l.address, l.label, l.category
      FROM labels l
      WHERE l.address IN (SELECT address FROM addrs) AND l.chain_id IN (0, ${chainId})
      ORDER BY l.address,
        COALESCE(array_position(${[...CATEGORY_ORDER]}::text[], l.category), 1000),
        l.confidence DESC,
        (l.chain_id <> 0) DESC,
        l.label,
        l.source
    ) lb ON lb.address = a.address
  )`;
}

function toFacts(row: {
  known: boolean;
  is_contract: boolean;
  first_seen_at: string | number | null;
  label: string | null;
  category: string | null;
}): AddressFacts {
  return {
    known: row.known,
    isContract: row.is_contract,
    firstSeenAt: row.first_seen_at === null ? undefined : Number(row.first_seen_at),
    label: row.label ?? undefined,
    category: row.category ?? undefined,
  };
}

/** Facts and strongest label of some addresses (the roots), in one statement. */
export async function readAddressFacts(
  db: Kysely<DB>,
  chainId: number,
  addresses: string[],
): Promise<Map<string, AddressFacts>> {
  if (addresses.length === 0) return new Map();
  const { rows } = await sql<RawFactsRow>`
    WITH addrs(address) AS (SELECT DISTINCT unnest(${addresses}::text[])),
    ${factsCte(chainId)}
    SELECT * FROM facts`.execute(db);
  return new Map(rows.map((row) => [row.address, toFacts(row)]));
}

/**
 * One BFS layer: every transfer of the frontier addresses in the window (per address and direction the newest
 * `cap`, and those at the same time as the last of them, so that the cut is deterministic), with the token's symbol
 * and decimals, the USD price of the token on the transfer's UTC day, and the counterparty's facts and label.
 * A transfer between two frontier addresses (or to itself) comes back once per side.
 */
export async function readLayer(
  db: Kysely<DB>,
  chainId: number,
  frontier: string[],
  window: Window,
  cap: number,
): Promise<LayerRow[]> {
  if (frontier.length === 0) return [];
  const { rows } = await layerQuery(chainId, frontier, window, cap).execute(db);
  // One facts object per counterparty (it comes back on each of its rows).
  const factsOf = new Map<string, AddressFacts>();
  const facts = (r: RawLayerRow): AddressFacts => {
    let known = factsOf.get(r.cp);
    if (!known) {
      known = toFacts({
        known: r.cp_known,
        is_contract: r.cp_is_contract,
        first_seen_at: r.cp_first_seen_at,
        label: r.cp_label,
        category: r.cp_category,
      });
      factsOf.set(r.cp, known);
    }
    return known;
  };
  return rows.map((r) => ({
    frontier: r.frontier,
    dir: r.dir,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    blockNumber: Number(r.block_number),
    at: Number(r.at),
    from: r.from_address,
    to: r.to_address,
    token: r.token,
    value: BigInt(r.value),
    symbol: r.symbol,
    decimals: r.decimals === null ? null : Number(r.decimals),
    priceUsd: r.price_usd === null ? null : Number(r.price_usd),
    counterparty: r.cp,
    facts: facts(r),
  }));
}

/** The statement of readLayer (exported for EXPLAIN in benchmarks). */
export function layerQuery(
  chainId: number,
  frontier: string[],
  window: Window,
  cap: number,
): RawBuilder<RawLayerRow> {
  const from = window.from !== undefined ? sql`AND t.block_time >= ${iso(window.from)}::timestamptz` : sql``;
  const to = window.to !== undefined ? sql`AND t.block_time <= ${iso(window.to)}::timestamptz` : sql``;
  const columns = sql`t.tx_hash, t.log_index, t.block_number, t.block_time, t.from_address, t.to_address, t.token, t.value`;
  // In the index's order (no sort: a hub's scan stops after `cap` rows), with the rows tied with the last one, so
  // that where the cut falls does not depend on the plan.
  const order = sql`ORDER BY t.block_time DESC FETCH FIRST (${cap}::bigint) ROWS WITH TIES`;
  return sql<RawLayerRow>`
    WITH f(address) AS (SELECT DISTINCT unnest(${frontier}::text[])),
    x AS MATERIALIZED (
      SELECT f.address AS frontier, y.*,
        CASE WHEN y.dir = 'out' THEN y.to_address ELSE y.from_address END AS cp
      FROM f CROSS JOIN LATERAL (
        (SELECT 'out'::text AS dir, ${columns} FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.from_address = f.address ${from} ${to} ${order})
        UNION ALL
        (SELECT 'in'::text AS dir, ${columns} FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.to_address = f.address ${from} ${to} ${order})
      ) y
    ),
    addrs(address) AS (SELECT DISTINCT cp FROM x),
    ${factsCte(chainId)}
    SELECT x.frontier, x.dir, x.tx_hash, x.log_index, x.block_number::text AS block_number,
      floor(extract(epoch FROM x.block_time))::bigint AS at,
      x.from_address, x.to_address, x.token, x.value::text AS value,
      tk.symbol, tk.decimals, p.price_usd::text AS price_usd,
      x.cp, fa.known AS cp_known, fa.is_contract AS cp_is_contract, fa.first_seen_at AS cp_first_seen_at,
      fa.label AS cp_label, fa.category AS cp_category
    FROM x
    JOIN facts fa ON fa.address = x.cp
    LEFT JOIN tokens tk ON tk.chain_id = ${chainId} AND tk.address = x.token
    LEFT JOIN prices p ON p.chain_id = ${chainId} AND p.token = x.token
      AND p.day = (x.block_time AT TIME ZONE 'UTC')::date`;
}
