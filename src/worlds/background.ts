// Ordinary activity around the injected cases: users who are paid, pay each other small amounts, and use
// exchanges. It gives the detectors noise to ignore and the case addresses ordinary neighbours.
import type { Rng } from "../platform/rng.ts";
import type { Services } from "./services.ts";
import { DAY, HOUR, type TokenSymbol, type World } from "./world.ts";

export function backgroundTraffic(
  world: World,
  services: Pick<Services, "exchanges">,
  rng: Rng,
  opts: {
    users: number;
    transfers: number;
    start: number;
    days: number;
    namespace?: string;
    /** the tokens users are paid and pay in (default ETH and USDV for salaries, and TKN too for the rest) */
    tokens?: readonly TokenSymbol[];
  },
): void {
  const ns = opts.namespace ?? "user";
  const users = Array.from({ length: opts.users }, (_, i) => world.account(`${ns}${i}`));
  // Everyone starts with a salary-like income from an employer.
  for (const [i, user] of users.entries()) {
    const employer = world.account(`${ns}.employer${i % 17}`);
    world.sendUsd(
      employer,
      user,
      rng.pick(opts.tokens ?? (["ETH", "USDV"] as const)),
      rng.between(800, 2_600),
      opts.start + (i % 48) * HOUR,
    );
  }
  for (let i = 0; i < opts.transfers; i++) {
    const at = opts.start + DAY + rng.between(0, (opts.days - 1) * DAY);
    const from = rng.pick(users);
    const roll = rng.next();
    const token = rng.pick(opts.tokens ?? (["ETH", "USDV", "TKN"] as const));
    if (roll < 0.15) {
      const ex = rng.pick(services.exchanges);
      world.sendUsd(from, ex.depositFor(from.name), token, rng.between(20, 700), at);
    } else if (roll < 0.25) {
      world.sendUsd(rng.pick(services.exchanges).hot, from, token, rng.between(20, 700), at);
    } else {
      const to = rng.pick(users);
      if (to !== from) world.sendUsd(from, to, token, rng.between(2, 400), at);
    }
  }
}
