// Exchange hopping (patterns.md): funds pass through deposit or hot wallets of >= 2 distinct exchanges within
// 72 hours, without resting more than 72 hours at any step.
// False friend: a single deposit to one exchange (and, later, an unrelated one weeks apart).
import type { Rng } from "../rng.ts";
import type { Services } from "../services.ts";
import { DAY, HOUR, type World } from "../world.ts";

export function exchangeHopping(world: World, services: Services, rng: Rng, id: string, start: number): void {
  const hopper = world.account(`${id}.hopper`);
  const count = rng.int(2, 3);
  const exchanges = [...services.exchanges].sort(() => rng.next() - 0.5).slice(0, count);
  let usd = rng.between(3_000, 60_000);
  world.sendUsd(world.account(`${id}.source`), hopper, "ETH", usd * 1.05, start - rng.between(HOUR, DAY));
  let t = start;
  for (const [i, ex] of exchanges.entries()) {
    const deposit = ex.depositFor(id);
    world.sendUsd(hopper, deposit, "ETH", usd, t);
    world.sendUsd(deposit, ex.hot, "ETH", usd * 0.999, t + 30 * 60);
    t += rng.between(2 * HOUR, 40 * HOUR);
    usd *= 0.99;
    // The next exchange's withdrawal comes back to the hopper (the last one cashes out elsewhere).
    if (i < exchanges.length - 1) world.sendUsd(ex.hot, hopper, "ETH", usd, t);
    t += rng.between(HOUR, 20 * HOUR);
  }
  world.addCase({
    id,
    pattern: "exchange_hopping",
    positive: true,
    subject: hopper.address,
    involved: [hopper.address],
    note: exchanges.map((e) => e.name).join(" -> "),
  });
}

export function exchangeHoppingFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const saver = world.account(`${id}.saver`);
  const [first, second] = services.exchanges;
  if (!first || !second) throw new Error("need two exchanges");
  world.sendUsd(world.account(`${id}.salary`), saver, "ETH", 4_000, start - DAY);
  world.sendUsd(saver, first.depositFor(id), "ETH", 1_500, start);
  // A second exchange, but three weeks later: funds rested far longer than 72 hours.
  world.sendUsd(saver, second.depositFor(id), "ETH", 1_000, start + 21 * DAY + rng.between(0, DAY));
  world.addCase({
    id,
    pattern: "exchange_hopping",
    positive: false,
    subject: saver.address,
    involved: [saver.address],
    note: "deposits to two exchanges three weeks apart",
  });
}
