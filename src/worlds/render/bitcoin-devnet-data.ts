// What the Bitcoin devnet writes into the store beside its imported transactions: the world's labels (source
// `vigia-btc-devnet` on the devnet's chain; labels of that source no longer in the world are removed), BTC's daily
// USD price for every day of the scenario and, as the other devnets do, the last one carried on to tomorrow (so a
// monitored transfer or a report of this month has a USD value), and the demo's exchange rates on those days.
// Idempotent: a second run the same day changes nothing.
import type { Kysely } from "kysely";
import type { DB } from "../../schema.ts";
import { type BitcoinWorld, btcPriceOn } from "../bitcoin-world.ts";
import { DAY } from "../world.ts";
import {
  type DevnetDataSummary,
  writeScenarioFxRates,
  writeScenarioLabels,
  writeScenarioPrices,
} from "./devnet-data.ts";

export const BITCOIN_DEVNET_LABEL_SOURCE = "vigia-btc-devnet";

export async function writeBitcoinDevnetData(
  db: Kysely<DB>,
  world: BitcoinWorld,
  scenario: { chainId: number; firstDay: number; lastDay: number },
  now: number = Date.now(),
): Promise<DevnetDataSummary> {
  const labels = await writeScenarioLabels(
    db,
    scenario.chainId,
    BITCOIN_DEVNET_LABEL_SOURCE,
    [...world.labels].map(([address, label]) => ({ address, ...label })),
  );
  const through = Math.max(scenario.lastDay, (Math.floor(now / 1000 / DAY) + 1) * DAY);
  const rows: { chain_id: number; token: string; day: string; price_usd: string }[] = [];
  for (let day = scenario.firstDay; day <= through; day += DAY) {
    rows.push({
      chain_id: scenario.chainId,
      token: "native",
      day: new Date(day * 1000).toISOString().slice(0, 10),
      price_usd: String(btcPriceOn(Math.min(day, scenario.lastDay))),
    });
  }
  const written = await writeScenarioPrices(db, rows);
  const fxRates = await writeScenarioFxRates(
    db,
    rows.map((r) => r.day),
  );
  return { labels, prices: { rows: rows.length, written }, tokens: 0, fxRates };
}
