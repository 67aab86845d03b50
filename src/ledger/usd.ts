// The one USD value of a transfer: its amount in whole tokens times the token's price on the transfer's UTC day,
// to the cent. In JavaScript for rows already read (the graph expansion, the deposit-address heuristic), and the
// same formula in SQL for sums the database makes (a wallet report's volumes); test/ledger/usd.test.ts holds the
// two to one another.
//
// Doubles, not BigInt: Number(decimal string) is the correctly rounded double of the amount, so the value is
// exact to about 1e-15 of itself, far below a cent for any amount a chain carries, and the expansion converts
// 100,000s of rows per layer where a BigInt per row costs measurably (docs/benchmarks.md).
import { type RawBuilder, sql } from "kysely";

/**
 * A native coin's decimals when `tokens` has no row for it: Ethereum's 18. Chains whose coin has others (Tron's TRX:
 * 6) have a row under the address "native" (src/chains/native-decimals.ts); tokens take theirs from `tokens`.
 */
export const NATIVE_DECIMALS = 18;

/**
 * amount / 10^decimals x the price, to the cent; null without a price or without decimals (an unpriced token is
 * unvalued, never valued 0).
 */
export function usdValue(
  value: string | bigint,
  decimals: number | null,
  priceUsd: string | number | null,
): number | null {
  if (decimals === null || priceUsd === null) return null;
  return Math.round((Number(value) / 10 ** decimals) * Number(priceUsd) * 100) / 100;
}

/**
 * The same value in SQL, for the transfer aliased `t` with its token row `tk` and its price row `p` joined
 * (ledgerJoins): null when unpriced. A pegged token (tokens.pegged_usd: USDT at USD 1) has that value when no day's
 * price is held.
 */
export const USD_OF_TRANSFER: RawBuilder<number | null> = sql<number | null>`round(
  t.value::numeric / power(10::numeric, COALESCE(tk.decimals, ${NATIVE_DECIMALS})) * COALESCE(p.price_usd, tk.pegged_usd), 2)`;
