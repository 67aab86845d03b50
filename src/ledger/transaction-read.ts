// Every transfer of a few transactions, read by hash: what the graph expansion needs to read a conversion (a swap
// through a router and its pools, src/risk/graph/conversions.ts) when it meets one of its transfers. One prepared
// statement over the transfers' primary key, with each transfer's token metadata and day's price as the layer
// statement reads them, and the facts and strongest label of both its ends (layer-read.ts factsCtes): a quick
// check that meets a swap pays one statement for it, not two.
import { type Kysely, sql } from "kysely";
import { PREPARED } from "../platform/db/prepared.ts";
import type { DB } from "../schema.ts";
import type { AddressFacts } from "./address-facts.ts";
import { factsCtes, toFacts } from "./layer-read.ts";

/** One transfer of a transaction read by hash, with what the store knows of its two ends. */
export interface TransactionTransfer {
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
  fromFacts: AddressFacts;
  toFacts: AddressFacts;
}

interface Row extends Omit<TransactionTransfer, "fromFacts" | "toFacts"> {
  f_known: boolean;
  f_is_contract: boolean;
  f_first_seen_at: string | null;
  f_label: string | null;
  f_category: string | null;
  f_inferred: boolean | null;
  f_transfers: number;
  f_bridged: boolean;
  t_known: boolean;
  t_is_contract: boolean;
  t_first_seen_at: string | null;
  t_label: string | null;
  t_category: string | null;
  t_inferred: boolean | null;
  t_transfers: number;
  t_bridged: boolean;
}

const epoch = (column: string) => sql.raw(`floor(date_part('epoch', ${column}))::bigint`);

/**
 * The transfers of `txHashes` on a chain, at most `rowLimit` (a transaction with thousands of transfers, an
 * airdrop's, is not a conversion anyone needs read whole), in hash and log order.
 */
export async function readTransactionTransfers(
  db: Kysely<DB>,
  chainId: number,
  txHashes: readonly string[],
  rowLimit: number,
): Promise<TransactionTransfer[]> {
  if (txHashes.length === 0) return [];
  const hashes = [...new Set(txHashes)].sort();
  // The limit is written into the text (one value per configuration): a prepared statement's generic plan must
  // not guess it (layer-read.ts).
  const limit = sql.lit(Math.max(1, Math.floor(rowLimit)));
  const { rows } = await sql<Row>`${sql.raw(PREPARED)}
    WITH t AS MATERIALIZED (
      SELECT * FROM transfers
      WHERE chain_id = ${chainId} AND tx_hash = ANY(${hashes}::text[])
      ORDER BY tx_hash, log_index
      LIMIT ${limit}
    ),
    cps(a) AS MATERIALIZED (
      SELECT ARRAY(SELECT DISTINCT x FROM (SELECT from_address FROM t UNION SELECT to_address FROM t) e(x))
    ),
    ${factsCtes(chainId, sql`(SELECT a FROM cps)::text[]`)}
    SELECT t.tx_hash, t.log_index, t.block_number::text AS block_number, ${epoch("t.block_time")}::text AS at,
      t.from_address, t.to_address, t.token, t.value::text AS value, tk.symbol, tk.decimals,
      COALESCE(p.price_usd, tk.pegged_usd)::text AS price_usd,
      ff.address IS NOT NULL AS f_known, COALESCE(ff.is_contract, false) AS f_is_contract,
      ${epoch("ff.first_seen_at")}::text AS f_first_seen_at, fl.label AS f_label, fl.category AS f_category,
      fl.inferred AS f_inferred, COALESCE(ff.transfers, 0) AS f_transfers,
      COALESCE(ff.bridged, false) AS f_bridged,
      tf.address IS NOT NULL AS t_known, COALESCE(tf.is_contract, false) AS t_is_contract,
      ${epoch("tf.first_seen_at")}::text AS t_first_seen_at, tl.label AS t_label, tl.category AS t_category,
      tl.inferred AS t_inferred, COALESCE(tf.transfers, 0) AS t_transfers,
      COALESCE(tf.bridged, false) AS t_bridged
    FROM t
    LEFT JOIN fa ff ON ff.address = t.from_address
    LEFT JOIN lb fl ON fl.address = t.from_address
    LEFT JOIN fa tf ON tf.address = t.to_address
    LEFT JOIN lb tl ON tl.address = t.to_address
    LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    LEFT JOIN prices p ON p.chain_id = t.chain_id AND p.token = t.token
      AND p.day = (t.block_time AT TIME ZONE 'UTC')::date
    ORDER BY t.tx_hash, t.log_index`.execute(db);
  return rows.map((r) => ({
    tx_hash: r.tx_hash,
    log_index: r.log_index,
    block_number: r.block_number,
    at: r.at,
    from_address: r.from_address,
    to_address: r.to_address,
    token: r.token,
    value: r.value,
    symbol: r.symbol,
    decimals: r.decimals,
    price_usd: r.price_usd,
    fromFacts: toFacts({
      known: r.f_known,
      is_contract: r.f_is_contract,
      first_seen_at: r.f_first_seen_at,
      label: r.f_label,
      category: r.f_category,
      inferred: r.f_inferred,
      transfers: r.f_transfers,
      bridged: r.f_bridged,
    }),
    toFacts: toFacts({
      known: r.t_known,
      is_contract: r.t_is_contract,
      first_seen_at: r.t_first_seen_at,
      label: r.t_label,
      category: r.t_category,
      inferred: r.t_inferred,
      transfers: r.t_transfers,
      bridged: r.t_bridged,
    }),
  }));
}
