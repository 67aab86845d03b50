// A wallet's activity as the ledger holds it, for its background report (src/narratives): its labels with their
// sources, its totals per chain in transfers and USD, its largest counterparties, whether an address is an
// inferred deposit address.
import { type Kysely, sql } from "kysely";
import { CATEGORY_ORDER } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import { USD_OF_TRANSFER } from "./usd.ts";

/** Every label of `address` on `chainIds` (0: every chain), strongest category first. */
export function labelRowsOf(db: Kysely<DB>, address: string, chainIds: number[]) {
  return db
    .selectFrom("labels")
    .select(["chain_id", "label", "category", "source"])
    .where("address", "=", address)
    .where("chain_id", "in", chainIds)
    .orderBy(sql`COALESCE(array_position(${[...CATEGORY_ORDER]}::text[], category), 1000)`)
    .orderBy("label")
    .orderBy("source")
    .execute();
}

/** The price and token joins of the transfer `t` that USD_OF_TRANSFER reads. */
const PRICED = sql`LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
  LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token AND p.day = (t.block_time AT TIME ZONE 'UTC')::date`;

export interface Activity {
  firstSeen: Date;
  lastSeen: Date;
  transfersIn: number;
  transfersOut: number;
  /** USD of the priced transfers (usdValue each) */
  receivedUsd: number;
  sentUsd: number;
  /** transfers without a price on their day */
  unpriced: number;
  counterparties: number;
}

/** The wallet's totals on a chain; undefined when the ledger holds no transfer of it there. */
export async function activityOf(
  db: Kysely<DB>,
  chainId: number,
  address: string,
): Promise<Activity | undefined> {
  const { rows } = await sql<{
    first_seen: Date | string | null;
    last_seen: Date | string | null;
    incoming: string;
    outgoing: string;
    received: string | null;
    sent: string | null;
    unpriced: string;
    counterparties: string;
  }>`
    SELECT min(t.block_time) AS first_seen, max(t.block_time) AS last_seen,
      count(*) FILTER (WHERE t.to_address = ${address}) AS incoming,
      count(*) FILTER (WHERE t.from_address = ${address}) AS outgoing,
      sum(${USD_OF_TRANSFER}) FILTER (WHERE t.to_address = ${address}) AS received,
      sum(${USD_OF_TRANSFER}) FILTER (WHERE t.from_address = ${address}) AS sent,
      count(*) FILTER (WHERE p.price_usd IS NULL) AS unpriced,
      count(DISTINCT CASE WHEN t.from_address = ${address} THEN t.to_address ELSE t.from_address END) AS counterparties
    FROM transfers t ${PRICED}
    WHERE t.chain_id = ${chainId} AND (t.from_address = ${address} OR t.to_address = ${address})`.execute(db);
  const r = rows[0];
  if (!r?.first_seen || !r.last_seen) return undefined;
  return {
    firstSeen: new Date(r.first_seen),
    lastSeen: new Date(r.last_seen),
    transfersIn: Number(r.incoming),
    transfersOut: Number(r.outgoing),
    receivedUsd: Number(r.received ?? 0),
    sentUsd: Number(r.sent ?? 0),
    unpriced: Number(r.unpriced),
    counterparties: Number(r.counterparties),
  };
}

/** The wallet's `limit` largest counterparties on a chain by USD, then by transfers. */
export async function topCounterparties(
  db: Kysely<DB>,
  chainId: number,
  address: string,
  limit: number,
): Promise<{ counterparty: string; transfers: number; usd: number }[]> {
  const { rows } = await sql<{ counterparty: string; transfers: string; usd: string | null }>`
    SELECT c.counterparty, count(*) AS transfers, sum(c.usd) AS usd
    FROM (
      SELECT CASE WHEN t.from_address = ${address} THEN t.to_address ELSE t.from_address END AS counterparty,
        ${USD_OF_TRANSFER} AS usd
      FROM transfers t ${PRICED}
      WHERE t.chain_id = ${chainId} AND (t.from_address = ${address} OR t.to_address = ${address})
    ) c
    WHERE c.counterparty <> ${address}
    GROUP BY c.counterparty
    ORDER BY sum(c.usd) DESC NULLS LAST, count(*) DESC, c.counterparty
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    counterparty: r.counterparty,
    transfers: Number(r.transfers),
    usd: Number(r.usd ?? 0),
  }));
}

/** The exchange an inferred deposit address sweeps to, or null. */
export async function depositExchangeOf(
  db: Kysely<DB>,
  chainId: number,
  address: string,
): Promise<string | null> {
  const deposit = await db
    .selectFrom("deposit_addresses")
    .select("exchange")
    .where("chain_id", "=", chainId)
    .where("address", "=", address)
    .where("attributed", "=", true)
    .executeTakeFirst();
  return deposit?.exchange ?? null;
}
