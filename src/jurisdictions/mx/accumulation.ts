// Mexico's accumulation, the one function both the transfer checker (is this operation's aviso due?) and the monthly
// AVI (which operations does the aviso report?) call. Reglamento LFPIORPI Art. 7 (DOF 27-03-2026): a client's
// operations "por tipo de acto u operación" add up over "un periodo de hasta seis meses", and the aviso is due "al
// momento de realizar la última operación con la que se alcance o supere el umbral ... aun cuando no se haya agotado
// el periodo"; RCG Art. 19 (Acuerdo 115/2026): the period "iniciará a partir de que se realice el primer acto u
// operación". So:
//  - only operations under the single-operation threshold of their own day count (one at or over it is an aviso on
//    its own); each valued in MXN on its own day in Mexico City; a movement between two of the client's own
//    monitored addresses, and a transfer of no value (address poisoning), count for nothing;
//  - by type of act, as the AVI's blocks name them (receipts, sends, buys, sales, swaps, fiat deposited, fiat
//    withdrawn: src/regulation's OperationAct), unless the project's settings say `combined`; fees never count;
//  - the count starts after the last operation of the same type whose accumulation aviso was due (its verdict,
//    recorded when it was checked), so each aviso reports operations no earlier aviso reported;
//  - a period starts with its first operation and covers the days before the same date six months later (Mexico
//    City calendar); an operation outside it drops the oldest operations until it falls within the period of the
//    next one.
import { addMonths } from "../../platform/time-zone.ts";
import {
  type AccumulationInput,
  type AccumulationResult,
  accumulates,
  actOf,
  byTime,
  type ClientOperation,
  meets,
  type RuleVersion,
  versionOn,
} from "../../regulation/index.ts";
import { MX_ACUMULACION, MX_AVISO, MX_RULES } from "./rules.ts";
import { accumulationMode } from "./settings.ts";

const singleRule = MX_RULES.find((r) => r.id === MX_AVISO);

/** The day (Mexico City) of an operation as Mexico values it. */
const mxDay = (op: ClientOperation): string | undefined => op.valuations.MX?.day;

/** Whether `later` falls within the six-month period that starts on `first` (both YYYY-MM-DD). */
export function withinPeriod(first: string, later: string): boolean {
  return later < addMonths(first, 6);
}

export function sixMonthAccumulation(input: AccumulationInput): AccumulationResult | string {
  const { current, history, version, rule } = input;
  if (version.check.kind !== "accumulated") throw new Error(`${rule.id} is not an accumulation rule`);
  const { minimum, compare } = version.check;
  const byType = accumulationMode(input.settings) !== "combined";
  const day = mxDay(current) as string;
  const threshold = input.threshold(minimum, day);
  if (typeof threshold === "string") return threshold;

  /**
   * The operation's MXN value if it counts: a movement with someone else, above zero, valued, under the
   * single-operation threshold of its day. An operation without a price or a rate cannot be valued and adds nothing
   * (its own check says it was not judged).
   */
  const counted = (op: ClientOperation): number | undefined => {
    if (!accumulates(op)) return undefined;
    const on = mxDay(op);
    const single = on === undefined || !singleRule ? undefined : versionOn(singleRule, on);
    if (on === undefined || single?.check.kind !== "single") return undefined;
    const value = input.worth(op, minimum);
    const limit = input.threshold(single.check.minimum, on);
    if (value === null || typeof limit === "string") return undefined;
    return meets(value, limit, single.check.compare) ? undefined : value;
  };

  const own = input.worth(current, minimum);
  if (own === null) return "the operation has no MXN value (no USD price or no MXN rate on its day)";
  if (counted(current) === undefined) return { reached: false, operations: [], total: 0 };

  const sameType = (op: ClientOperation) => !byType || actOf(op) === actOf(current);
  const earlier = history.filter((op) => byTime(op, current) < 0 && sameType(op)).sort(byTime);
  const lastAviso = earlier.findLastIndex((op) => op.laws?.includes(rule.id) ?? false);
  const open: { op: ClientOperation; value: number }[] = [];
  for (const op of earlier.slice(lastAviso + 1)) {
    const value = counted(op);
    if (value !== undefined) open.push({ op, value });
  }
  while (open.length > 0 && !withinPeriod(mxDay(open[0]?.op as ClientOperation) as string, day)) open.shift();
  const total = open.reduce((sum, o) => sum + o.value, own);
  return {
    reached: meets(total, threshold, compare),
    operations: [...open.map((o) => o.op), current],
    total,
  };
}

/** The version of the accumulation rule in force on the operation's day (the monthly AVI recomputes its members). */
export function accumulationVersion(op: ClientOperation, rules = MX_RULES): RuleVersion | undefined {
  const day = mxDay(op);
  const rule = rules.find((r) => r.id === MX_ACUMULACION);
  return day && rule ? versionOn(rule, day) : undefined;
}
