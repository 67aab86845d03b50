// Which law rules (law-rules.ts) one monitored transfer infringes, for the jurisdictions a project enables (the
// international rules apply to every project). Pure: the caller gives the transfer's USD value at its day's price,
// the day's MXN rate, the counterparty's label category and the user's earlier amounts in the rules' windows.
// A transfer that infringes nothing gives an empty list; one that infringes several lists them all, in the
// table's order. An amount rule that cannot be judged (no price, or no MXN rate for a rule in UMA) is reported in
// `unjudged` instead of being guessed.
import { LAW_RULES, type LawRule, type RuleAmount } from "./law-rules.ts";
import { umaOn } from "./uma.ts";

export interface TransferFacts {
  /** UTC day of the transfer, YYYY-MM-DD */
  day: string;
  /** USD value at the day's price; null when the token has no price that day */
  usd: number | null;
  /** MXN per USD on the day (or the nearest earlier day); null when no rate is known */
  mxnPerUsd: number | null;
  /** the counterparty's label category (sanctioned, mixer, ...), if it has one */
  counterpartyCategory: string | undefined;
  /** the user's earlier transfers (all of its addresses) in each window, before this one */
  earlier: {
    /**
     * the six months before this transfer, in MXN (each at its own day's rate), counting only transfers under the
     * single-operation threshold and not yet part of an accumulation that was notified
     */
    sixMonthsSubThresholdMxn: number;
    /** this calendar month, in USD */
    calendarMonthUsd: number;
  };
}

export interface InflictedLaw {
  id: string;
  name: string;
  description: string;
  source: string;
  risk: "warn" | "illegal";
  country: string;
  countryCode: string | null;
  verified: boolean;
}

export interface Evaluation {
  laws: InflictedLaw[];
  /** amount rules that could not be judged, with why */
  unjudged: { id: string; reason: string }[];
}

export function evaluateTransfer(
  jurisdictions: readonly string[],
  facts: TransferFacts,
  rules: readonly LawRule[] = LAW_RULES,
): Evaluation {
  const laws: InflictedLaw[] = [];
  const unjudged: Evaluation["unjudged"] = [];
  for (const rule of rules) {
    if (rule.countryCode !== undefined && !jurisdictions.includes(rule.countryCode)) continue;
    if (rule.validFrom !== undefined && facts.day < rule.validFrom) continue;
    if (rule.validTo !== undefined && facts.day > rule.validTo) continue;
    const verdict = judge(rule, facts);
    if (verdict === true) laws.push(inflicted(rule));
    else if (typeof verdict === "string") unjudged.push({ id: rule.id, reason: verdict });
  }
  return { laws, unjudged };
}

/** true: infringed; false: not; a string: why it could not be judged. */
function judge(rule: LawRule, facts: TransferFacts): boolean | string {
  const check = rule.check;
  if (check.kind === "counterparty") {
    return facts.counterpartyCategory !== undefined && check.categories.includes(facts.counterpartyCategory);
  }
  if (facts.usd === null) return "the token has no USD price on the transfer's day";
  const needsMxn = "uma" in check.minimum;
  if (needsMxn && facts.mxnPerUsd === null) return "no MXN exchange rate is known for the transfer's day";
  // Compared in the rule's own unit (MXN for UMA amounts, USD otherwise), to the cent, as the laws state amounts.
  const amount = cents(needsMxn ? facts.usd * (facts.mxnPerUsd as number) : facts.usd);
  const threshold = inUnit(check.minimum, facts.day);
  if (check.kind === "single") return check.strict ? amount > threshold : amount >= threshold;
  if (check.subThresholdOnly && amount >= inUnit(check.subThresholdOnly, facts.day)) return false;
  const earlier =
    check.window === "six-months" ? facts.earlier.sixMonthsSubThresholdMxn : facts.earlier.calendarMonthUsd;
  // Fires on the transfer whose amount takes the window's total past the threshold (past it: above for the MX
  // accumulation, which speaks of exceeding; reaching it for Colombia's "reach USD 450").
  const total = cents(earlier + amount);
  return check.window === "six-months"
    ? earlier <= threshold && total > threshold
    : earlier < threshold && total >= threshold;
}

/** A rule amount in its own unit (MXN for UMA, USD) on a day, to the cent. */
function inUnit(amount: RuleAmount, day: string): number {
  return cents("uma" in amount ? amount.uma * umaOn(day) : amount.usd);
}

const cents = (n: number) => Math.round(n * 100) / 100;

function inflicted(rule: LawRule): InflictedLaw {
  return {
    id: rule.id,
    name: rule.name,
    description: rule.description,
    source: rule.source,
    risk: rule.risk,
    country: rule.country,
    countryCode: rule.countryCode ?? null,
    verified: rule.verified,
  };
}
