// Every transfer of a few transactions, read by hash: what the graph expansion needs to read a conversion (a swap
// through a router and its pools, src/risk/graph/conversions.ts) when it meets one of its transfers. One
// statement over the transfers' primary key, with each transfer's token metadata and day's price as the layer
// statement reads them (layer-read.ts).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** One transfer of a transaction read by hash. */
export interface TransactionTransferRow {
  tx_hash: string;
  log_index: number;
  /** decimal */
  block_number: string;
  /** unix seconds, decimal */
  at: string;
  from_address: string;
  to_address: string;
  token: string;
  /** decimal, in the token's smallest unit */
  value: string;
  symbol: string | null;
  decimals: number | null;
  /** decimal */
  price_usd: string | null;
}

/**
 * The transfers of `txHashes` on a chain, at most `rowLimit` (a transaction with thousands of transfers, an
 * airdrop's, is not a conversion anyone needs read whole), in hash and log order.
 */
export async function readTransactionTransfers(
  db: Kysely<DB>,
  chainId: number,
  txHashes: readonly string[],
  rowLimit: number,
): Promise<TransactionTransferRow[]> {
  if (txHashes.length === 0) return [];
  const hashes = [...new Set(txHashes)].sort();
  const { rows } = await sql<TransactionTransferRow>`
    SELECT t.tx_hash, t.log_index, t.block_number::text AS block_number,
      floor(date_part('epoch', t.block_time))::bigint::text AS at, t.from_address, t.to_address, t.token,
      t.value::text AS value, tk.symbol, tk.decimals, COALESCE(p.price_usd, tk.pegged_usd)::text AS price_usd
    FROM transfers t
    LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token
      AND p.day = (t.block_time AT TIME ZONE 'UTC')::date
    WHERE t.chain_id = ${chainId} AND t.tx_hash = ANY(${hashes}::text[])
    ORDER BY t.tx_hash, t.log_index
    LIMIT ${sql.lit(Math.max(1, Math.floor(rowLimit)))}`.execute(db);
  return rows;
}
