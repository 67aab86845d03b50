// The transfers behind an analysis's evidence, for a wallet report to list (src/narratives): those of the given
// transactions whose both ends are among the given addresses, i.e. the hops of an exposure path (the root, the
// intermediaries, the labelled addresses at the far end) or of a pattern (its wallets and subject), and not the other
// transfers the same transactions made. Oldest first, with the token and the USD value of the transfer's day.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { JOIN_TOKEN_OF_TRANSFER } from "./fragments.ts";
import { NATIVE_DECIMALS, USD_OF_TRANSFER } from "./usd.ts";

export interface EvidenceTransfer {
  txHash: string;
  logIndex: number;
  at: Date;
  from: string;
  to: string;
  /** 'native' or the token contract's address */
  token: string;
  /** in the token's smallest unit, as a decimal string */
  value: string;
  /** null for the native coin (the chain's currency) and for a token the ledger has no metadata of */
  symbol: string | null;
  /** null for a token the ledger has no metadata of */
  decimals: number | null;
  /** null when the token had no price that day */
  usd: number | null;
}

/** At most `limit` transfers of `txHashes` between two of `addresses` on `chainId`, oldest first. */
export async function transfersAmong(
  db: Kysely<DB>,
  chainId: number,
  q: { txHashes: readonly string[]; addresses: readonly string[]; limit: number },
): Promise<EvidenceTransfer[]> {
  if (q.txHashes.length === 0 || q.addresses.length < 2 || q.limit <= 0) return [];
  const { rows } = await sql<{
    tx_hash: string;
    log_index: number;
    block_time: Date | string;
    from_address: string;
    to_address: string;
    token: string;
    value: string;
    symbol: string | null;
    decimals: number | null;
    usd: string | number | null;
  }>`
    SELECT t.tx_hash, t.log_index, t.block_time, t.from_address, t.to_address, t.token, t.value::text AS value,
      tk.symbol, tk.decimals, ${USD_OF_TRANSFER} AS usd
    FROM transfers t ${JOIN_TOKEN_OF_TRANSFER}
    LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token
      AND p.day = (t.block_time AT TIME ZONE 'UTC')::date
    WHERE t.chain_id = ${chainId} AND t.tx_hash = ANY(${[...q.txHashes]}::text[])
      AND t.from_address = ANY(${[...q.addresses]}::text[]) AND t.to_address = ANY(${[...q.addresses]}::text[])
    ORDER BY t.block_time, t.tx_hash, t.log_index
    LIMIT ${q.limit}`.execute(db);
  return rows.map((r) => ({
    txHash: r.tx_hash,
    logIndex: Number(r.log_index),
    at: new Date(r.block_time),
    from: r.from_address,
    to: r.to_address,
    token: r.token,
    value: r.value,
    symbol: r.token === "native" ? null : r.symbol,
    decimals: r.token === "native" ? (r.decimals ?? NATIVE_DECIMALS) : r.decimals,
    usd: r.usd === null ? null : Number(r.usd),
  }));
}
