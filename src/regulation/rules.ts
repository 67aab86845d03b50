// What a law rule is, as data: an id and a risk, and its versions, each with the dates it was in force, the text it
// rests on (article, paragraph, publication) and the check a transfer is judged by. A rule whose figures or dates
// changed (a reform, a new regulation) has one version per text, so that an operation is judged by the text in
// force on its own day in the jurisdiction's time zone. The rules themselves live with their jurisdiction
// (src/jurisdictions); this file knows no country.

import type { OperationAct } from "./operation.ts";

export type LawRisk = "warn" | "illegal";

/** An amount a rule measures against: in US dollars, or in a unit of the jurisdiction's (Mexico's UMA). */
export type RuleAmount = { usd: number } | { uma: number };

/** How an amount meets a threshold: "reaches or passes" (≥) or "passes" (>), as the text says. */
export type Comparison = "at-least" | "more-than";

/**
 * The types of act a rule on amounts judges, when it judges only some (Colombia's report is of transactions with
 * virtual assets: not of fiat deposited or withdrawn); every act but a fee when absent.
 */
export type Acts = readonly OperationAct[];

/** The acts that move virtual assets: on chain, and the exchange's trades and swaps. */
export const VIRTUAL_ASSET_ACTS: Acts = ["envio", "recepcion", "compra", "venta", "intercambio"];

export type RuleCheck =
  /** one transfer of the amount */
  | { kind: "single"; minimum: RuleAmount; compare: Comparison; acts?: Acts }
  /**
   * the client's transfers add up to the amount with this one; the jurisdiction's accumulation function (named by
   * `accumulation`) says which transfers count and whether this one reaches it
   */
  | { kind: "accumulated"; accumulation: string; minimum: RuleAmount; compare: Comparison; acts?: Acts }
  /**
   * the counterparty is labelled with one of these categories; with `onlyWith`, only when the same transfer also
   * infringes one of those rules (a duty that applied only to operations already subject to an aviso)
   */
  | { kind: "counterparty"; categories: readonly string[]; onlyWith?: readonly string[] }
  /** the counterparty is a virtual-asset service provider (an exchange), from this amount (any, when absent) */
  | { kind: "vasp-counterparty"; minimum?: RuleAmount; compare?: Comparison }
  /**
   * the client (or a person of its profile: representative, beneficial owner) is a `match` on one of these lists of
   * persons (src/screening: mx-lpb, un, ...), whatever the amount; with `onlyWith`, only when the same transfer
   * also infringes one of those rules
   */
  | { kind: "client-listed"; lists: readonly string[]; onlyWith?: readonly string[] }
  /**
   * the client resides in a country on one of these dated lists of high-risk jurisdictions on the operation's day
   * (the rule book's `highRiskOn`: the FATF's lists), whatever the amount
   */
  | { kind: "high-risk-residence"; lists: readonly string[] }
  /**
   * a fee charged on one operation of the amount or more, judged alone (never accumulated), unless the operation it
   * was charged on meets the single rule `coveredBy` itself (then one aviso, under that rule)
   */
  | { kind: "fee"; minimum: RuleAmount; compare: Comparison; coveredBy: string };

export interface RuleVersion {
  /** first and last day (YYYY-MM-DD, in the jurisdiction's time zone) the text was in force, inclusive */
  validFrom?: string;
  validTo?: string;
  /** what the rule asks, as a compliance officer reads it; what must be done and by when */
  description: string;
  /** the law, article, paragraph and publication (and where it was read) */
  source: string;
  /** false where the figures could not be checked against the text in force (the description says why) */
  verified: boolean;
  /**
   * the text itself asks for an alert on each operation that meets it (Mexico's RCG Art. 41 V): a `warn` rule that
   * raises one whatever the project's `alert_warn_rules`
   */
  alerts?: boolean;
  check: RuleCheck;
}

export interface LawRule {
  id: string;
  name: string;
  /** `illegal`: stop or escalate the operation; `warn`: a reporting duty or a risk indicator (the project's mapping) */
  risk: LawRisk;
  /** oldest first, their dates not overlapping */
  versions: readonly RuleVersion[];
}

/** The version of a rule in force on a day (YYYY-MM-DD), or undefined. */
export function versionOn(rule: LawRule, day: string): RuleVersion | undefined {
  return rule.versions.find(
    (v) => (v.validFrom === undefined || day >= v.validFrom) && (v.validTo === undefined || day <= v.validTo),
  );
}

/** Whether an amount meets a threshold, both to the cent. */
export function meets(amount: number, threshold: number, compare: Comparison): boolean {
  const a = cents(amount);
  const t = cents(threshold);
  return compare === "at-least" ? a >= t : a > t;
}

export const cents = (n: number): number => Math.round(n * 100) / 100;
