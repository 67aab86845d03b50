// What a devnet writes into the service's store beside the chain itself: the scenario's labels (source
// `vigia-devnet` on chain 31337, `vigia-tron-devnet` on the Tron devnet's; the labels of that source not in the
// scenario any more are removed), the tokens' metadata, and daily USD prices of the native coin and the tokens (ETH,
// USDV and TKN on the EVM devnet; TRX and USDT on the Tron devnet) for every day of the scenario (from the scenario's
// priceOn, as the plan's chain tokens write it),
// then each token's last price carried on to tomorrow, so that transfers made on the devnet now (the quickstart's
// monitored transfer, a report of this month) have a USD value; and daily demo exchange rates of the currencies the
// jurisdictions value operations in (MXN for Mexico's UMA thresholds, COP for Colombia's files) over the same days.
// Every write is idempotent: a second run the same day changes nothing.
import type { Kysely } from "kysely";
import { afterExchangeLabelChange } from "../../attribution/index.ts";
import { upsertTokens } from "../../chains/store/index.ts";
import { LabelStage, type MergeCounts } from "../../ingest/labels/index.ts";
import type { DB } from "../../schema.ts";
import { DAY, type TokenSymbol, type World } from "../world.ts";
import type { DevnetPlan } from "./devnet-plan.ts";

export interface DevnetDataSummary {
  labels: MergeCounts;
  prices: { rows: number; written: number };
  tokens: number;
  fxRates: number;
}

/** The demo's exchange rates, units per USD: round figures near their 2024-2026 levels, the same every day. */
export const DEVNET_FX_RATES: Readonly<Record<string, string>> = { MXN: "18.50", COP: "4000.00" };

export async function writeDevnetData(
  db: Kysely<DB>,
  world: World,
  plan: DevnetPlan,
  now: number = Date.now(),
): Promise<DevnetDataSummary> {
  const labels = await writeScenarioLabels(
    db,
    plan.chainId,
    plan.labelSource,
    world.labelled().map((account) => ({ address: account.address.toLowerCase(), ...account.label! })),
  );

  const contracts = Object.entries(plan.contracts) as [TokenSymbol, string][];
  await upsertTokens(
    db,
    contracts.map(([token, address]) => {
      const spec = plan.chainTokens.tokens[token];
      return {
        chainId: plan.chainId,
        address,
        symbol: spec.symbol,
        name: spec.name,
        decimals: spec.decimals,
      };
    }),
  );

  const rows = dailyPrices(plan, now).map((p) => ({ chain_id: plan.chainId, ...p }));
  const written = await writeScenarioPrices(db, rows);
  const fxRates = await writeScenarioFxRates(db, [...new Set(rows.map((r) => r.day))]);
  return {
    labels,
    prices: { rows: rows.length, written },
    tokens: contracts.length,
    fxRates,
  };
}

/** A scenario's labels on its chain under its source; the source's labels not in `labels` any more are removed. */
export async function writeScenarioLabels(
  db: Kysely<DB>,
  chainId: number,
  source: string,
  labels: readonly { address: string; label: string; category: string }[],
): Promise<MergeCounts> {
  // Exchange labels decide which addresses are deposit addresses: a change re-judges them (src/attribution).
  const { result } = await afterExchangeLabelChange(db, () =>
    db.transaction().execute(async (trx) => {
      const stage = await LabelStage.create(trx);
      let line = 0;
      for (const entry of labels) {
        await stage.add(++line, {
          address: entry.address,
          chainId,
          label: entry.label,
          category: entry.category,
          originalCategory: null,
          source,
          confidence: 100,
        });
      }
      return stage.merge({ replaceSources: [source] });
    }),
  );
  return result;
}

/** Daily prices, a changed one updated; how many rows were written. */
export async function writeScenarioPrices(
  db: Kysely<DB>,
  rows: readonly { chain_id: number; token: string; day: string; price_usd: string }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const written = await db
    .insertInto("prices")
    .values([...rows])
    .onConflict((oc) =>
      oc
        .columns(["chain_id", "token", "day"])
        .doUpdateSet((eb) => ({ price_usd: eb.ref("excluded.price_usd") }))
        .whereRef("prices.price_usd", "is distinct from", "excluded.price_usd"),
    )
    .executeTakeFirst();
  return Number(written.numInsertedOrUpdatedRows ?? 0n);
}

/** The demo's exchange rates on each of `days` (YYYY-MM-DD), kept where a day has one; how many were offered. */
export async function writeScenarioFxRates(db: Kysely<DB>, days: readonly string[]): Promise<number> {
  const fx = days.flatMap((day) =>
    Object.entries(DEVNET_FX_RATES).map(([currency, perUsd]) => ({ day, currency, per_usd: perUsd })),
  );
  for (let i = 0; i < fx.length; i += 1_000)
    await db
      .insertInto("fx_rates")
      .values(fx.slice(i, i + 1_000))
      .onConflict((oc) => oc.columns(["day", "currency"]).doNothing())
      .execute();
  return fx.length;
}

/**
 * The scenario's daily prices of the chain's native coin (`native`) and of each contract of the plan, then (with
 * `now`, epoch ms) each one's last scenario price for every day after it up to the day after `now`.
 */
export function dailyPrices(
  plan: DevnetPlan,
  now?: number,
): { token: string; day: string; price_usd: string }[] {
  const rows: { token: string; day: string; price_usd: string }[] = [];
  const through =
    now === undefined ? plan.lastDay : Math.max(plan.lastDay, (Math.floor(now / 1000 / DAY) + 1) * DAY);
  const priced: [TokenSymbol, string][] = [
    ["ETH", "native"],
    ...(Object.entries(plan.contracts) as [TokenSymbol, string][]),
  ];
  for (let day = plan.firstDay; day <= through; day += DAY) {
    const date = new Date(day * 1000).toISOString().slice(0, 10);
    for (const [symbol, token] of priced) {
      const price = plan.chainTokens.price(symbol, Math.min(day, plan.lastDay));
      rows.push({ token, day: date, price_usd: String(price) });
    }
  }
  return rows;
}
