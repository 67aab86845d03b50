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

/**
 * USD per unit for each query, keyed `unit|day`, in two statements whatever the number of queries (one for the
 * currencies, one for the assets). `natives`: a coin's symbol → the chains whose native coin it is.
 */
export async function usdPerUnit(
  db: Kysely<DB>,
  queries: readonly UnitQuery[],
  natives: ReadonlyMap<string, readonly number[]>,
  rateDays: number,
): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  const wanted = [...new Map(queries.map((q) => [`${q.unit}|${q.day}`, q])).values()];
  const fiat: { code: string; day: string }[] = [];
  const asset: { code: string; day: string }[] = [];
  for (const q of wanted) {
    const [kind, code] = q.unit.split(":") as [string, string];
    if (kind === "fiat" && code === "USD") out.set(`${q.unit}|${q.day}`, 1);
    else (kind === "fiat" ? fiat : asset).push({ code, day: q.day });
  }
  if (fiat.length > 0) {
    const { rows } = await sql<{ code: string; day: string; per_usd: string | null }>`
      SELECT q.code, q.day::text AS day,
        (SELECT f.per_usd FROM fx_rates f WHERE f.currency = q.code AND f.day <= q.day
          AND f.day > q.day - ${rateDays}::int ORDER BY f.day DESC LIMIT 1)::text AS per_usd
      FROM unnest(${fiat.map((f) => f.code)}::text[], ${fiat.map((f) => f.day)}::date[]) AS q(code, day)`.execute(
      db,
    );
    for (const r of rows) {
      const per = r.per_usd === null ? null : Number(r.per_usd);
      out.set(`fiat:${r.code}|${String(r.day).slice(0, 10)}`, per ? 1 / per : null);
    }
  }
  if (asset.length > 0) {
    const pairs = [...natives].flatMap(([symbol, chains]) => chains.map((chain) => ({ symbol, chain })));
    const { rows } = await sql<{ code: string; day: string; price: string | null }>`
      SELECT q.code, q.day::text AS day, COALESCE(
        (SELECT p.price_usd FROM prices p JOIN tokens tk ON tk.chain_id = p.chain_id AND tk.address = p.token
          WHERE upper(tk.symbol) = q.code AND p.day = q.day ORDER BY p.chain_id LIMIT 1),
        (SELECT p.price_usd FROM prices p WHERE p.token = 'native' AND p.day = q.day AND p.chain_id IN (
          SELECT n.chain FROM unnest(${pairs.map((n) => n.symbol)}::text[], ${pairs.map((n) => n.chain)}::int[])
            AS n(symbol, chain) WHERE n.symbol = q.code) ORDER BY p.chain_id LIMIT 1),
        (SELECT tk.pegged_usd FROM tokens tk WHERE upper(tk.symbol) = q.code AND tk.pegged_usd IS NOT NULL
          ORDER BY tk.chain_id LIMIT 1))::text AS price
      FROM unnest(${asset.map((a) => a.code)}::text[], ${asset.map((a) => a.day)}::date[]) AS q(code, day)`.execute(
      db,
    );
    for (const r of rows)
      out.set(`asset:${r.code}|${String(r.day).slice(0, 10)}`, r.price === null ? null : Number(r.price));
  }
  return out;
}

/**
 * The strongest label category of each address on its chain (or on every chain), keyed `chainId|address`, in one
 * statement: what a client's many movements need at once.
 */
export async function labelCategoriesOf(
  db: Kysely<DB>,
  pairs: readonly { chainId: number; address: string }[],
): Promise<Map<string, string | undefined>> {
  const out = new Map<string, string | undefined>();
  const wanted = [...new Map(pairs.map((p) => [`${p.chainId}|${p.address}`, p])).values()];
  if (wanted.length === 0) return out;
  const { rows } = await sql<{ chain_id: number; address: string; category: string | null }>`
    SELECT x.chain_id, x.address, ${strongestCategoryOf(sql`x.address`, sql`x.chain_id`)} AS category
    FROM unnest(${wanted.map((p) => p.chainId)}::int[], ${wanted.map((p) => p.address)}::text[])
      AS x(chain_id, address)`.execute(db);
  for (const r of rows) out.set(`${r.chain_id}|${r.address}`, r.category ?? undefined);
  return out;
}
