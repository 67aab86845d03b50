// Pieces of SQL for statements that join the ledger with another room's table in one round trip (a monitored
// transfer and the transfer it points at; a transfer and its token and price), or that a writer of the ledger's
// tables conditions its write on (what the store already holds). The other room writes its own
// statement and takes the ledger's part from here, so that how the ledger's tables are read stays in this room:
// the aliases are fixed (`t` a transfer, `tk` its token row), and each piece says what it expects around it.
import { type RawBuilder, sql } from "kysely";
import { CATEGORY_ORDER } from "../risk/index.ts";

/**
 * `JOIN transfers t …`: the transfer a row `of` points at by (chain_id, tx_hash, log_index), e.g. a monitored
 * transfer (`joinTransferOf("mt")` with the monitored transfers aliased mt).
 */
export function joinTransferOf(of: string): RawBuilder<unknown> {
  const a = sql.raw(of);
  return sql`JOIN transfers t ON t.chain_id = ${a}.chain_id AND t.tx_hash = ${a}.tx_hash AND t.log_index = ${a}.log_index`;
}

/** `LEFT JOIN tokens tk …`: the token row of the transfer `t` (null columns for the native coin or an unknown token). */
export const JOIN_TOKEN_OF_TRANSFER: RawBuilder<unknown> = sql`LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token`;

/** The USD price of the transfer `t`'s token on `day` (a SQL date), else its pegged value (USDT: 1), or null. */
export function priceOfTransferOn(day: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql`COALESCE(
    (SELECT p.price_usd FROM prices p WHERE p.chain_id = t.chain_id AND p.token = t.token AND p.day = ${day}),
    (SELECT pk.pegged_usd FROM tokens pk WHERE pk.chain_id = t.chain_id AND pk.address = t.token))`;
}

/** Units of `currency` per USD on `day` (a SQL date) or the latest of the `days` before it, or null. */
export function fxRateOn(
  currency: string,
  day: RawBuilder<unknown>,
  days: number,
): RawBuilder<string | null> {
  return sql`(SELECT f.per_usd FROM fx_rates f WHERE f.currency = ${currency} AND f.day <= ${day}
    AND f.day > ${day} - ${days}::int ORDER BY f.day DESC LIMIT 1)`;
}

/**
 * The strongest label category of `address` (a SQL expression) on `chainId` (a SQL expression), in the risk core's
 * order (CATEGORY_ORDER), or null.
 */
export function strongestCategoryOf(
  address: RawBuilder<unknown>,
  chainId: RawBuilder<unknown>,
): RawBuilder<string | null> {
  return sql`(SELECT l.category FROM labels l WHERE l.address = ${address} AND l.chain_id IN (0, ${chainId})
    ORDER BY COALESCE(array_position(${[...CATEGORY_ORDER]}::text[], l.category), 1000), l.confidence DESC LIMIT 1)`;
}

/** The block the indexer has confirmed last on `chainId`, or null (a subquery, for a row written with it). */
export function checkpointBlockOf(chainId: number): RawBuilder<string | null> {
  return sql`(SELECT block_number FROM indexer_checkpoints WHERE chain_id = ${chainId})`;
}

/**
 * Whether the store holds the token of the row `n` (columns chain_id, address, symbol, name, decimals) with every
 * field the row could fill already filled: a write of that row would change nothing.
 */
export function tokenHeldComplete(n: string): RawBuilder<boolean> {
  const a = sql.raw(n);
  return sql`EXISTS (SELECT 1 FROM tokens hk WHERE hk.chain_id = ${a}.chain_id AND hk.address = ${a}.address
    AND (hk.symbol IS NOT NULL OR ${a}.symbol IS NULL)
    AND (hk.name IS NOT NULL OR ${a}.name IS NULL)
    AND (hk.decimals IS NOT NULL OR ${a}.decimals IS NULL))`;
}

/** Whether the store already marks `address` (a SQL expression) on `chainId` as a contract. */
export function markedContract(chainId: number, address: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql`EXISTS (SELECT 1 FROM address_facts mc WHERE mc.chain_id = ${chainId} AND mc.address = ${address}
    AND mc.is_contract)`;
}
