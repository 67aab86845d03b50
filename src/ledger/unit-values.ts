// The USD value of one unit of a fiat currency or of a virtual asset named by its symbol, on a day: what the
// exchange's operations are valued at (they name "MXN" or "USDT", not a token contract). A currency takes the
// day's rate or the nearest earlier one within `rateDays` (rates are not published on weekends); an asset takes the
// day's price of any token of that symbol on the chains asked (a native coin by its chain), else a stablecoin's
// pegged value. Null when nothing is known: an unvalued operation is never valued 0. And the label category of one
// address, which the law judges an exchange's crypto movement by.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { strongestCategoryOf } from "./fragments.ts";

export interface UnitQuery {
  /** `fiat:MXN` or `asset:USDT` */
  unit: string;
  /** YYYY-MM-DD */
  day: string;
}

/** USD per unit for each query, keyed `unit|day`. `natives`: a coin's symbol → the chains whose native coin it is. */
export async function usdPerUnit(
  db: Kysely<DB>,
  queries: readonly UnitQuery[],
  natives: ReadonlyMap<string, readonly number[]>,
  rateDays: number,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  const wanted = [...new Map(queries.map((q) => [`${q.unit}|${q.day}`, q])).values()];
  for (const q of wanted) {
    const [kind, code] = q.unit.split(":") as [string, string];
    const key = `${q.unit}|${q.day}`;
    if (kind === "fiat") {
      if (code === "USD") {
        out.set(key, 1);
        continue;
      }
      const { rows } = await sql<{ per_usd: string }>`
        SELECT per_usd::text AS per_usd FROM fx_rates
        WHERE currency = ${code} AND day <= ${q.day}::date AND day > ${q.day}::date - ${rateDays}::int
        ORDER BY day DESC LIMIT 1`.execute(db);
      const per = rows[0] ? Number(rows[0].per_usd) : null;
      out.set(key, per ? 1 / per : null);
      continue;
    }
    const chains = [...(natives.get(code) ?? [])];
    const { rows } = await sql<{ price: string | null }>`
      SELECT COALESCE(
        (SELECT p.price_usd FROM prices p JOIN tokens tk ON tk.chain_id = p.chain_id AND tk.address = p.token
          WHERE upper(tk.symbol) = ${code} AND p.day = ${q.day}::date ORDER BY p.chain_id LIMIT 1),
        (SELECT p.price_usd FROM prices p WHERE p.token = 'native' AND p.chain_id = ANY(${chains}::int[])
          AND p.day = ${q.day}::date ORDER BY p.chain_id LIMIT 1),
        (SELECT tk.pegged_usd FROM tokens tk WHERE upper(tk.symbol) = ${code} AND tk.pegged_usd IS NOT NULL
          ORDER BY tk.chain_id LIMIT 1))::text AS price`.execute(db);
    const price = rows[0]?.price;
    out.set(key, price === null || price === undefined ? null : Number(price));
  }
  return out;
}

/** The strongest label category of an address on a chain (its own labels and every chain's), or undefined. */
export async function labelCategoryOf(
  db: Kysely<DB>,
  chainId: number,
  address: string,
): Promise<string | undefined> {
  const { rows } = await sql<{ category: string | null }>`
    SELECT ${strongestCategoryOf(sql`${address}`, sql`${chainId}`)} AS category`.execute(db);
  return rows[0]?.category ?? undefined;
}
