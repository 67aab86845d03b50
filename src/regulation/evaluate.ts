// The one evaluation loop: which rules of a rule book (a jurisdiction's, or the international rules) one client
// operation infringes. Pure: the caller gives the operation with its valuations, the client's earlier operations
// (for the accumulation rules) and what is known of the counterparty. Each rule is judged by its version in force
// on the operation's day in the book's time zone; amounts compare in the rule's own unit (MXN for UMA amounts, USD
// otherwise) to the cent. A rule that cannot be judged (no price, no rate, no UMA for the day) is reported in
// `unjudged` with the reason, never guessed.
import { actOf, byTime, type ClientOperation, type Counterparty, localIn, usdIn } from "./operation.ts";
import {
  type Comparison,
  type LawRule,
  meets,
  type RuleAmount,
  type RuleVersion,
  versionOn,
} from "./rules.ts";

/** What an accumulation rule's jurisdiction says of the client's operations up to the one judged. */
export interface AccumulationResult {
  /** the amount is reached with this operation */
  reached: boolean;
  /** the operations that add up (the judged one last), as its aviso reports them */
  operations: ClientOperation[];
  /** their total in the rule's unit */
  total: number;
}

export interface AccumulationInput extends BookUnits {
  book: RuleBook;
  /** the jurisdiction's settings in the project (Mexico's choice of accumulating by type of operation) */
  settings: unknown;
  rule: LawRule;
  version: RuleVersion;
  current: ClientOperation;
  /** the client's other operations, oldest first (those after the judged one are ignored) */
  history: readonly ClientOperation[];
}

/** How a rule book measures: a threshold in its unit on a day, and an operation's value in that unit. */
export interface BookUnits {
  /** the amount in its unit (MXN for UMA, USD) on a day, or why it is unknown */
  threshold: (amount: RuleAmount, day: string) => number | string;
  /** an operation's value in the unit of `amount` at the book's valuation, or null when it cannot be valued */
  worth: (op: ClientOperation, amount: RuleAmount) => number | null;
}

export function bookUnits(book: RuleBook): BookUnits {
  return {
    threshold: (amount, on) => {
      if ("usd" in amount) return amount.usd;
      const uma = book.umaOn?.(on);
      return uma === undefined ? `no UMA value is known for ${on}` : amount.uma * uma;
    },
    worth: (op, amount) => ("usd" in amount ? usdIn(op, book.code) : localIn(op, book.code)),
  };
}

/** The jurisdiction's accumulation: the result, or why it cannot be judged. */
export type Accumulation = (input: AccumulationInput) => AccumulationResult | string;

/** A set of rules with what judging them needs: a jurisdiction, or the international standards. */
export interface RuleBook {
  /** MX, CO, SV, GT; XB for the international rules */
  code: string;
  /** as a notification names it: "mexico", ..., "international" */
  country: string;
  /**
   * ISO 3166-1 code of the country; null for the international rules, whose laws are notified with `code` (XB, in
   * ISO 3166's user-assigned range: never a country) as their `countryCode`
   */
  countryCode: string | null;
  timeZone: string;
  /** the currency its valuations are in (ISO 4217) */
  currency: string;
  rules: readonly LawRule[];
  /** Mexico's UMA in MXN on a day, for rules in UMA; undefined where no value is known */
  umaOn?: (day: string) => number | undefined;
  /** a dated list of high-risk jurisdictions (the FATF's) in force on a day, for rules on the client's residence */
  highRiskOn?: (
    list: string,
    day: string,
  ) => { countries: readonly string[]; source: string; stale: boolean } | undefined;
  accumulations?: Readonly<Record<string, Accumulation>>;
}

export interface InflictedLaw {
  id: string;
  name: string;
  description: string;
  source: string;
  risk: "warn" | "illegal";
  country: string;
  /** always a code of ISO 3166's form: the country's, or XB for the international rules (decision 0027) */
  countryCode: string;
  verified: boolean;
  /** the text asks for an alert on each operation that meets it, whatever the project's `warn` rules */
  alerts?: boolean;
}

export interface Evaluation {
  laws: InflictedLaw[];
  /** rules that could not be judged, with why */
  unjudged: { id: string; reason: string }[];
}

