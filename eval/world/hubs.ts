// Busy unlabelled addresses of the benchmark world: OTC desks and payment processors that many ordinary users pay
// and are paid by, with heavy-tailed popularity (the busiest deal with most of the population). A few of them also
// deal, with a minority of their own money, with the risky side: deposits into and withdrawals from the mixer
// pools, receipts from the sanctioned address, payments to a scam. So ordinary users end up two hops from mixers,
// sanctioned and illicit addresses, as they do on a real chain, and the eval can count how often the risk engine
// raises a false alert on them.
//
// The ground truth stays honest: a hub's risky flows are kept under RISKY_SHARE_CAP of its flows in the same
// direction in any 30 days (the window the risk engine traces an intermediary's flows over), so no user's own funds
// can be traced to or from the risky side at the half that makes them the mixing pattern or critical
// (docs/decisions/0011); test/eval/benchmark-world.test.ts checks it on the world.
// Hubs have a rank among users, as people do (population.ts): lower-ranked users pay a hub, higher-ranked ones are
// paid by it, so hubs close no loop (round tripping) and trade nothing back and forth (wash trading) by accident.
// Each hub serves one community of users (population.ts COMMUNITIES); the hubs that deal with the risky side are in
// the first one, so part of the population is two hops from it and the rest further, as on a real chain.

import type { Rng } from "../../src/platform/rng.ts";
import { lowerBound } from "../../src/platform/sorted.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../../src/worlds/index.ts";
import { type BenchmarkServices, COMMUNITIES, type Member } from "./population.ts";

/** A hub's risky flows stay under this share of its flows in that direction within any 30 days. */
export const RISKY_SHARE_CAP = 0.25;

export type HubDealing = "mixer-deposits" | "mixer-withdrawals" | "sanctioned-receipts" | "scam-payments";

/** A risky dealing, and the share of the hub's weekly flows in its direction it takes. */
interface Dealing {
  kind: HubDealing;
  share: number;
}

export interface Hub {
  account: Account;
  rank: number;
  /** the community of users it serves (hub i serves community i % COMMUNITIES) */
  community: number;
  dealings: Dealing[];
}

/**
 * Which hubs deal with the risky side, how, and how much (the rest are clean): three of the first community's, not
 * its busiest. Together a hub's dealings in one direction take 18-20 % of its flows there, under RISKY_SHARE_CAP.
 */
const DEALINGS: Record<number, Dealing[]> = {
  3: [
    { kind: "mixer-deposits", share: 0.12 },
    { kind: "scam-payments", share: 0.08 },
  ],
  6: [{ kind: "sanctioned-receipts", share: 0.18 }],
  9: [
    { kind: "mixer-withdrawals", share: 0.1 },
    { kind: "sanctioned-receipts", share: 0.08 },
  ],
};

