// The calendar-month accumulation Colombia and El Salvador apply: a client's operations of one calendar month in the
// jurisdiction's time zone (each valued in USD on its own local day) that together reach the amount. It fires on
// the operation that takes the month's total from below the amount to it, and only when more than one operation
// makes the total: the only operation of a month that reaches the amount is the single-operation rule's, never an
// accumulation of one. A movement between two of the client's own monitored addresses, a transfer of no value
// (address poisoning) and one without a price count for nothing; nor an act the rule does not judge (`acts`).
import {
  type AccumulationInput,
  type AccumulationResult,
  accumulates,
  actOf,
  byTime,
  type ClientOperation,
  meets,
} from "../regulation/index.ts";

export function calendarMonthAccumulation(input: AccumulationInput): AccumulationResult | string {
  const { current, history, version, book } = input;
  if (version.check.kind !== "accumulated") throw new Error(`${input.rule.id} is not an accumulation rule`);
  const { minimum, compare, acts } = version.check;
  const counts = (op: ClientOperation) => accumulates(op) && (acts === undefined || acts.includes(actOf(op)));
  const month = current.valuations[book.code]?.day.slice(0, 7);
  const day = current.valuations[book.code]?.day as string;
  const threshold = input.threshold(minimum, day);
  if (typeof threshold === "string") return threshold;
  const own = input.worth(current, minimum);
  if (own === null) return "the operation has no USD value (no price on its day)";
  if (!counts(current)) return { reached: false, operations: [], total: 0 };
  const earlier: { op: ClientOperation; value: number }[] = [];
  for (const op of history) {
    if (!counts(op) || byTime(op, current) >= 0) continue;
    if (op.valuations[book.code]?.day.slice(0, 7) !== month) continue;
    const value = input.worth(op, minimum);
    if (value !== null) earlier.push({ op, value });
  }
  earlier.sort((a, b) => byTime(a.op, b.op));
  const before = earlier.reduce((sum, e) => sum + e.value, 0);
  const total = before + own;
  return {
    reached: earlier.length > 0 && !meets(before, threshold, compare) && meets(total, threshold, compare),
    operations: [...earlier.map((e) => e.op), current],
    total,
  };
}
