// The risk configuration of one analysis for one project: the service's (ctx.risk) plus the reporting thresholds
// of the jurisdictions the project enables, converted to USD at the rates of the days the graph's transfers fall
// on (src/jurisdictions lists each country's thresholds; src/regulation converts them). Settings and rates are read through short-lived caches (a project's jurisdictions for
// 5 s, a currency's rates for 60 s): quick checks run hundreds of times a second, and a change made by PATCH
// /projects or `vigia import fx` takes effect within that time.
import type { Kysely } from "kysely";
import { jurisdictionsOf } from "../jurisdictions/index.ts";
import { dailyRates } from "../ledger/index.ts";
import { TtlCache } from "../platform/ttl-cache.ts";
import { currenciesNeeded, type FxRates, reportingThresholds } from "../regulation/index.ts";
import type { RiskConfig, TxGraph } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AnalysisContext } from "./context.ts";

const JURISDICTIONS_TTL_MS = 5_000;
const RATES_TTL_MS = 60_000;

interface Caches {
  jurisdictions: TtlCache<number, readonly string[]>;
  rates: TtlCache<string, FxRates>;
}
const caches = new WeakMap<Kysely<DB>, Caches>();

function cachesFor(ctx: AnalysisContext): Caches {
  let c = caches.get(ctx.db);
  if (!c) {
    c = {
      jurisdictions: new TtlCache(
        (projectId) => ctx.projectJurisdictions?.(projectId) ?? Promise.resolve([]),
        JURISDICTIONS_TTL_MS,
      ),
      rates: new TtlCache<string, FxRates>((currency) => dailyRates(ctx.db, currency), RATES_TTL_MS, 100),
    };
    caches.set(ctx.db, c);
  }
  return c;
}

/** The UTC days of the graph's transfers (a busy address's 1,000 transfers fall on far fewer days). */
function daysOf(graph: TxGraph): string[] {
  const days = new Set<number>();
  for (const e of graph.edges) days.add(Math.floor(e.at / 86_400));
  return [...days].map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10));
}

/** ctx.risk with the project's jurisdictions' thresholds for this graph's days. */
export async function riskConfigFor(
  ctx: AnalysisContext,
  projectId: number,
  graph: TxGraph,
): Promise<RiskConfig | undefined> {
  // Nothing to convert for an address without transfers (the jurisdictions' thresholds apply to transfers only).
  if (graph.edges.length === 0) return ctx.risk;
  const c = cachesFor(ctx);
  const jurisdictions = await c.jurisdictions.get(projectId);
  if (jurisdictions.length === 0) return ctx.risk;
  const specs = jurisdictionsOf(jurisdictions).flatMap((j) => j.thresholds);
  const rates: Record<string, FxRates> = {};
  for (const currency of currenciesNeeded(specs)) rates[currency] = await c.rates.get(currency);
  const thresholds = reportingThresholds(specs, daysOf(graph), rates);
  if (thresholds.length === 0) return ctx.risk;
  return {
    ...ctx.risk,
    extraThresholds: [...(ctx.risk?.extraThresholds ?? []), ...thresholds],
  };
}
