// The one read of clients' operations: the recorded transfers of a project's monitored addresses, each with its
// valuation for every rule book asked for (a jurisdiction's, or the international one): the transfer's day in the
// book's time zone, the token's USD price of that day and the book's currency rate of that day (or the nearest
// earlier day with one, at most RATE_DAYS back: a rate older than that is no rate of the day). A transfer already
// checked carries the valuations the checker used (`valuations`), which win over the store's current prices, so a
// report cites what was judged; the others, and the parts of a recorded valuation that were unknown then, are valued
// from the store. The checker reads a client's history and the reports read a month through here.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import { fxRateOn, JOIN_TOKEN_OF_TRANSFER, joinTransferOf, priceOfTransferOn } from "../ledger/index.ts";
import type { ClientOperation, Valuation } from "../regulation/index.ts";
import type { DB } from "../schema.ts";

/** What a valuation needs of a rule book. */
export interface BookClock {
  code: string;
  timeZone: string;
  currency: string;
}

export interface OperationQuery {
  projectId: number;
  /** [from, to): the block times read; unbounded when absent */
  from?: Date;
  to?: Date;
  /** only this user's transfers */
  userId?: string;
  /** only this transfer */
  transfer?: { addressId: number; chainId: number; txHash: string; logIndex: number };
  /** only the transfers of these transactions */
  txHashes?: readonly string[];
  /** `checked`: only transfers the checker judged (the reports); `recorded`: also those waiting (its history) */
  status: "checked" | "recorded";
  books: readonly BookClock[];
}

/** How many days back a currency rate may be taken from when the day has none (weekends, holidays). */
export const RATE_DAYS = 10;

interface Row {
  address_id: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_time: Date | string;
  foreign_user_id: string;
  address: string;
  jurisdiction: string | null;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
  symbol: string | null;
  token_name: string | null;
  decimals: number | null;
  laws: string[] | null;
  unjudged: string[] | null;
  internal: boolean;
  stored: Record<string, Valuation> | string | null;
  fresh:
    | Record<string, { day: string; price: number | string | null; rate: number | string | null }>
    | string;
}

/** A JSON object of each book's day, price and rate for the transfer `t` (SQL). */
function freshValuations(books: readonly BookClock[]): RawBuilder<unknown> {
  if (books.length === 0) return sql`'{}'::jsonb`;
  const entries = books.map((b) => {
    const day = sql`(t.block_time AT TIME ZONE ${b.timeZone})::date`;
    const rate = b.currency === "USD" ? sql`1` : fxRateOn(b.currency, day, RATE_DAYS);
    return sql`${b.code}::text, jsonb_build_object('day', ${day}, 'price',
      ${priceOfTransferOn(day)},
      'rate', ${rate})`;
  });
  return sql`jsonb_build_object(${sql.join(entries)})`;
}

const json = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);
const numberOrNull = (v: number | string | null | undefined) =>
  v === null || v === undefined ? null : Number(v);

/** The project's operations matching the query, oldest first within each user. */
export async function readClientOperations(
  db: Kysely<DB>,
  registry: ChainRegistry,
  q: OperationQuery,
): Promise<ClientOperation[]> {
  const { rows } = await sql<Row>`
    SELECT mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index, t.block_time, ma.foreign_user_id, ma.address,
      ma.jurisdiction, t.from_address, t.to_address, t.token, t.value::text AS value, tk.symbol, tk.name AS token_name,
      tk.decimals, mt.laws, mt.unjudged, mt.valuations AS stored, ${freshValuations(q.books)} AS fresh,
      EXISTS (SELECT 1 FROM monitored_addresses o
        WHERE o.project_id = ma.project_id AND o.foreign_user_id = ma.foreign_user_id
          AND (o.chain_id = t.chain_id OR o.chain_id IS NULL) AND o.id <> ma.id
          AND o.address = CASE WHEN t.from_address = ma.address THEN t.to_address ELSE t.from_address END) AS internal
    FROM monitored_transfers mt
    ${joinTransferOf("mt")}
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    ${JOIN_TOKEN_OF_TRANSFER}
    WHERE mt.project_id = ${q.projectId}
      ${q.status === "checked" ? sql`AND mt.status = 'evaluated'` : sql`AND mt.status <> 'unwound'`}
      ${q.from ? sql`AND t.block_time >= ${q.from}` : sql``}
      ${q.to ? sql`AND t.block_time < ${q.to}` : sql``}
      ${q.userId !== undefined ? sql`AND ma.foreign_user_id = ${q.userId}` : sql``}
      ${
        q.transfer
          ? sql`AND mt.address_id = ${q.transfer.addressId} AND mt.chain_id = ${q.transfer.chainId}
              AND mt.tx_hash = ${q.transfer.txHash} AND mt.log_index = ${q.transfer.logIndex}`
          : sql``
      }
      ${q.txHashes ? sql`AND mt.tx_hash = ANY(${[...q.txHashes]}::text[])` : sql``}
    ORDER BY ma.foreign_user_id, t.block_time, mt.tx_hash, mt.log_index, mt.address_id`.execute(db);
  return rows.map((r) => {
    const out = r.from_address === r.address;
    const chain = registry.get(r.chain_id);
    const native = r.token === "native";
    const stored = r.stored === null ? {} : json<Record<string, Valuation>>(r.stored);
    const fresh = json<Exclude<Row["fresh"], string>>(r.fresh);
    const valuations: Record<string, Valuation> = {};
    for (const book of q.books) {
      const f = fresh[book.code];
      const judged = stored[book.code];
      valuations[book.code] = {
        day: judged?.day ?? String(f?.day).slice(0, 10),
        priceUsd: judged?.priceUsd ?? numberOrNull(f?.price),
        currency: book.currency,
        perUsd: judged?.perUsd ?? numberOrNull(f?.rate),
      };
    }
    return {
      addressId: Number(r.address_id),
      chainId: r.chain_id,
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockTime: new Date(r.block_time),
      userId: r.foreign_user_id,
      address: r.address,
      direction: out ? "out" : "in",
      counterparty: out ? r.to_address : r.from_address,
      token: r.token,
      symbol: native ? (chain?.currency_symbol ?? null) : r.symbol,
      tokenName: native ? (chain?.currency_symbol ?? null) : r.token_name,
      decimals: native ? (chain?.currency_decimals ?? 18) : r.decimals,
      value: BigInt(r.value),
      laws: r.laws,
      unjudged: r.unjudged,
      internal: r.internal,
      valuations,
      addressJurisdiction: r.jurisdiction,
    };
  });
}

