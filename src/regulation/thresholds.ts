// The reporting thresholds of the jurisdictions a project enables, as the structuring detector uses them: amounts
// that a series of transfers kept just below would have avoided reporting (docs/api.md, "Structuring thresholds",
// gives the table with its sources; each jurisdiction lists its own in src/jurisdictions). Thresholds set in a local
// currency are converted to USD at each day's exchange rate; those set in USD apply as they are. Pure: the caller
// gives the jurisdictions' thresholds and reads the rates.

/** A threshold as the risk core takes it (src/risk structuring's ReportingThreshold). */
export interface DailyThreshold {
  name: string;
  /** USD value for days without their own (the value at the latest rate known) */
  usd: number;
  /** USD value by UTC day (YYYY-MM-DD), for thresholds set in a local currency */
  usdByDay?: Record<string, number>;
}

/** A jurisdiction's reporting threshold, as its rules set it: in USD, or in its own currency on each day. */
export interface ThresholdSpec {
  name: string;
  /** the threshold in `currency` on a day (YYYY-MM-DD); undefined on a day it has no known value */
  amountOn(day: string): number | undefined;
  currency: string;
}

/** Units of a currency per US dollar by UTC day (YYYY-MM-DD), as the fx_rates table holds them. */
export type FxRates = ReadonlyMap<string, number>;

/** The currencies whose daily rates these thresholds need. */
export function currenciesNeeded(thresholds: readonly ThresholdSpec[]): string[] {
  return [...new Set(thresholds.filter((r) => r.currency !== "USD").map((r) => r.currency))].sort();
}

/**
 * The thresholds of the enabled jurisdictions on the given days. A local-currency threshold takes each day's rate,
 * or the nearest earlier day's (rates are not published on every day), else the nearest later one; without any
 * rate of its currency it is left out, since its USD value is unknown.
 */
export function reportingThresholds(
  thresholds: readonly ThresholdSpec[],
  days: readonly string[],
  rates: Readonly<Record<string, FxRates>>,
): DailyThreshold[] {
  const sortedDays = [...new Set(days)].sort();
  const out: DailyThreshold[] = [];
  for (const rule of thresholds) {
    if (rule.currency === "USD") {
      const usd = rule.amountOn(sortedDays.at(-1) ?? "9999-12-31");
      if (usd !== undefined) out.push({ name: rule.name, usd });
      continue;
    }
    const byDay = rates[rule.currency];
    if (!byDay || byDay.size === 0) continue;
    const known = ratesDays(byDay);
    const rateOn = (day: string) => byDay.get(nearestKnown(known, day)) as number;
    const usdByDay: Record<string, number> = {};
    for (const day of sortedDays) {
      const amount = rule.amountOn(day);
      if (amount !== undefined) usdByDay[day] = round2(amount / rateOn(day));
    }
    const latest = known.at(-1) as string;
    const latestAmount = rule.amountOn(latest);
    if (latestAmount === undefined) continue;
    out.push({ name: rule.name, usd: round2(latestAmount / rateOn(latest)), usdByDay });
  }
  return out;
}

// The days of a currency's rates, sorted once per rates object: the caller keeps one for a minute (src/analysis's
// cache) and asks for the thresholds of every quick check, which sorted a year of days each time.
const sortedKnown = new WeakMap<FxRates, readonly string[]>();

function ratesDays(rates: FxRates): readonly string[] {
  let days = sortedKnown.get(rates);
  if (!days) {
    days = [...rates.keys()].sort();
    sortedKnown.set(rates, days);
  }
  return days;
}

/** The latest known day on or before `day`, else the earliest known day. `known` is sorted and not empty. */
function nearestKnown(known: readonly string[], day: string): string {
  let lo = 0;
  let hi = known.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((known[mid] as string) <= day) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return known[best === -1 ? 0 : best] as string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
