// What the reports are built from: the transfers of a project's monitored addresses as the checker judged them
// (src/monitoring), with the law rules each infringed and the USD price and MXN rate it was judged at. Reports
// cite these verdicts; they do not judge transfers again.
import { type Kysely, sql } from "kysely";
import type { ChainRegistry } from "../chains/index.ts";
import type { DB } from "../schema.ts";

export interface ReportOperation {
  addressId: number;
  chainId: number;
  txHash: string;
  logIndex: number;
  blockTime: Date;
  userId: string;
  /** the user's monitored address the transfer touched */
  address: string;
  direction: "in" | "out";
  counterparty: string;
  /** `native`, or the token contract */
  token: string;
  /** the asset's ticker (the chain's currency for native transfers), when known */
  symbol: string | null;
  decimals: number | null;
  /** raw amount in the token's smallest unit */
  value: bigint;
  priceUsd: number | null;
  mxnPerUsd: number | null;
  laws: string[];
}

interface Row {
  address_id: string;
  chain_id: number;
  tx_hash: string;
  log_index: number;
  block_time: Date | string;
  foreign_user_id: string;
  address: string;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
  symbol: string | null;
  decimals: number | null;
  price_usd: string | null;
  mxn_per_usd: string | null;
  laws: string[] | null;
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
}

/**
 * The checked transfers (not unwound by a reorg) of the project's monitored addresses in [from, to), oldest first
 * within each user.
 */
export async function readOperations(
  db: Kysely<DB>,
  registry: ChainRegistry,
  q: OperationQuery,
): Promise<ReportOperation[]> {
  const { rows } = await sql<Row>`
    SELECT mt.address_id, mt.chain_id, mt.tx_hash, mt.log_index, t.block_time, ma.foreign_user_id, ma.address,
      t.from_address, t.to_address, t.token, t.value::text AS value, tk.symbol, tk.decimals,
      mt.price_usd::text AS price_usd, mt.mxn_per_usd::text AS mxn_per_usd, mt.laws
    FROM monitored_transfers mt
    JOIN transfers t ON t.chain_id = mt.chain_id AND t.tx_hash = mt.tx_hash AND t.log_index = mt.log_index
    JOIN monitored_addresses ma ON ma.id = mt.address_id
    LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    WHERE mt.project_id = ${q.projectId} AND mt.status = 'evaluated'
      ${q.from ? sql`AND t.block_time >= ${q.from}` : sql``}
      ${q.to ? sql`AND t.block_time < ${q.to}` : sql``}
      ${q.userId !== undefined ? sql`AND ma.foreign_user_id = ${q.userId}` : sql``}
      ${
        q.transfer
          ? sql`AND mt.address_id = ${q.transfer.addressId} AND mt.chain_id = ${q.transfer.chainId}
              AND mt.tx_hash = ${q.transfer.txHash} AND mt.log_index = ${q.transfer.logIndex}`
          : sql``
      }
    ORDER BY ma.foreign_user_id, t.block_time, mt.tx_hash, mt.log_index, mt.address_id`.execute(db);
  return rows.map((r) => {
    const out = r.from_address === r.address;
    const chain = registry.get(r.chain_id);
    const native = r.token === "native";
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
      decimals: native ? (chain?.currency_decimals ?? 18) : r.decimals,
      value: BigInt(r.value),
      priceUsd: r.price_usd === null ? null : Number(r.price_usd),
      mxnPerUsd: r.mxn_per_usd === null ? null : Number(r.mxn_per_usd),
      laws: r.laws ?? [],
    };
  });
}

/** The operations grouped by user, users in order of their id (each user's operations keep their order). */
export function byUser(operations: ReportOperation[]): [string, ReportOperation[]][] {
  const groups = new Map<string, ReportOperation[]>();
  for (const op of operations) {
    const list = groups.get(op.userId);
    if (list) list.push(op);
    else groups.set(op.userId, [op]);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The amount in whole tokens as a decimal string, exact (no floating point), or null without decimals. */
export function wholeTokens(value: bigint, decimals: number | null): string | null {
  if (decimals === null) return null;
  const unit = 10n ** BigInt(decimals);
  const fraction = (value % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction ? `${value / unit}.${fraction}` : `${value / unit}`;
}

/** The USD value of an operation at its judged price, or null without a price. */
export function usdValue(op: ReportOperation): number | null {
  if (op.priceUsd === null || op.decimals === null) return null;
  const unit = 10n ** BigInt(op.decimals);
  return Number(op.value / unit) * op.priceUsd + (Number(op.value % unit) / Number(unit)) * op.priceUsd;
}

/** The MXN value of an operation at its judged price and rate, or null without either. */
export function mxnValue(op: ReportOperation): number | null {
  const usd = usdValue(op);
  return usd === null || op.mxnPerUsd === null ? null : usd * op.mxnPerUsd;
}