/** A checked transfer that met some rules, with when it was checked (the clock of a 24-hour aviso starts then). */
export interface CheckedTransfer {
  addressId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
  userId: string;
  blockTime: Date;
  evaluatedAt: Date;
  laws: string[];
}

/** The project's checked transfers in [from, to) that met one of `rules`, oldest first. */
export async function transfersMeeting(
  db: Kysely<DB>,
  q: { projectId: number; rules: readonly string[]; from: Date; to: Date },
): Promise<CheckedTransfer[]> {
  const { rows } = await sql<{
    address_id: string;
    chain_id: number;
    tx_hash: string;
    log_index: number;
    foreign_user_id: string;
    block_time: Date | string;
    evaluated_at: Date | string;
    laws: string[];
  }>`
    SELECT mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index, ma.foreign_user_id, t.block_time, mt.evaluated_at,
      mt.laws
    FROM monitored_transfers mt
    ${joinTransferOf("mt")}
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    WHERE mt.project_id = ${q.projectId} AND mt.status = 'evaluated' AND mt.laws && ${[...q.rules]}::text[]
      AND t.block_time >= ${q.from} AND t.block_time < ${q.to}
    ORDER BY t.block_time, mt.tx_hash, mt.log_index`.execute(db);
  return rows.map((r) => ({
    addressId: Number(r.address_id),
    chainId: r.chain_id,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    userId: r.foreign_user_id,
    blockTime: new Date(r.block_time),
    evaluatedAt: new Date(r.evaluated_at),
    laws: r.laws,
  }));
}

/** When the last of the project's transfers of [from, to) was checked, or null when none was. */
export async function lastChecked(
  db: Kysely<DB>,
  projectId: number,
  from: Date,
  to: Date,
): Promise<Date | null> {
  const { rows } = await sql<{ at: Date | string | null }>`
    SELECT max(mt.evaluated_at) AS at FROM monitored_transfers mt
    ${joinTransferOf("mt")}
    WHERE mt.project_id = ${projectId} AND mt.status = 'evaluated' AND t.block_time >= ${from} AND t.block_time < ${to}`.execute(
    db,
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}

/**
 * Which of these transaction hashes are recorded transfers of the project's monitored addresses, as `userId\nhash`
 * pairs of the client whose address it touched: an exchange's own record of a crypto deposit or withdrawal that the
 * chain monitoring also saw is one operation, judged once (as the transfer). Hashes as the chain data stores them.
 */
export async function monitoredTxHashes(
  db: Kysely<DB>,
  projectId: number,
  hashes: readonly string[],
  /** only the transfers checked that met one of these rules */
  meeting?: readonly string[],
): Promise<Set<string>> {
  if (hashes.length === 0) return new Set();
  const met = meeting ? sql`AND mt.status = 'evaluated' AND mt.laws && ${[...meeting]}::text[]` : sql``;
  const { rows } = await sql<{ foreign_user_id: string; tx_hash: string }>`
    SELECT DISTINCT ma.foreign_user_id, mt.tx_hash FROM monitored_transfers mt
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    WHERE mt.project_id = ${projectId} AND mt.status <> 'unwound' AND mt.tx_hash = ANY(${[...new Set(hashes)]}::text[])
      ${met}`.execute(db);
  return new Set(rows.map((r) => `${r.foreign_user_id}\n${r.tx_hash}`));
}
