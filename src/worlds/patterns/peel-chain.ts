// Peel chains (docs/risk-model.md): a path of >= 3 hops where each hop forwards >= 80% of what it received to a fresh
// address and peels the rest to another address, hops within 7 days of each other.
// False friends: an exchange hot wallet's ordinary withdrawals; near misses: two hops only, hops forwarding
// 60-72%, hops 8-12 days apart.
// playPeelChain is the one way a chain's transfers are laid out: the devnet's demo below and the eval's cases
// (eval/world/cases/peel-chain.ts) both play their chains through it.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, DAY, HOUR, type TokenSymbol, unitsForUsd, type World } from "../world.ts";

/** One hop's shape, chosen before the chain is played. */
export interface PeelHop {
  /** share of the hop's balance peeled off */
  peel: number;
  /** seconds from the hop's inflow to its first send */
  wait: number;
}

/** How a hop acts, chosen when it acts (`at`: its inflow plus its wait). */
export interface PeelAct {
  /** where the peel goes */
  peelTo: Account;
  /** share of the balance kept back (gas), 0 for none */
  kept: number;
  /** peel before the forward, or after it */
  peelFirst: boolean;
  /** seconds between the hop's two sends; the next hop starts from the forward */
  gap: number;
}

export interface PeelChain {
  source: Account;
  /** the hops, in order: each peels and forwards to the next, the last one to `end` */
  forwarders: Account[];
  end: Account;
  hops: PeelHop[];
  token: TokenSymbol;
  /** what `source` pays the first hop, in token units */
  amount: bigint;
  start: number;
}

const share = (units: bigint, fraction: number) => (units * BigInt(Math.round(fraction * 1e6))) / 1_000_000n;

/**
 * Plays a chain: `source` pays the first forwarder, and each forwarder peels its share of what it holds, keeps
 * back what its act says and forwards the rest, in token units as a wallet would. Returns the time of the last
 * forward.
 */
export function playPeelChain(
  world: World,
  chain: PeelChain,
  act: (hop: number, at: number) => PeelAct,
): number {
  let t = chain.start;
  let balance = chain.amount;
  world.send(chain.source, chain.forwarders[0] as Account, chain.token, balance, t);
  for (const [i, hop] of chain.forwarders.entries()) {
    const shape = chain.hops[i] as PeelHop;
    t += shape.wait;
    const { peelTo, kept, peelFirst, gap } = act(i, t);
    const peel = share(balance, shape.peel);
    const forward = balance - peel - share(balance, kept);
    const next = chain.forwarders[i + 1] ?? chain.end;
    const later = t + gap;
    world.send(hop, peelTo, chain.token, peel, peelFirst ? t : later);
    world.send(hop, next, chain.token, forward, peelFirst ? later : t);
    t = peelFirst ? later : t;
    balance = forward;
  }
  return t;
}

/** The devnet's chain: the peel usually lands at an exchange deposit address, as in the literature. */
function devnetChain(
  world: World,
  services: Pick<Services, "exchanges">,
  rng: Rng,
  id: string,
  start: number,
  hops: PeelHop[],
  token: TokenSymbol,
): Account[] {
  const forwarders = hops.map((_, i) => world.account(`${id}.hop${i}`));
  playPeelChain(
    world,
    {
      source: world.account(`${id}.source`),
      forwarders,
      end: world.account(`${id}.hop${hops.length}`),
      hops,
      token,
      amount: unitsForUsd(token, rng.between(20_000, 120_000), start),
      start,
    },
    (i) => ({
      peelTo:
        rng.next() < 0.6
          ? rng.pick(services.exchanges).depositFor(`${id}.peel${i}`)
          : world.account(`${id}.peel${i}`),
      kept: 0,
      peelFirst: true,
      gap: 60,
    }),
  );
  return forwarders;
}

/** The devnet's instance, in ETH on the EVM devnet (`token`: USDV, the Tron devnet's USDT, on Tron's). */
export function peelChain(
  world: World,
  services: Pick<Services, "exchanges">,
  rng: Rng,
  id: string,
  start: number,
  token: TokenSymbol = "ETH",
): void {
  const hops = Array.from({ length: rng.int(3, 7) }, () => ({
    peel: rng.between(0.04, 0.18),
    wait: rng.between(1 * HOUR, 5 * DAY),
  }));
  const forwarders = devnetChain(world, services, rng, id, start, hops, token);
  world.addCase({
    id,
    pattern: "peel_chain",
    positive: true,
    subject: (forwarders[0] as Account).address,
    involved: [...forwarders, world.account(`${id}.hop${hops.length}`)].map((a) => a.address),
    note: `${hops.length} hops`,
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
  const hops = Array.from({ length: variant === 1 ? 2 : rng.int(3, 5) }, () => ({
    peel: variant === 2 ? rng.between(0.28, 0.4) : rng.between(0.04, 0.18),
    wait: variant === 3 ? rng.between(8 * DAY, 12 * DAY) : rng.between(HOUR, 5 * DAY),
  }));
  const [first] = devnetChain(world, services, rng, id, start, hops, "ETH");
  world.addCase({
    id,
    pattern: "peel_chain",
    positive: false,
    subject: (first as Account).address,
    involved: [(first as Account).address],
    note:
      ["", "two hops only", `${hops.length} hops forwarding 60-72%`, `${hops.length} hops 8-12 days apart`][
        variant
      ] ?? "",
  });
}
