// Exposure to a sanctioned address at 1, 2 and 3 hops (sanctioned -> hop1 -> hop2 -> hop3): the risk level must
// fall as the distance grows. Each hop wallet was onboarded like anyone (a withdrawal from its exchange weeks
// before) and pays merchants and its exchange afterwards, so the tainted funds are a share of its flows, not all.
// It pays no users: exposure is not what the pattern metrics score, and background users stay unexposed.

import type { Rng } from "../../../src/platform/rng.ts";
import { type Account, sanctionsChain as chainOfExposure, DAY, HOUR } from "../../../src/worlds/index.ts";
import type { CaseContext } from "../context.ts";
import { live, newMember } from "../population.ts";

export function sanctionsChain(ctx: CaseContext, rng: Rng, id: string, start: number): void {
  const usd = rng.between(5_000, 40_000);
  const hops = [1, 2, 3].map((h) =>
    newMember(ctx.pop, rng, `${id}.hop${h}`, start - rng.between(5, 60) * DAY, {
      usd: rng.between(100, 700),
    }),
  );
  const accounts = hops.map((m) => m.account) as [Account, Account, Account];
  // The same chain as the devnet's (src/worlds/patterns/sanctions-exposure.ts); its cases are recorded there.
  chainOfExposure(ctx.world, rng, id, ctx.services.sanctioned, accounts, usd, start);
  for (const m of hops) {
    live(ctx.pop, rng, m, {
      from: m.joined + HOUR,
      to: start + rng.between(10, 40) * DAY,
      count: rng.int(3, 12),
      payUsers: null,
      paidByUsers: null,
    });
  }
}