export function evaluate(
  book: RuleBook,
  current: ClientOperation,
  history: readonly ClientOperation[],
  counterparty: Counterparty,
  settings?: unknown,
): Evaluation {
  const day = current.valuations[book.code]?.day;
  if (day === undefined) throw new Error(`operation ${current.txHash} has no valuation for ${book.code}`);
  const units = bookUnits(book);
  const { threshold, worth } = units;
  const unvalued = (): string =>
    current.decimals === null
      ? "the token's decimals are unknown"
      : current.valuations[book.code]?.priceUsd == null
        ? "the token has no USD price on the operation's day"
        : `no ${book.currency} exchange rate is known for the operation's day`;

  const laws: InflictedLaw[] = [];
  const unjudged: Evaluation["unjudged"] = [];
  /** what a hit found, said after its description (the country and the list a residence is on) */
  const details = new Map<string, string>();
  const judgeAmount = (amount: RuleAmount, compare: Comparison): boolean | string => {
    const t = threshold(amount, day);
    if (typeof t === "string") return t;
    const value = worth(current, amount);
    if (value === null) return unvalued();
    return meets(value, t, compare);
  };
  /** Whether a rule that applies only with others (`onlyWith`) is met, given the verdicts so far. */
  const withRules = (onlyWith: readonly string[] | undefined, hits: readonly string[]): boolean | string => {
    if (onlyWith === undefined || onlyWith.some((id) => hits.includes(id))) return true;
    // Whether the operation was subject to an aviso is unknown while one of those rules is.
    return onlyWith.some((id) => unjudged.some((u) => u.id === id))
      ? `depends on ${onlyWith.join(" or ")}, which could not be judged`
      : false;
  };
  const judge = (rule: LawRule, version: RuleVersion, hits: readonly string[]): boolean | string => {
    const check = version.check;
    // A fee is no operation of its own: only the rules on fees judge it. A rule of some acts judges only those.
    if (current.act === "comision" && check.kind !== "fee") return false;
    if (
      (check.kind === "single" || check.kind === "accumulated") &&
      check.acts &&
      !check.acts.includes(actOf(current))
    )
      return false;
    switch (check.kind) {
      case "counterparty":
        if (counterparty.category === undefined || !check.categories.includes(counterparty.category))
          return false;
        return withRules(check.onlyWith, hits);
      case "vasp-counterparty":
        if (!counterparty.vasp) return false;
        return check.minimum === undefined ? true : judgeAmount(check.minimum, check.compare ?? "at-least");
      case "client-listed": {
        const lists = counterparty.clientLists ?? [];
        if (typeof lists === "string") {
          // A rule that applies only with others is not met without them, screened or not.
          const withOthers = withRules(check.onlyWith, hits);
          return withOthers === false
            ? false
            : `the client was not screened against the lists of persons: ${lists}`;
        }
        if (!lists.some((list) => check.lists.includes(list))) return false;
        return withRules(check.onlyWith, hits);
      }
      case "high-risk-residence": {
        const residence = counterparty.clientResidence;
        // No profile reading wired: nothing is known of where the client lives, and no one is taken to.
        if (residence === undefined) return false;
        if (typeof residence !== "object") return residence;
        if (residence.country === null) return "the client's profile gives no country of residence";
        for (const list of check.lists) {
          const found = book.highRiskOn?.(list, day);
          if (!found) return `no ${list} list is known for ${day}`;
          if (found.countries.includes(residence.country)) {
            details.set(
              rule.id,
              `The client resides in ${residence.country}, on the ${list} list in force on ${day} (${found.source})${found.stale ? "; that list is the newest Vigía holds and may have been replaced since" : ""}.`,
            );
            return true;
          }
        }
        return false;
      }
      case "single":
        return judgeAmount(check.minimum, check.compare);
      case "fee": {
        if (current.act !== "comision") return false;
        // The operation the fee was charged on: when it meets the single rule `coveredBy` itself, one aviso under
        // that rule reports both (Mexico's Reglamento Art. 31 Bis; RCG Art. 24 Bis 5 III). Until it is held, the
        // fee waits (the month's files judge it again with the operation).
        const of = current.exchange?.of;
        const parent = of === undefined ? undefined : history.find((op) => op.exchange?.operationId === of);
        if (!parent) return `the operation ${of ?? "?"} the fee was charged on is not held`;
        const covering = book.rules.find((r) => r.id === check.coveredBy);
        const parentDay = parent.valuations[book.code]?.day;
        const coverVersion = covering && parentDay ? versionOn(covering, parentDay) : undefined;
        if (parentDay && coverVersion?.check.kind === "single") {
          const t = threshold(coverVersion.check.minimum, parentDay);
          const v = worth(parent, coverVersion.check.minimum);
          if (typeof t === "string") return t;
          if (v === null) return "the operation the fee was charged on has no value on its day";
          if (meets(v, t, coverVersion.check.compare)) return false;
        }
        // The fees of one operation are its fee (RCG Art. 24 Bis 5: "de forma individual por cada transacción u
        // operación"): an earlier fee of the same operation adds to this one, and once their sum met the rule the
        // operation's aviso is owed already.
        const earlier = history.filter(
          (op) => op.act === "comision" && op.exchange?.of === of && byTime(op, current) < 0,
        );
        if (earlier.some((op) => op.laws?.includes(rule.id))) return false;
        const t = threshold(check.minimum, day);
        if (typeof t === "string") return t;
        let total = 0;
        for (const op of [...earlier, current]) {
          const v = worth(op, check.minimum);
          if (v === null) return unvalued();
          total += v;
        }
        return meets(total, t, check.compare);
      }
      case "accumulated": {
        const accumulate = book.accumulations?.[check.accumulation];
        if (!accumulate) throw new Error(`${book.code} has no accumulation ${check.accumulation}`);
        const result = accumulate({ ...units, book, settings, rule, version, current, history });
        return typeof result === "string" ? result : result.reached;
      }
    }
  };
  // Rules that depend on others' verdicts (`onlyWith`) are judged after them.
  const ordered = [...book.rules].sort((a, b) => dependsOn(a, day) - dependsOn(b, day));
  const hits: string[] = [];
  for (const rule of ordered) {
    const version = versionOn(rule, day);
    if (!version) continue;
    const verdict = judge(rule, version, hits);
    if (verdict === true) hits.push(rule.id);
    else if (typeof verdict === "string") unjudged.push({ id: rule.id, reason: verdict });
  }
  // In the book's order, as its table lists them.
  for (const rule of book.rules) {
    if (!hits.includes(rule.id)) continue;
    const version = versionOn(rule, day) as RuleVersion;
    laws.push({
      id: rule.id,
      name: rule.name,
      description: details.has(rule.id)
        ? `${version.description} ${details.get(rule.id)}`
        : version.description,
      source: version.source,
      risk: rule.risk,
      country: book.country,
      countryCode: book.countryCode ?? book.code,
      verified: version.verified,
      ...(version.alerts ? { alerts: true } : {}),
    });
  }
  return { laws, unjudged };
}

function dependsOn(rule: LawRule, day: string): number {
  const check = versionOn(rule, day)?.check;
  return (check?.kind === "counterparty" || check?.kind === "client-listed") && check.onlyWith ? 1 : 0;
}
