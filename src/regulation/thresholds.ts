// The reporting thresholds of the jurisdictions a project enables (MX, CO, SV, GT), as the structuring detector
// uses them: amounts that a series of transfers kept just below would have avoided reporting (docs/api.md,
// "Structuring thresholds", gives the table with its sources). Thresholds set in a local currency are converted to
// USD at each day's exchange rate; those set in USD apply as they are. Pure: the caller reads the rates.
import { mxSingleOperationThresholdMxn } from "./mexico.ts";

export const JURISDICTION_CODES = ["MX", "CO", "SV", "GT"] as const;
export type JurisdictionCode = (typeof JURISDICTION_CODES)[number];

/** A threshold as the risk core takes it (src/risk structuring's ReportingThreshold). */
export interface DailyThreshold {
  name: string;
  /** USD value for days without their own (the value at the latest rate known) */
  usd: number;
  /** USD value by UTC day (YYYY-MM-DD), for thresholds set in a local currency */
  usdByDay?: Record<string, number>;
}

interface ThresholdRule {
  jurisdiction: JurisdictionCode;
  name: string;
  /** the threshold in its own currency on a day (YYYY-MM-DD) */
  amountOn(day: string): number;
  currency: "USD" | "MXN";
}

const RULES: readonly ThresholdRule[] = [
  {
    jurisdiction: "MX",
    name: "MX LFPIORPI Art. 17 XVI aviso",
    currency: "MXN",
    amountOn: mxSingleOperationThresholdMxn,
  },
  // Resolución UIAF 314 de 2021: a single virtual-asset transaction of USD 150 or more is reported.
  {
    jurisdiction: "CO",
    name: "CO UIAF Res. 314/2021 single transaction",
    currency: "USD",
    amountOn: () => 150,
  },
  // Ley contra el Lavado de Dinero y de Activos (D.L. 498) Art. 9: cash over USD 10,000, other operations over
  // USD 25,000 (figures not verified against the law's text; docs/api.md).
  { jurisdiction: "SV", name: "SV LCLDA Art. 9 cash operation", currency: "USD", amountOn: () => 10_000 },
  { jurisdiction: "SV", name: "SV LCLDA Art. 9 other operation", currency: "USD", amountOn: () => 25_000 },
  // Decreto 67-2001 Art. 24: cash operations over USD 10,000 are registered and reported to the IVE.
  {
    jurisdiction: "GT",
    name: "GT Decreto 67-2001 Art. 24 cash operation",
    currency: "USD",
    amountOn: () => 10_000,
  },
];

/** Units of a currency per US dollar by UTC day (YYYY-MM-DD), as the fx_rates table holds them. */
export type FxRates = ReadonlyMap<string, number>;

/** The currencies whose daily rates the thresholds of these jurisdictions need. */
export function currenciesNeeded(jurisdictions: readonly string[]): string[] {
  return [
    ...new Set(
      RULES.filter((r) => jurisdictions.includes(r.jurisdiction) && r.currency !== "USD").map(
        (r) => r.currency,
      ),
    ),
  ].sort();
}

/**
 * The thresholds of the enabled jurisdictions on the given days. A local-currency threshold takes each day's rate,
 * or the nearest earlier day's (rates are not published on every day), else the nearest later one; without any
 * rate of its currency it is left out, since its USD value is unknown.
 */
export function reportingThresholds(
  jurisdictions: readonly string[],
  days: readonly string[],
  rates: Readonly<Record<string, FxRates>>,
): DailyThreshold[] {
  const sortedDays = [...new Set(days)].sort();
  const out: DailyThreshold[] = [];
  for (const rule of RULES) {
    if (!jurisdictions.includes(rule.jurisdiction)) continue;
    if (rule.currency === "USD") {
      out.push({ name: rule.name, usd: rule.amountOn(sortedDays.at(-1) ?? "9999-12-31") });
      continue;
    }
    const byDay = rates[rule.currency];
    if (!byDay || byDay.size === 0) continue;
    const known = [...byDay.keys()].sort();
    const rateOn = (day: string) => byDay.get(nearestKnown(known, day)) as number;
    const usdByDay: Record<string, number> = {};
    for (const day of sortedDays) usdByDay[day] = round2(rule.amountOn(day) / rateOn(day));
    const latest = known.at(-1) as string;
    out.push({ name: rule.name, usd: round2(rule.amountOn(latest) / rateOn(latest)), usdByDay });
  }
  return out;
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
