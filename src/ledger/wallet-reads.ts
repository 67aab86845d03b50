// What the ledger holds of one wallet, for the screens and checks that show it: its labels, its latest transfers,
// the contracts it dealt with lately, the tokens it moved, the latest prices of tokens, whether an address is a
// labelled exchange wallet, the sources of labels, and a currency's daily rates.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** The labels of `address` on `chainId` (every-chain labels included), by label. */
export function labelsOf(db: Kysely<DB>, chainId: number, address: string) {
  return db
    .selectFrom("labels")
    .select(["label", "category"])
    .where("address", "=", address)
    .where("chain_id", "in", [0, chainId])
    .orderBy("label")
    .execute();
}

/** Whether `address` carries an exchange label on `chainId` (every-chain labels included). */
export async function hasExchangeLabel(db: Kysely<DB>, chainId: number, address: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`
    SELECT 1 AS n FROM labels
    WHERE address = ${address} AND chain_id IN (0, ${chainId}) AND category = 'exchange' LIMIT 1`.execute(db);
  return rows.length > 0;
}

export interface LedgerTransfer {
  tx_hash: string;
  block_time: Date | string;
  from_address: string;
  to_address: string;
  token: string;
  /** decimal, in the token's smallest unit */
  value: string;
}

/** The wallet's newest `limit` transfers, both directions. */
export async function latestTransfers(
  db: Kysely<DB>,
  chainId: number,
  wallet: string,
  limit: number,
): Promise<LedgerTransfer[]> {
  const { rows } = await sql<LedgerTransfer>`
    (SELECT tx_hash, block_time, from_address, to_address, token, value::text AS value FROM transfers
      WHERE chain_id = ${chainId} AND from_address = ${wallet} ORDER BY block_time DESC LIMIT ${limit})
    UNION ALL
    (SELECT tx_hash, block_time, from_address, to_address, token, value::text AS value FROM transfers
      WHERE chain_id = ${chainId} AND to_address = ${wallet} ORDER BY block_time DESC LIMIT ${limit})
    ORDER BY block_time DESC LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * The contracts among the counterparties of the wallet's newest `scan` transfers each way, the `limit` seen last,
 * with their strongest label.
 */
export async function recentContracts(
  db: Kysely<DB>,
  chainId: number,
  wallet: string,
  o: { scan: number; limit: number },
): Promise<{ address: string; last_seen: Date | string; label: string | null }[]> {
  const { rows } = await sql<{ address: string; last_seen: Date | string; label: string | null }>`
    SELECT c.address, max(c.at) AS last_seen,
      (SELECT l.label FROM labels l WHERE l.address = c.address AND l.chain_id IN (0, ${chainId})
        ORDER BY l.confidence DESC, l.label LIMIT 1) AS label
    FROM (
      (SELECT to_address AS address, block_time AS at FROM transfers
        WHERE chain_id = ${chainId} AND from_address = ${wallet} ORDER BY block_time DESC LIMIT ${o.scan})
      UNION ALL
      (SELECT from_address AS address, block_time AS at FROM transfers
        WHERE chain_id = ${chainId} AND to_address = ${wallet} ORDER BY block_time DESC LIMIT ${o.scan})
    ) c
    JOIN address_facts f ON f.chain_id = ${chainId} AND f.address = c.address AND f.is_contract
    GROUP BY c.address ORDER BY last_seen DESC LIMIT ${o.limit}`.execute(db);
  return rows;
}

/** The `limit` tokens (not the native coin) the wallet moved last, with their metadata. */
export async function tokensMovedBy(
  db: Kysely<DB>,
  chainId: number,
  wallet: string,
  limit: number,
): Promise<{ token: string; symbol: string | null; decimals: number | null }[]> {
  const { rows } = await sql<{ token: string; symbol: string | null; decimals: number | null }>`
    SELECT t.token, tk.symbol, tk.decimals FROM (
      SELECT token, max(block_time) AS last FROM transfers
      WHERE chain_id = ${chainId} AND token <> 'native' AND (from_address = ${wallet} OR to_address = ${wallet})
      GROUP BY token ORDER BY last DESC LIMIT ${limit}
    ) t LEFT JOIN tokens tk ON tk.chain_id = ${chainId} AND tk.address = t.token`.execute(db);
  return rows;
}

/** The latest USD price the ledger holds of each token. */
export async function latestPrices(
  db: Kysely<DB>,
  chainId: number,
  tokens: string[],
): Promise<Map<string, number>> {
  // A pegged token (tokens.pegged_usd) without a price of its own is worth its peg.
  const { rows } = await sql<{ token: string; price_usd: string }>`
    SELECT token, price_usd FROM (
      SELECT DISTINCT ON (token) token, price_usd::text AS price_usd FROM prices
      WHERE chain_id = ${chainId} AND token = ANY(${tokens}::text[]) ORDER BY token, day DESC
    ) priced
    UNION ALL
    SELECT address, pegged_usd::text FROM tokens
    WHERE chain_id = ${chainId} AND address = ANY(${tokens}::text[]) AND pegged_usd IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM prices p WHERE p.chain_id = ${chainId} AND p.token = tokens.address)`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.token, Number(r.price_usd)]));
}

/** Every daily rate of a currency (units per USD), by UTC day (YYYY-MM-DD): a few hundred rows a year. */
export async function dailyRates(db: Kysely<DB>, currency: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("fx_rates")
    .select(["day", "per_usd"])
    .where("currency", "=", currency)
    .execute();
  return new Map(rows.map((r) => [dayText(r.day), Number(r.per_usd)]));
}

const dayText = (day: unknown) =>
  day instanceof Date ? day.toISOString().slice(0, 10) : String(day).slice(0, 10);

/**
 * The source of each address's label (`labelOf`: address -> the label shown), the label set it was imported from.
 * The same label text may come from several sets: the one the expansion would rank first (confidence, a
 * chain-specific label before an every-chain one, then the source's name, for a stable answer).
 */
export async function labelSourcesOf(
  db: Kysely<DB>,
  chainId: number,
  labelOf: ReadonlyMap<string, string>,
): Promise<Map<string, string>> {
  if (labelOf.size === 0) return new Map();
  const { rows } = await sql<{ address: string; label: string; source: string }>`
    SELECT DISTINCT ON (l.address, l.label) l.address, l.label, l.source
    FROM labels l
    WHERE l.address = ANY(${[...labelOf.keys()]}::text[]) AND l.chain_id IN (0, ${chainId})
    ORDER BY l.address, l.label, l.confidence DESC, (l.chain_id <> 0) DESC, l.source`.execute(db);
  const sources = new Map<string, string>();
  for (const row of rows) {
    if (labelOf.get(row.address) === row.label && row.source) sources.set(row.address, row.source);
  }
  return sources;
}
