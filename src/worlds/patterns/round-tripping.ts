// Round tripping (docs/risk-model.md): funds leaving an address return to it within 2 to 6 hops and 30 days, carrying at
// least 70% of what left.
// False friends: a deposit to an exchange and a later withdrawal back (the exchange is the only intermediary);
// near misses: a loop of its own returning 40-60% of what left, or closing after 35-50 days.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../world.ts";

/** One leg of a loop: when, and how much (token units, or USD at that day's price). */
export interface LoopLeg {
  at: number;
  units?: bigint;
  usd?: number;
}

/**
 * The pattern's core, for the devnet's demo and the eval's world (eval/world/cases/round-tripping.ts): funds go
 * along `path` (its first address and its last the same), each leg as `leg(i)` draws it, in order.
 */
export function closeLoop(
  world: World,
  path: readonly Account[],
  token: TokenSymbol,
  leg: (i: number) => LoopLeg,
): void {
  for (let i = 0; i + 1 < path.length; i++) {
    const l = leg(i);
    const [from, to] = [path[i] as Account, path[i + 1] as Account];
    if (l.units !== undefined) world.send(from, to, token, l.units, l.at);
    else world.sendUsd(from, to, token, l.usd ?? 0, l.at);
  }
}

/** The devnet's instance: a 2-6 hop loop through fresh layers, back within 2 to 28 days. */
export function roundTripping(world: World, rng: Rng, id: string, start: number): void {
  const origin = world.account(`${id}.origin`);
  const hops = rng.int(2, 6);
  const token = rng.pick(["ETH", "USDV"] as const);
  let usd = rng.between(5_000, 80_000);
  world.sendUsd(world.account(`${id}.income`), origin, token, usd * 1.2, start - 2 * DAY);
  const budget = rng.between(2 * DAY, 28 * DAY);
  const layers = Array.from({ length: hops - 1 }, (_, i) => world.account(`${id}.layer${i + 1}`));
  const involved = [origin.address, ...layers.map((l) => l.address)];
  closeLoop(world, [origin, ...layers, origin], token, (i) => {
    // Fees and skims: at most 6% a hop, so that even a 6-hop loop returns >= 0.94^5 = 73% (>= 70% required).
    if (i > 0) usd *= rng.between(0.94, 0.99);
    return { at: start + (budget * i) / hops + rng.between(0, HOUR), usd };
  });
  world.addCase({
    id,
    pattern: "round_tripping",
    positive: true,
    subject: origin.address,
    involved,
    note: `${hops}-hop cycle in ${token}`,
  });
}

export function roundTrippingFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const variant = rng.int(0, 2);
  const trader = world.account(`${id}.trader`);
  const usd = rng.between(2_000, 50_000);
  world.sendUsd(world.account(`${id}.income`), trader, "ETH", usd * 1.1, start - DAY);
  let note = "";
  if (variant === 0) {
    const ex = rng.pick(services.exchanges);
    const deposit = ex.depositFor(id);
    world.sendUsd(trader, deposit, "ETH", usd, start);
    world.sendUsd(ex.hot, trader, "ETH", usd * 0.98, start + rng.between(1, 20) * DAY);
    note = `deposit to ${ex.name} and withdrawal back`;
  } else {
    // Near misses through intermediaries of its own: a 3-hop loop that returns only 40-60% of what left, or
    // one that returns nearly all of it but after 35 to 50 days.
    const late = variant === 2;
    const total = late ? rng.between(35, 50) * DAY : rng.between(2, 20) * DAY;
    const kept = late ? rng.between(0.9, 0.98) : rng.between(0.4, 0.6);
    const a = world.account(`${id}.partner-a`);
    const b = world.account(`${id}.partner-b`);
    world.sendUsd(trader, a, "ETH", usd, start);
    // the first partner keeps a share, the rest goes round
    world.sendUsd(a, b, "ETH", usd * kept, start + total / 3);
    world.sendUsd(b, trader, "ETH", usd * kept * 0.99, start + total);
    note = late ? "3-hop loop closing after 35-50 days" : "3-hop loop returning 40-60%";
  }
  world.addCase({
    id,
    pattern: "round_tripping",
    positive: false,
    subject: trader.address,
    involved: [trader.address],
    note,
  });
}
