// Exposure to a sanctioned address at 1, 2 and 3 hops (sanctioned -> hop1 -> hop2 -> hop3): the risk level must
// fall as the distance grows. Each hop wallet was onboarded like anyone (a withdrawal from its exchange weeks
// before) and pays merchants and its exchange afterwards, so the tainted funds are a share of its flows, not all.
// It pays no users: exposure is not what the pattern metrics score, and background users stay unexposed.

import type { Rng } from "../../../platform/rng.ts";
import { DAY, HOUR } from "../../world.ts";
import { type CaseContext, record } from "../context.ts";
import { live, newMember } from "../population.ts";

export function sanctionsChain(ctx: CaseContext, rng: Rng, id: string, start: number): void {
  const usd = rng.between(5_000, 40_000);
  const hops = [1, 2, 3].map((h) =>
    newMember(ctx.pop, rng, `${id}.hop${h}`, start - rng.between(5, 60) * DAY, {
      usd: rng.between(100, 700),
    }),
  );
  const [hop1, hop2, hop3] = hops as [(typeof hops)[0], (typeof hops)[0], (typeof hops)[0]];
  ctx.world.sendUsd(ctx.services.sanctioned, hop1.account, "ETH", usd, start);
  ctx.world.sendUsd(hop1.account, hop2.account, "ETH", usd * 0.9, start + rng.between(0.2, 2) * DAY);
  ctx.world.sendUsd(hop2.account, hop3.account, "ETH", usd * 0.8, start + rng.between(2.5, 5) * DAY);
  for (const m of hops) {
    live(ctx.pop, rng, m, {
      from: m.joined + HOUR,
      to: start + rng.between(10, 40) * DAY,
      count: rng.int(3, 12),
      payUsers: null,
      paidByUsers: null,
    });
  }
  for (const [distance, m] of hops.entries()) {
    record(ctx, {
      id: `${id}-d${distance + 1}`,
      pattern: "sanctions_exposure",
      positive: true,
      subject: m.account.address,
      involved: [m.account.address],
      variant: `${distance + 1}-hop${distance ? "s" : ""}`,
      note: `${distance + 1} hop${distance ? "s" : ""} from a sanctioned address`,
    });
  }
}
