// Peel chains (docs/risk-model.md): a path of >= 3 hops where each hop forwards >= 80% of what it received to a fresh
// address and peels the rest to another address, hops within 7 days of each other.
// False friends: an exchange hot wallet's ordinary withdrawals; near misses: two hops only, hops forwarding
// 60-72%, hops 8-12 days apart.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { DAY, HOUR, type World } from "../world.ts";

export function peelChain(world: World, services: Services, rng: Rng, id: string, start: number): void {
  const hops = rng.int(3, 7);
  const source = world.account(`${id}.source`);
  const first = world.account(`${id}.hop0`);
  let balanceUsd = rng.between(20_000, 120_000);
  let t = start;
  world.sendUsd(source, first, "ETH", balanceUsd, t);
  let current = first;
  const involved = [first.address];
  for (let i = 1; i <= hops; i++) {
    t += rng.between(1 * HOUR, 5 * DAY);
    const peelShare = rng.between(0.04, 0.18);
    const peel = balanceUsd * peelShare;
    // The peel usually lands at an exchange deposit address, as in the literature.
    const peelTo =
      rng.next() < 0.6
        ? rng.pick(services.exchanges).depositFor(`${id}.peel${i}`)
        : world.account(`${id}.peel${i}`);
    const next = world.account(`${id}.hop${i}`);
    world.sendUsd(current, peelTo, "ETH", peel, t);
    world.sendUsd(current, next, "ETH", balanceUsd - peel - 1, t + 60);
    balanceUsd = balanceUsd - peel - 1;
    involved.push(next.address);
    current = next;
  }
  world.addCase({
    id,
    pattern: "peel_chain",
    positive: true,
    subject: first.address,
    involved,
    note: `${hops} hops`,
  });
}

/** An exchange hot wallet paying out ordinary withdrawals: many sends, none forwarding a received balance. */
export function peelChainFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const variant = rng.int(0, 3);
  if (variant > 0) {
    peelChainNearMiss(world, services, rng, id, start, variant);
    return;
  }
  const customer = world.account(`${id}.customer`);
  const payoutWallet = world.account(`${id}.payout`); // an unlabelled intermediary that sends once to many
  let t = start;
  world.sendUsd(customer, payoutWallet, "ETH", rng.between(5_000, 20_000), t);
  // It splits its balance evenly: no hop forwards >= 80%.
  for (let i = 0; i < 4; i++) {
    t += rng.between(HOUR, DAY);
    world.sendUsd(payoutWallet, world.account(`${id}.recipient${i}`), "ETH", rng.between(800, 1_200), t);
  }
  // And the labelled exchange itself withdraws in a chain-like way: it must be left alone.
  const ex = rng.pick(services.exchanges);
  let prev = ex.hot;
  for (let i = 0; i < 3; i++) {
    t += rng.between(HOUR, DAY);
    const to = world.account(`${id}.withdrawal${i}`);
    world.sendUsd(prev, to, "ETH", rng.between(300, 3_000), t);
    prev = ex.hot;
  }
  world.addCase({
    id,
    pattern: "peel_chain",
    positive: false,
    subject: payoutWallet.address,
    involved: [payoutWallet.address],
    note: "even split payouts; exchange withdrawals",
  });
}

/**
 * A chain just outside the definition: two forwarding hops only (variant 1), hops forwarding only 60-72% of what
 * they received (variant 2), or proper peels but eight to twelve days between hops (variant 3).
 */
function peelChainNearMiss(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
  variant: number,
): void {
  const hops = variant === 1 ? 2 : rng.int(3, 5);
  const source = world.account(`${id}.source`);
  const first = world.account(`${id}.hop0`);
  let balanceUsd = rng.between(20_000, 120_000);
  let t = start;
  world.sendUsd(source, first, "ETH", balanceUsd, t);
  let current = first;
  for (let i = 1; i <= hops; i++) {
    t += variant === 3 ? rng.between(8 * DAY, 12 * DAY) : rng.between(HOUR, 5 * DAY);
    const peelShare = variant === 2 ? rng.between(0.28, 0.4) : rng.between(0.04, 0.18);
    const peel = balanceUsd * peelShare;
    const peelTo =
      rng.next() < 0.6
        ? rng.pick(services.exchanges).depositFor(`${id}.peel${i}`)
        : world.account(`${id}.peel${i}`);
    const next = world.account(`${id}.hop${i}`);
    world.sendUsd(current, peelTo, "ETH", peel, t);
    world.sendUsd(current, next, "ETH", balanceUsd - peel - 1, t + 60);
    balanceUsd = balanceUsd - peel - 1;
    current = next;
  }
  world.addCase({
    id,
    pattern: "peel_chain",
    positive: false,
    subject: first.address,
    involved: [first.address],
    note:
      ["", "two hops only", `${hops} hops forwarding 60-72%`, `${hops} hops 8-12 days apart`][variant] ?? "",
  });
}
