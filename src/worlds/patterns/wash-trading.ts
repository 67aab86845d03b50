// Wash trading (docs/risk-model.md): two or more addresses send the same token back and forth at least 3 times each way
// within 7 days, amounts within 10% of each other, net flow under 10% of the gross.
// False friends: a two-way business relationship with uneven amounts; and near misses just outside the
// definition: two round trips only, three spread over ten days, returns of 60-75% (net flow over 10%).
import type { Rng } from "../../platform/rng.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../world.ts";

/** One leg of a wash trade: which way, when, and how much (token units, or USD at that day's price). */
export interface WashLeg {
  fromA: boolean;
  at: number;
  units?: bigint;
  usd?: number;
}

/**
 * The pattern's core, for the devnet's demo and the eval's world (eval/world/cases/wash-trading.ts): `legs`
 * transfers of one token back and forth between `a` and `b`, each as `leg(i)` draws it, in order.
 */
export function tradeBackAndForth(
  world: World,
  a: Account,
  b: Account,
  token: TokenSymbol,
  legs: number,
  leg: (i: number) => WashLeg,
): void {
  for (let i = 0; i < legs; i++) {
    const l = leg(i);
    const [from, to] = l.fromA ? [a, b] : [b, a];
    if (l.units !== undefined) world.send(from, to, token, l.units, l.at);
    else world.sendUsd(from, to, token, l.usd ?? 0, l.at);
  }
}

/** The devnet's instance: 3-6 round trips of USD 500-20,000 in TKN or USDV within 12 hours to 6.5 days. */
export function washTrading(world: World, rng: Rng, id: string, start: number): void {
  const a = world.account(`${id}.trader-a`);
  const b = world.account(`${id}.trader-b`);
  const token = rng.pick(["TKN", "USDV"] as const);
  const size = rng.between(500, 20_000);
  world.sendUsd(world.account(`${id}.seed`), a, token, size * 1.3, start - HOUR);
  const rounds = rng.int(3, 6);
  const span = rng.between(12 * HOUR, 6.5 * DAY);
  // Round by round: a pays b, and b pays about as much back within half a round.
  tradeBackAndForth(world, a, b, token, 2 * rounds, (i) => {
    const at = start + (span * Math.floor(i / 2)) / rounds;
    const usd = size * rng.between(0.97, 1.03);
    if (i % 2 === 0) return { fromA: true, at, usd };
    return { fromA: false, at: at + rng.between(10 * 60, span / rounds / 2), usd };
  });
  world.addCase({
    id,
    pattern: "wash_trading",
    positive: true,
    subject: a.address,
    involved: [a.address, b.address],
    note: `${rounds} round trips of ~${Math.round(size)} USD in ${token}`,
  });
}

export function washTradingFalseFriend(world: World, rng: Rng, id: string, start: number): void {
  const variant = rng.int(0, 3);
  const a = world.account(`${id}.shop`);
  const b = world.account(`${id}.supplier`);
  const token = rng.pick(["TKN", "USDV"] as const);
  const size = rng.between(500, 20_000);
  world.sendUsd(world.account(`${id}.bank`), a, "USDV", 60_000, start - HOUR);
  if (variant === 0) {
    // The shop pays large invoices; the supplier sends back small refunds: uneven, with a large net flow.
    for (let i = 0; i < 4; i++) {
      world.sendUsd(a, b, "USDV", rng.between(5_000, 9_000), start + i * DAY);
      world.sendUsd(b, a, "USDV", rng.between(100, 600), start + i * DAY + 3 * HOUR);
    }
  } else if (variant === 1) {
    // Just outside on the count: matched amounts back and forth, but only twice each way.
    if (token !== "USDV") world.sendUsd(world.account(`${id}.seed`), a, token, size * 1.3, start - HOUR);
    for (let i = 0; i < 2; i++) {
      const at = start + i * rng.between(6 * HOUR, 2 * DAY);
      world.sendUsd(a, b, token, size * rng.between(0.97, 1.03), at);
      world.sendUsd(b, a, token, size * rng.between(0.97, 1.03), at + rng.between(HOUR, 4 * HOUR));
    }
  } else if (variant === 2) {
    // Just outside on time: three matched round trips, but a leg every two days (never three each way in 7).
    if (token !== "USDV") world.sendUsd(world.account(`${id}.seed`), a, token, size * 1.3, start - HOUR);
    for (let i = 0; i < 3; i++) {
      world.sendUsd(
        a,
        b,
        token,
        size * rng.between(0.97, 1.03),
        start + i * 4 * DAY + rng.between(0, 0.3 * DAY),
      );
      world.sendUsd(
        b,
        a,
        token,
        size * rng.between(0.97, 1.03),
        start + (i * 4 + 2) * DAY + rng.between(0, 0.3 * DAY),
      );
    }
  } else {
    // Just outside on the amounts: three or four round trips within days, each return 60-75% of what went out
    // (amounts 25-40% apart, net flow over 14% of the gross).
    if (token !== "USDV") world.sendUsd(world.account(`${id}.seed`), a, token, size * 5, start - HOUR);
    const rounds = rng.int(3, 4);
    for (let i = 0; i < rounds; i++) {
      const at = start + i * rng.between(12 * HOUR, 1.5 * DAY);
      const out = size * rng.between(0.97, 1.03);
      world.sendUsd(a, b, token, out, at);
      world.sendUsd(b, a, token, out * rng.between(0.6, 0.75), at + rng.between(HOUR, 6 * HOUR));
    }
  }
  world.addCase({
    id,
    pattern: "wash_trading",
    positive: false,
    subject: a.address,
    involved: [a.address, b.address],
    note:
      [
        "invoices and small refunds",
        "matched amounts, two round trips only",
        "matched amounts, three round trips over ten days",
        "three or four round trips returning 60-75%",
      ][variant] ?? "",
  });
}
