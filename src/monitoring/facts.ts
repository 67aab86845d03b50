// What checking a recorded transfer needs from the store: the transfer with its token, its USD value at the day's
// price, the day's MXN rate and the counterparty's riskiest label; and the user's earlier transfers (across all of
// the user's addresses in the project) in the six months before it, for the accumulation rules.
import { type Kysely, sql } from "kysely";
import { CATEGORY_ORDER } from "../risk/index.ts";
import type { DB } from "../schema.ts";

export interface PendingTransfer {
  addressId: number;
  projectId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
  blockTime: Date;
  address: string;
  foreignUserId: string;
  description: string | null;
  direction: "in" | "out";
  counterparty: string;
  token: string;
  /** raw amount in the token's smallest unit */
  value: bigint;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  /** USD per whole token on the transfer's day, when known */
  priceUsd: number | null;
  /** MXN per USD on the transfer's day or the nearest earlier one, when known */
  mxnPerUsd: number | null;
  counterpartyCategory: string | undefined;
}

interface Row {
  address_id: string;
  project_id: number;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_time: Date | string;
  address: string;
  foreign_user_id: string;
  description: string | null;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
  symbol: string | null;
  name: string | null;
  decimals: number | null;
  price_usd: string | null;
  mxn_per_usd: string | null;
  category: string | null;
}

/** Up to `limit` recorded transfers waiting to be checked, oldest first, with their facts. */
export async function readPending(db: Kysely<DB>, limit: number): Promise<PendingTransfer[]> {
  const { rows } = await sql<Row>`
    SELECT mt.address_id, mt.project_id, mt.chain_id, mt.tx_hash, mt.log_index, t.block_time,
      ma.address, ma.foreign_user_id, ma.description, t.from_address, t.to_address, t.token, t.value::text AS value,
      tk.symbol, tk.name, tk.decimals, p.price_usd::text AS price_usd,
      (SELECT f.per_usd::text FROM fx_rates f WHERE f.currency = 'MXN' AND f.day <= (t.block_time AT TIME ZONE 'UTC')::date
        ORDER BY f.day DESC LIMIT 1) AS mxn_per_usd,
      (SELECT l.category FROM labels l
        WHERE l.address = CASE WHEN t.from_address = ma.address THEN t.to_address ELSE t.from_address END
          AND l.chain_id IN (0, mt.chain_id)
        ORDER BY COALESCE(array_position(${[...CATEGORY_ORDER]}::text[], l.category), 1000), l.confidence DESC
        LIMIT 1) AS category
    FROM monitored_transfers mt
    JOIN transfers t ON t.chain_id = mt.chain_id AND t.tx_hash = mt.tx_hash AND t.log_index = mt.log_index
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token
      AND p.day = (t.block_time AT TIME ZONE 'UTC')::date
    WHERE mt.status = 'pending'
    ORDER BY mt.created_at, mt.block_number, mt.log_index
    LIMIT ${limit}`.execute(db);
  return rows.map((r) => {
    const out = r.from_address === r.address;
    return {
      addressId: Number(r.address_id),
      projectId: r.project_id,
      chainId: r.chain_id,
      txHash: r.tx_hash,
      logIndex: r.log_index,
      blockTime: new Date(r.block_time),
      address: r.address,
      foreignUserId: r.foreign_user_id,
      description: r.description,
      direction: out ? "out" : "in",
      counterparty: out ? r.to_address : r.from_address,
      token: r.token,
      value: BigInt(r.value),
      symbol: r.symbol,
      name: r.name,
      decimals: r.decimals,
      priceUsd: r.price_usd === null ? null : Number(r.price_usd),
      mxnPerUsd: r.mxn_per_usd === null ? null : Number(r.mxn_per_usd),
      counterpartyCategory: r.category ?? undefined,
    };
  });
}

export interface EarlierTransfer {
  blockTime: Date;
  /** USD at its day's price, when known */
  usd: number | null;
  /** MXN per USD on its day, when known */
  mxnPerUsd: number | null;
}

/**
 * The user's transfers (all of the user's addresses in the project, monitored or stopped) before this one and
 * within the six months before it, with their USD value and MXN rate; the native coin's decimals when the token
 * table has none.
 */
export async function earlierTransfers(
  db: Kysely<DB>,
  t: PendingTransfer,
  nativeDecimals: number,
): Promise<EarlierTransfer[]> {
  const since = new Date(t.blockTime);
  since.setUTCMonth(since.getUTCMonth() - 6);
  const { rows } = await sql<{
    block_time: Date | string;
    value: string;
    decimals: number | null;
    token: string;
    price_usd: string | null;
    mxn_per_usd: string | null;
  }>`
    SELECT t.block_time, t.value::text AS value, tk.decimals, t.token, p.price_usd::text AS price_usd,
      (SELECT f.per_usd::text FROM fx_rates f WHERE f.currency = 'MXN' AND f.day <= (t.block_time AT TIME ZONE 'UTC')::date
        ORDER BY f.day DESC LIMIT 1) AS mxn_per_usd
    FROM monitored_transfers mt
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    JOIN transfers t ON t.chain_id = mt.chain_id AND t.tx_hash = mt.tx_hash AND t.log_index = mt.log_index
    LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token
      AND p.day = (t.block_time AT TIME ZONE 'UTC')::date
    WHERE ma.project_id = ${t.projectId} AND ma.foreign_user_id = ${t.foreignUserId}
      AND mt.status <> 'unwound'
      AND t.block_time >= ${since} AND (t.block_time, t.tx_hash, t.log_index) < (${t.blockTime}, ${t.txHash}, ${t.logIndex})`.execute(
    db,
  );
  return rows.map((r) => {
    const decimals = r.token === "native" ? nativeDecimals : r.decimals;
    return {
      blockTime: new Date(r.block_time),
      usd: usdOf(BigInt(r.value), decimals, r.price_usd === null ? null : Number(r.price_usd)),
      mxnPerUsd: r.mxn_per_usd === null ? null : Number(r.mxn_per_usd),
    };
  });
}

/** A raw amount's USD value, or null without a price or decimals. */
export function usdOf(value: bigint, decimals: number | null, priceUsd: number | null): number | null {
  if (priceUsd === null || decimals === null) return null;
  // Whole and fractional parts apart, so that an 18-decimal amount keeps its precision.
  const unit = 10n ** BigInt(decimals);
  return Number(value / unit) * priceUsd + (Number(value % unit) / Number(unit)) * priceUsd;
}