export interface HubOptions {
  count: number;
  /** user-hub transfers over the span */
  transfers: number;
  start: number;
  end: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export function buildHubs(
  world: World,
  services: BenchmarkServices,
  rng: Rng,
  users: readonly Member[],
  pickUser: (rng: Rng) => Member,
  opts: HubOptions,
): Hub[] {
  if (users.length === 0) return [];
  const hubs: Hub[] = Array.from({ length: opts.count }, (_, i) => ({
    account: world.account(`hub${i}`),
    rank: rng.between(0.3, 0.7) * users.length,
    community: i % COMMUNITIES,
    dealings: DEALINGS[i] ?? [],
  }));
  // Popularity falls as a power law: the first hubs of a community deal with most of it.
  const pickHub = (r: Rng, community: number): Hub | undefined => {
    const own = hubs.filter((h) => h.community === community);
    const weights = own.map((_, k) => 1 / (k + 1) ** 0.9);
    let x = r.next() * weights.reduce((s, w) => s + w, 0);
    for (const [k, w] of weights.entries()) {
      x -= w;
      if (x <= 0) return own[k];
    }
    return own.at(-1);
  };

  // Everyday dealings: a user below the hub's rank pays it, one above is paid by it.
  for (let n = 0; n < opts.transfers; n++) {
    const u = pickUser(rng);
    const hub = pickHub(rng, u.community);
    if (!hub) continue;
    const at = Math.floor(rng.between(Math.max(u.joined + HOUR, opts.start), opts.end));
    const token: TokenSymbol = rng.chance(0.6) ? "USDV" : "ETH";
    const usd = clamp(rng.logNormal(u.scale * 3, 0.9), 5, 2_500);
    if (u.rank < hub.rank) world.sendUsd(u.account, hub.account, token, usd, at);
    else if (u.rank > hub.rank) world.sendUsd(hub.account, u.account, token, usd, at);
  }
  // Their own business: weekly, they buy on their exchange and deposit the proceeds (swept, World.send).
  for (const [i, hub] of hubs.entries()) {
    const exchange = services.exchanges[i % services.exchanges.length];
    if (!exchange) continue;
    for (let t = opts.start + rng.between(0, 7 * DAY); t < opts.end; t += 7 * DAY) {
      const size = 20_000 / (i + 1) ** 0.9;
      world.sendUsd(exchange.hot, hub.account, "USDV", rng.logNormal(size, 0.4), t);
      world.sendUsd(
        hub.account,
        exchange.depositFor(hub.account.name),
        "USDV",
        rng.logNormal(size, 0.4),
        t + DAY,
      );
    }
  }
  for (const hub of hubs) for (const dealing of hub.dealings) deal(world, services, rng, hub, dealing, opts);
  const risky = new Set([
    ...services.pools.map((p) => p.account.address),
    services.mixerRouter.address,
    services.sanctioned.address,
    services.scam.address,
  ]);
  for (const hub of hubs) {
    if (hub.dealings.length === 0) continue;
    for (const outgoing of [true, false]) keepUnderCap(world, hub.account.address, outgoing, risky);
  }
  return hubs;
}

/** Weekly budgets vary with lumpy flows: drop the largest risky transfer of the worst window until none is over. */
const CAP_MARGIN = 0.02;
const MONTH = 30 * DAY;

function keepUnderCap(world: World, hub: string, outgoing: boolean, risky: ReadonlySet<string>): void {
  const anchors = world.transfers.filter((t) => t.from === hub || t.to === hub).map((t) => t.at);
  for (let round = 0; round < 1_000; round++) {
    const flows = world.transfers
      .filter((t) => (outgoing ? t.from : t.to) === hub)
      .sort((a, b) => a.at - b.at);
    const times = flows.map((t) => t.at);
    const total = [0];
    const tainted = [0];
    for (const t of flows) {
      const usd = usdOf(t.token, t.amount);
      total.push((total.at(-1) as number) + usd);
      tainted.push((tainted.at(-1) as number) + (risky.has(outgoing ? t.to : t.from) ? usd : 0));
    }
    let worst: { share: number; lo: number; hi: number } | undefined;
    for (const at of anchors) {
      const [from, to] = outgoing ? [at, at + MONTH] : [at - MONTH, at];
      const lo = lowerBound(times, from);
      const hi = lowerBound(times, to + 1);
      const sum = (total[hi] as number) - (total[lo] as number);
      if (sum <= 0) continue;
      const share = ((tainted[hi] as number) - (tainted[lo] as number)) / sum;
      if (!worst || share > worst.share) worst = { share, lo, hi };
    }
    if (!worst || worst.share < RISKY_SHARE_CAP - CAP_MARGIN) return;
    const candidates = flows.slice(worst.lo, worst.hi).filter((t) => risky.has(outgoing ? t.to : t.from));
    const largest = candidates.sort((a, b) => usdOf(b.token, b.amount) - usdOf(a.token, a.amount))[0];
    if (!largest) return;
    world.transfers.splice(world.transfers.indexOf(largest), 1);
  }
}

/** A hub's risky dealing: its share of the hub's flows in that direction, week by week. */
function deal(
  world: World,
  services: BenchmarkServices,
  rng: Rng,
  hub: Hub,
  { kind: dealing, share }: Dealing,
  opts: HubOptions,
): void {
  const outgoing = dealing === "mixer-deposits" || dealing === "scam-payments";
  const flows = world.transfers.filter((t) =>
    outgoing ? t.from === hub.account.address : t.to === hub.account.address,
  );
  // Never within 35 days of the world's start or end: the engine weighs an intermediary's flows over the 30 days
  // before (or after) a transfer, and a window with little else in it would make a small dealing a large share.
  for (let week = opts.start + 35 * DAY; week < opts.end - 35 * DAY; week += 7 * DAY) {
    // A week's worth of what the hub moved in that direction over the four weeks before (smoother than one week):
    // the risky dealing takes its share of it.
    const usd =
      flows
        .filter((t) => t.at >= week - 28 * DAY && t.at < week)
        .reduce((s, t) => s + usdOf(t.token, t.amount), 0) / 4;
    const at = week + Math.floor(rng.between(0, 6 * DAY));
    const budget = usd * share;
    if (dealing === "scam-payments" || dealing === "sanctioned-receipts") {
      if (budget < 50) continue;
      if (dealing === "scam-payments") world.sendUsd(hub.account, services.scam, "USDV", budget, at);
      else world.sendUsd(services.sanctioned, hub.account, "USDV", budget, at);
      continue;
    }
    // Mixer deposits and withdrawals go in whole denominations: the largest pool whose notes the budget can
    // fill, as many notes as it holds (at most 20 a week).
    const pool = [...services.pools].reverse().find((p) => budget >= noteUsd(p.denomination)) ?? undefined;
    if (!pool) continue;
    const notes = Math.min(20, Math.floor(budget / noteUsd(pool.denomination)));
    for (let k = 0; k < notes; k++) {
      if (dealing === "mixer-deposits")
        world.send(hub.account, pool.account, "ETH", pool.denomination, at + k * HOUR);
      else world.send(pool.account, hub.account, "ETH", (pool.denomination * 997n) / 1_000n, at + k * HOUR);
    }
  }
}

/** A note's USD at the highest ETH price the scenario reaches (base +5 %), so a budget is never overspent. */
const noteUsd = (denomination: bigint) => (Number(denomination / 10n ** 12n) / 1e6) * 2_500 * 1.05;

/** USD at the scenario's base prices: close enough to size a budget (the ETH price drifts ±5 %). */
function usdOf(token: TokenSymbol, amount: bigint): number {
  if (token === "USDV") return Number(amount) / 1e6;
  if (token === "ETH") return (Number(amount / 10n ** 12n) / 1e6) * 2_500;
  return (Number(amount / 10n ** 12n) / 1e6) * 4;
}
