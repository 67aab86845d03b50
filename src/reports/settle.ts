// What a month's files may rest on. A file cites the checker's verdicts; two kinds of operation have none to cite:
//  - a transfer still waiting to be checked (`laws` null): the month is not settled, and its files wait;
//  - a rule the checker could not judge (no price, rate or UMA for the day; `unjudged`): it is judged now, by the same
//    loop, with the values the store holds today (a price imported since fills the gap); what still cannot be judged
//    keeps the client's file from being written, and says why.
// Nothing is written back: the next generation settles the same way.
import type { Jurisdiction } from "../jurisdictions/index.ts";
import { type ClientOperation, evaluate } from "../regulation/index.ts";

export interface Settled {
  /** the checked operations, with the rules judged now added to their laws */
  operations: ClientOperation[];
  /** operations of the month still waiting to be checked */
  pending: ClientOperation[];
  /** operations of the month with rules of the jurisdiction that cannot be judged yet, with why */
  unjudged: { op: ClientOperation; reason: string }[];
}

export function settle(
  j: Jurisdiction,
  recorded: readonly ClientOperation[],
  bounds: { start: Date; end: Date },
  settings: unknown,
  /** the lists of persons a client is a match on as last screened, or why it was not (src/screening) */
  clientLists: (userId: string) => readonly string[] | string = () => [],
): Settled {
  const inMonth = (op: ClientOperation) => op.blockTime >= bounds.start && op.blockTime < bounds.end;
  const mine = new Set(j.rules.map((r) => r.id));
  const checked = recorded.filter((op) => op.laws !== null);
  const out: Settled = {
    operations: [],
    pending: recorded.filter((op) => op.laws === null && inMonth(op)),
    unjudged: [],
  };
  for (const op of checked) {
    const open = (op.unjudged ?? []).filter((id) => mine.has(id));
    if (open.length === 0) {
      out.operations.push(op);
      continue;
    }
    const history = checked.filter((o) => o.userId === op.userId && o !== op);
    const now = evaluate(
      j,
      op,
      history,
      { category: undefined, vasp: false, clientLists: clientLists(op.userId) },
      settings,
    );
    const met = now.laws.map((l) => l.id).filter((id) => open.includes(id));
    const still = now.unjudged.filter((u) => open.includes(u.id));
    if (still.length > 0 && inMonth(op))
      out.unjudged.push({ op, reason: (still[0] as { reason: string }).reason });
    out.operations.push({ ...op, laws: [...(op.laws ?? []), ...met], unjudged: still.map((u) => u.id) });
  }
  return out;
}
