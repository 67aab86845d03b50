// The deposit-address inference's reads (src/attribution): which addresses are labelled exchange wallets, which
// are candidates already, the histories the heuristic judges, and what an import wrote. Raw SQL: arrays and
// LATERAL reads that Kysely's builder would only obscure.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { NATIVE_DECIMALS, usdValue } from "./usd.ts";

/** The TEMP table that candidatesOfWritten fills, in address order for paging. */
export const WRITTEN_CANDIDATES = "attribution_written_candidates";

/** The addresses among `addresses` that are labelled exchange wallets on this chain, with their strongest label. */
export async function exchangeWallets(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  // Deduplicated, not sorted: the index scan sorts the array's keys itself, and an import passes 100,000 of them
  // per batch, whose sort in JavaScript cost more than the lookups.
  const unique = [...new Set(addresses)];
  const { rows } = await sql<{ address: string; label: string }>`
    SELECT DISTINCT ON (l.address) l.address, l.label FROM labels l
    WHERE l.address = ANY(${unique}::text[]) AND l.chain_id IN (0, ${chainId}) AND l.category = 'exchange'
    ORDER BY l.address, l.confidence DESC, (l.chain_id <> 0) DESC, l.label, l.source`.execute(db);
  return new Map(rows.map((r) => [r.address, r.label]));
}

/** The addresses among `addresses` that are candidates already (attributed or not). */
export function knownCandidates(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<Set<string>> {
  return candidatesAmong(db, chainId, addresses, false);
}

/** The addresses among `addresses` inferred to be exchange deposit addresses on this chain (attributed candidates). */
export function attributedDepositAddresses(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
): Promise<Set<string>> {
  return candidatesAmong(db, chainId, addresses, true);
}

async function candidatesAmong(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  attributedOnly: boolean,
): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const unique = [...new Set(addresses)]; // not sorted: as in exchangeWallets
  const { rows } = await sql<{ address: string }>`
    SELECT address FROM deposit_addresses
    WHERE chain_id = ${chainId} AND address = ANY(${unique}::text[]) ${attributedOnly ? sql`AND attributed` : sql``}`.execute(
    db,
  );
  return new Set(rows.map((r) => r.address));
}

/** Every sender to an exchange wallet on this chain, and every candidate there already (a whole re-judgement). */
export async function allCandidates(db: Kysely<DB>, chainId: number): Promise<string[]> {
  const { rows } = await sql<{ address: string }>`
    WITH wallets AS (
      SELECT DISTINCT address FROM labels WHERE category = 'exchange' AND chain_id IN (0, ${chainId})
    )
    SELECT DISTINCT t.from_address AS address FROM wallets w
      JOIN transfers t ON t.chain_id = ${chainId} AND t.to_address = w.address
    UNION
    SELECT address FROM deposit_addresses WHERE chain_id = ${chainId}`.execute(db);
  return rows.map((r) => r.address).sort();
}

/** Where an import left what it wrote: a table of the written transfers' ends, and the span of their times. */
export interface WrittenEnds {
  /** a table (TEMP, the import's) with an `address` column: every end of every written transfer, repeats allowed */
  table: string;
  /** the earliest and latest block time of the written transfers (ISO) */
  since: string;
  until: string;
}

/**
 * Fills WRITTEN_CANDIDATES with what attributeTransfers would have re-judged, batch by batch, for the transfers
 * behind `ends`, found in SQL: the senders to an exchange wallet among the ends within the transfers' time span,
 * and the ends that are candidates already; wallets themselves excluded. Transfers of the same span written
 * earlier add their senders too: re-judging an address from the store is idempotent. Returns how many.
 */
