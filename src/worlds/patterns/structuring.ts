// Structuring (docs/risk-model.md): >= 3 transfers sent or received by one address within 7 days, each between 85% and
// 100% (exclusive) of a reporting threshold, summing to more than it.
// False friends: fixed recurring payments well below any threshold; one large transfer above a threshold; near
// misses: two near-threshold payments only, payments just below the band, in-band payments 8-10 days apart.
import type { Rng } from "../../platform/rng.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../world.ts";

const THRESHOLDS_USD = [1_000, 3_000, 10_000];

/** One of the transfers a structurer splits a sum into: with whom, in which token, how many USD, when. */
export interface SplitLeg {
  counterparty: Account;
  token: TokenSymbol;
  usd: number;
  at: number;
}

/**
 * The pattern's core, for the devnet's demo and the eval's world (eval/world/cases/structuring.ts): `count`
 * transfers sent by `subject` (or received by it), each as `leg(i)` draws it, in order.
 */
export function splitTransfers(
  world: World,
  subject: Account,
  sent: boolean,
  count: number,
  leg: (i: number) => SplitLeg,
): void {
  for (let i = 0; i < count; i++) {
    const l = leg(i);
    if (sent) world.sendUsd(subject, l.counterparty, l.token, l.usd, l.at);
    else world.sendUsd(l.counterparty, subject, l.token, l.usd, l.at);
  }
}

/** The devnet's instance: 3-6 transfers of 87-98.5 % of a threshold within 1 to 6.5 days, sent or received. */
export function structuring(world: World, rng: Rng, id: string, start: number): void {
  const subject = world.account(`${id}.smurf`);
  const threshold = rng.pick(THRESHOLDS_USD);
  const count = rng.int(3, 6);
  const fanIn = rng.next() < 0.35; // many payers into one beneficiary, or one payer to several payees
  const span = rng.between(1 * DAY, 6.5 * DAY);
  const involved = [subject.address];
  if (!fanIn)
    world.sendUsd(world.account(`${id}.funding`), subject, "USDV", threshold * count * 1.1, start - DAY);
  splitTransfers(world, subject, !fanIn, count, (i) => {
    const at = start + (span * i) / (count - 1);
    const usd = threshold * rng.between(0.87, 0.985);
    const counterparty = world.account(`${id}.counterparty${i}`);
    involved.push(counterparty.address);
    return { counterparty, token: "USDV", usd, at };
  });
  world.addCase({
    id,
    pattern: "structuring",
    positive: true,
    subject: subject.address,
    involved,
    note: `${count} x ~${threshold} USD ${fanIn ? "received" : "sent"}`,
  });
}

export function structuringFalseFriend(world: World, rng: Rng, id: string, start: number): void {
  const employer = world.account(`${id}.employer`);
  world.sendUsd(world.account(`${id}.treasury`), employer, "USDV", 40_000, start - DAY);
  const salary = rng.between(1_200, 2_400); // well below 85% of USD 3,000 and above USD 1,000 thresholds' band
  const variant = rng.int(0, 4);
  if (variant === 0) {
    // Monthly salaries: well below the USD 3,000 band and spaced a month apart.
    for (let i = 0; i < 5; i++) {
      world.sendUsd(employer, world.account(`${id}.employee${i}`), "USDV", salary, start + i * 30 * DAY);
    }
  } else if (variant === 1) {
    // One large transfer above the threshold, plus small change.
    world.sendUsd(employer, world.account(`${id}.supplier`), "USDV", rng.between(12_000, 30_000), start);
    world.sendUsd(employer, world.account(`${id}.shop`), "USDV", rng.between(20, 200), start + 2 * HOUR);
  } else if (variant === 2) {
    // Two near-threshold payments only (the rule needs three), a week and a half apart.
    world.sendUsd(employer, world.account(`${id}.a`), "USDV", 9_500, start);
    world.sendUsd(employer, world.account(`${id}.b`), "USDV", 9_400, start + 10 * DAY);
  } else if (variant === 3) {
    // Just below the band: three or four payments within days at 70-82% of USD 10,000.
    const count = rng.int(3, 4);
    for (let i = 0; i < count; i++) {
      const usd = 10_000 * rng.between(0.7, 0.82);
      world.sendUsd(
        employer,
        world.account(`${id}.payee${i}`),
        "USDV",
        usd,
        start + i * rng.between(HOUR, DAY),
      );
    }
  } else {
    // In the band, but too slow: three payments at 87-98% of a threshold, eight to ten days apart.
    const threshold = rng.pick([3_000, 10_000]);
    let t = start;
    for (let i = 0; i < 3; i++) {
      world.sendUsd(
        employer,
        world.account(`${id}.payee${i}`),
        "USDV",
        threshold * rng.between(0.87, 0.98),
        t,
      );
      t += rng.between(8 * DAY, 10 * DAY);
    }
  }
  world.addCase({
    id,
    pattern: "structuring",
    positive: false,
    subject: employer.address,
    involved: [employer.address],
    note:
      [
        "salaries",
        "one large transfer",
        "two near-threshold payments 10 days apart",
        "payments at 70-82% of USD 10,000",
        "three near-threshold payments 8-10 days apart",
      ][variant] ?? "",
  });
}
