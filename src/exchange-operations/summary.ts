// A client's operations in figures, for its picture (src/cases): since a day, how many of each kind and their USD
// value (valued as the rules value them: the fiat side of a trade, the asset at its day's price), how many distinct
// payers paid it in and to how many destinations it withdrew. Bounded: the newest SUMMARY_MAX operations.
import type { Kysely } from "kysely";
import { usdPerUnit } from "../ledger/index.ts";
import { RATE_DAYS } from "../monitoring/index.ts";
import type { DB } from "../schema.ts";
import type { OperationItem } from "./schemas.ts";
import { unitOf } from "./units.ts";

export const SUMMARY_MAX = 10_000;

/** A client's latest custody snapshot, each balance valued on the snapshot's day (RCG Art. 24 Bis 3 asks for MXN). */
export interface CustodyView {
  at: string;
  balances: {
    asset: string;
    amount: string;
    chainId: number | null;
    address: string | null;
    since: string | null;
    usd: number | null;
    mxn: number | null;
  }[];
}

export interface OperationSummary {
  since: string;
  count: number;
  /** more operations were held than summed (the newest SUMMARY_MAX were) */
  truncated: boolean;
  first: string | null;
  last: string | null;
  byKind: { kind: string; count: number; usd: number; unvalued: number }[];
  payers: number;
  destinations: number;
  /** the newest custody snapshot, whenever it was sent (not only within the period) */
  custody: CustodyView | null;
}

export async function operationSummary(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  since: Date,
  natives: ReadonlyMap<string, readonly number[]> = new Map(),
): Promise<OperationSummary> {
  const rows = await db
    .selectFrom("exchange_operations")
    .select(["body"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("at", ">=", since)
    .orderBy("at", "desc")
    .limit(SUMMARY_MAX + 1)
    .execute();
  const truncated = rows.length > SUMMARY_MAX;
  const items = rows
    .slice(0, SUMMARY_MAX)
    .map((r) => (typeof r.body === "string" ? JSON.parse(r.body) : r.body) as OperationItem);
  const units = items.map((o) => ({ o, u: unitOf(o), day: String(o.at).slice(0, 10) }));
  const prices = await usdPerUnit(
    db,
    units.flatMap((x) => (x.u ? [{ unit: x.u.unit, day: x.day }] : [])),
    natives,
    RATE_DAYS,
  );
  const byKind = new Map<string, { kind: string; count: number; usd: number; unvalued: number }>();
  const payers = new Set<string>();
  const destinations = new Set<string>();
  for (const { o, u, day } of units) {
    const k = byKind.get(o.kind) ?? { kind: o.kind, count: 0, usd: 0, unvalued: 0 };
    k.count += 1;
    const per = u ? prices.get(`${u.unit}|${day}`) : null;
    if (u && per != null) k.usd = Math.round((k.usd + Number(u.amount) * per) * 100) / 100;
    else if (u) k.unvalued += 1;
    byKind.set(o.kind, k);
    if (o.kind === "fiat_deposit" && o.counterparty)
      payers.add(o.counterparty.taxId ?? o.counterparty.account ?? o.counterparty.name.toUpperCase());
    if (o.kind === "crypto_withdrawal") destinations.add(`${o.chainId}:${o.address}`);
  }
  return {
    custody: await latestCustody(db, projectId, userId, natives),
    since: since.toISOString(),
    count: items.length,
    truncated,
    first: items.at(-1)?.at ?? null,
    last: items[0]?.at ?? null,
    byKind: [...byKind.values()].sort((a, b) => b.count - a.count || (a.kind < b.kind ? -1 : 1)),
    payers: payers.size,
    destinations: destinations.size,
  };
}

async function latestCustody(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  natives: ReadonlyMap<string, readonly number[]>,
): Promise<CustodyView | null> {
  const row = await db
    .selectFrom("exchange_operations")
    .select("body")
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("kind", "=", "custody_snapshot")
    .orderBy("at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const snapshot = (typeof row.body === "string" ? JSON.parse(row.body) : row.body) as OperationItem;
  if (snapshot.kind !== "custody_snapshot") return null;
  const day = snapshot.at.slice(0, 10);
  const prices = await usdPerUnit(
    db,
    [...snapshot.balances.map((b) => ({ unit: `asset:${b.asset}`, day })), { unit: "fiat:MXN", day }],
    natives,
    RATE_DAYS,
  );
  const mxnUsd = prices.get(`fiat:MXN|${day}`) ?? null;
  return {
    at: snapshot.at,
    balances: snapshot.balances.map((b) => {
      const price = prices.get(`asset:${b.asset}|${day}`) ?? null;
      const usd = price === null ? null : Math.round(Number(b.amount) * price * 100) / 100;
      return {
        asset: b.asset,
        amount: b.amount,
        chainId: b.chainId ?? null,
        address: b.address ?? null,
        since: b.since ?? null,
        usd,
        mxn: usd === null || !mxnUsd ? null : Math.round((usd / mxnUsd) * 100) / 100,
      };
    }),
  };
}