export async function candidatesOfWritten(
  db: Kysely<DB>,
  chainId: number,
  ends: WrittenEnds,
): Promise<number> {
  if (!/^[a-z_][a-z0-9_]*$/.test(ends.table)) throw new Error(`bad table name ${ends.table}`);
  const table = sql.table(ends.table);
  await sql`DROP TABLE IF EXISTS pg_temp.${sql.table(WRITTEN_CANDIDATES)}`.execute(db);
  await sql`CREATE TEMP TABLE ${sql.table(WRITTEN_CANDIDATES)} (address text PRIMARY KEY)`.execute(db);
  const { rows } = await sql<{ n: string }>`
    WITH ends AS (SELECT DISTINCT address FROM ${table}),
    wallets AS (
      SELECT DISTINCT l.address FROM labels l
      WHERE l.category = 'exchange' AND l.chain_id IN (0, ${chainId})
        AND EXISTS (SELECT 1 FROM ends e WHERE e.address = l.address)
    ),
    found AS (
      SELECT t.from_address AS address FROM wallets w
        JOIN transfers t ON t.chain_id = ${chainId} AND t.to_address = w.address
          AND t.block_time BETWEEN ${ends.since}::timestamptz AND ${ends.until}::timestamptz
        WHERE t.from_address <> t.to_address
      UNION
      SELECT d.address FROM deposit_addresses d JOIN ends e ON e.address = d.address WHERE d.chain_id = ${chainId}
      EXCEPT
      SELECT address FROM wallets
    ),
    saved AS (INSERT INTO ${sql.table(WRITTEN_CANDIDATES)} SELECT address FROM found RETURNING 1)
    SELECT count(*)::text AS n FROM saved`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Up to `limit` addresses of WRITTEN_CANDIDATES after `after`, in order. */
export async function pageOfWrittenCandidates(
  db: Kysely<DB>,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await sql<{ address: string }>`
    SELECT address FROM ${sql.table(WRITTEN_CANDIDATES)} WHERE address > ${after}
    ORDER BY address LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.address);
}

export async function dropWrittenCandidates(db: Kysely<DB>): Promise<void> {
  await sql`DROP TABLE IF EXISTS pg_temp.${sql.table(WRITTEN_CANDIDATES)}`.execute(db);
}

/** A digest of every exchange label: attribution depends on them, and must be redone when it changes. */
export async function exchangeLabelsDigest(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ digest: string }>`
    SELECT count(*)::text || ':' || coalesce(md5(string_agg(address || '|' || chain_id || '|' || label, ','
      ORDER BY address, chain_id, label, source)), '') AS digest
    FROM labels WHERE category = 'exchange'`.execute(db);
  return rows[0]?.digest ?? "";
}

/** The chains the store holds transfers of (a loose index scan: one probe per chain). */
export async function chainsWithTransfers(db: Kysely<DB>): Promise<number[]> {
  const { rows } = await sql<{ chain_id: number }>`
    WITH RECURSIVE c AS (
      (SELECT chain_id FROM transfers ORDER BY chain_id LIMIT 1)
      UNION ALL
      SELECT (SELECT t.chain_id FROM transfers t WHERE t.chain_id > c.chain_id ORDER BY t.chain_id LIMIT 1)
      FROM c WHERE c.chain_id IS NOT NULL
    )
    SELECT chain_id FROM c WHERE chain_id IS NOT NULL`.execute(db);
  return rows.map((r) => Number(r.chain_id));
}

interface HistoryRow {
  i: number;
  out: boolean;
  cp: string;
  token: string;
  value: string;
  at: string;
  decimals: number | null;
  price_usd: string | null;
  cp_exchange: string | null;
}

/** One transfer of an address's history, as the deposit-address heuristic reads it. */
export interface LedgerHistoryTransfer {
  out: boolean;
  counterparty: string;
  token: string;
  value: bigint;
  /** usdValue: null when unpriced */
  usd: number | null;
  /** unix seconds */
  at: number;
  /** the strongest exchange label of the counterparty, when it is a labelled exchange wallet */
  exchangeLabel?: string;
}

export interface LedgerHistory {
  address: string;
  transfers: LedgerHistoryTransfer[];
  /** the address has more than `cap` transfers in a direction: only the newest cap + 1 were read */
  truncated: boolean;
}

/**
 * The histories of some addresses: per address and direction the newest `cap + 1` transfers (one more than the
 * heuristic accepts, so it can tell a busier address), each with its USD value where the token has a price, and
 * the exchange label of its counterparty; and which of the addresses carry a label themselves.
 */
export async function readHistories(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  cap: number,
): Promise<{ histories: LedgerHistory[]; labelled: Set<string> }> {
  const { rows } = await sql<HistoryRow>`
    WITH c(address, i) AS (SELECT * FROM unnest(${[...addresses]}::text[]) WITH ORDINALITY),
    x AS MATERIALIZED (
      SELECT c.i::int AS i, y.* FROM c CROSS JOIN LATERAL (
        (SELECT true AS out, t.to_address AS cp, t.token, t.value, t.block_time FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.from_address = c.address
          ORDER BY t.block_time DESC LIMIT ${cap + 1})
        UNION ALL
        (SELECT false AS out, t.from_address AS cp, t.token, t.value, t.block_time FROM transfers t
          WHERE t.chain_id = ${chainId} AND t.to_address = c.address
          ORDER BY t.block_time DESC LIMIT ${cap + 1})
      ) y
    ),
    ex AS (
      SELECT DISTINCT ON (l.address) l.address, l.label FROM labels l
      WHERE l.address = ANY(ARRAY(SELECT DISTINCT cp FROM x)) AND l.chain_id IN (0, ${chainId})
        AND l.category = 'exchange'
      ORDER BY l.address, l.confidence DESC, (l.chain_id <> 0) DESC, l.label, l.source
    )
    SELECT x.i, x.out, x.cp, x.token, x.value::text AS value,
      floor(date_part('epoch', x.block_time))::bigint::text AS at,
      tk.decimals, COALESCE(p.price_usd, tk.pegged_usd)::text AS price_usd, ex.label AS cp_exchange
    FROM x
    LEFT JOIN ex ON ex.address = x.cp
    LEFT JOIN tokens tk ON tk.chain_id = ${chainId} AND tk.address = x.token
    LEFT JOIN prices p ON p.chain_id = ${chainId} AND p.token = x.token
      AND p.day = (x.block_time AT TIME ZONE 'UTC')::date`.execute(db);
  const { rows: labelledRows } = await sql<{ address: string }>`
    SELECT DISTINCT address FROM labels
    WHERE address = ANY(${[...addresses]}::text[]) AND chain_id IN (0, ${chainId})`.execute(db);

  const histories = addresses.map((address) => ({
    address,
    transfers: [] as LedgerHistoryTransfer[],
    truncated: false,
  }));
  const counts = addresses.map(() => ({ in: 0, out: 0 }));
  for (const row of rows) {
    const history = histories[row.i - 1] as LedgerHistory;
    const count = counts[row.i - 1] as { in: number; out: number };
    if (row.out) count.out++;
    else count.in++;
    const decimals = row.token === "native" ? (row.decimals ?? NATIVE_DECIMALS) : row.decimals;
    history.transfers.push({
      out: row.out,
      counterparty: row.cp,
      token: row.token,
      value: BigInt(row.value),
      usd: usdValue(row.value, decimals, row.price_usd),
      at: Number(row.at),
      ...(row.cp_exchange ? { exchangeLabel: row.cp_exchange } : {}),
    });
  }
  counts.forEach((count, i) => {
    if (count.in > cap || count.out > cap) (histories[i] as LedgerHistory).truncated = true;
  });
  return { histories, labelled: new Set(labelledRows.map((r) => r.address)) };
}
