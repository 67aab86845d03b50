// The detection benchmark's ordinary world: the labelled services, the hubs everyone shares (merchants, employers,
// a DEX router, a game contract, an unlabelled staking contract) and a population of ordinary users living a year of
// everyday payments, into which the benchmark's cases (./cases/*.ts) are woven. Case wallets get an ordinary life
// from here too (`live`): they are onboarded like users, pay the same merchants, use their own exchange and pay and
// are paid by the same users, so a case is never an island a detector could find by its shape alone.
//
// Realistic distributions, all from the seeded Rng: everyday amounts are log-normal around a per-person spending
// level (itself log-normal); how active a person is follows a Pareto law (a few very active users, many quiet
// ones); merchants' and users' popularity is heavy-tailed too, so a few of them become neighbours of many cases;
// salaries are monthly and fixed; most people are onboarded by a withdrawal from their exchange.
//
// Three rules keep the ground truth honest (a background user or a near miss must not become, by accident, an
// instance of a pattern of docs/risk-model.md; each rule is documented where it applies):
//  - payments between people go from a lower to a higher `rank` only, so person-to-person flows never close a loop
//    (round tripping) or go back and forth (wash trading) by accident;
//  - each person uses one exchange (their `home`), so nobody hops between exchanges by accident;
//  - a case wallet's everyday amounts stay under USD 800 (below 85% of the lowest reporting threshold), so ordinary
//    life never completes a structuring near miss, and never carries 80% of a case's large amounts (peel chains,
//    exchange hops, round trips).
// Mixing cases also restrict when their wallets trade with users (see cases/mixing.ts): funds that reach or come
// from a mixer must not reach a background user within the analysed depth.
import type { Rng } from "../../src/platform/rng.ts";
import type { Exchange } from "../../src/worlds/index.ts";
import {
  type Account,
  DAY,
  HOUR,
  type TokenSymbol,
  unitsForUsd,
  type World,
} from "../../src/worlds/index.ts";
import { buildHubs, type Hub } from "./hubs.ts";

/** Everyday amounts of case wallets stay below this (USD): under 85% of the USD 1,000 threshold. */
export const EVERYDAY_CAP_USD = 780;

export interface BenchmarkServices {
  exchanges: Exchange[];
  /** Tornado-like pools by denomination (ETH), and the router that takes deposits for all of them */
  pools: { denomination: bigint; account: Account }[];
  mixerRouter: Account;
  sanctioned: Account;
  /** a labelled scam (category illicit) that some busy hubs pay */
  scam: Account;
  bridge: Account;
  /** a DEX router (labelled defi): swaps */
  dex: Account;
  /** a labelled faucet (category other): funds many new wallets, legitimately */
  faucet: Account;
  /** an unlabelled staking contract that takes deposits of exactly 1 or 10 ETH: mixer-like, not a mixer */
  staking: Account;
  /** an unlabelled, popular game contract: a sink of small ETH payments */
  game: Account;
}

/** A person: a background user, or a case wallet that lives an ordinary life besides its case. */
export interface Member {
  account: Account;
  /** payments between people go from a lower to a higher rank only */
  rank: number;
  /** time of the first transfer */
  joined: number;
  home: Exchange;
  /** median USD of an everyday payment */
  scale: number;
  /**
   * which of COMMUNITIES it lives in: friends are mostly of the same one, and each hub serves one (hubs.ts), so the
   * risky dealings of a few hubs reach part of the population, not all of it
   */
  community: number;
}

/** Communities of the population (by region, say): hubs serve one each, friends are mostly within one. */
export const COMMUNITIES = 3;

export interface Population {
  world: World;
  services: BenchmarkServices;
  users: Member[];
  merchants: Account[];
  /** the exchange each merchant deposits its takings into */
  merchantHome: Map<string, Exchange>;
  employers: Account[];
  start: number;
  end: number;
  /** users a case wallet traded with (the "neighbours" half of the background sample) */
  neighbours: Set<string>;
  /** users that are part of a case's structure (never sampled as plain background) */
  involved: Set<string>;
  /** busy unlabelled addresses everyone deals with, a few of which deal with the risky side (hubs.ts) */
  hubs: Hub[];
  pickMerchant(rng: Rng): Account;
  /** a user who joined before `at` with a rank above (direction "up") or below ("down") `rank`, weighted by popularity */
  pickUser(rng: Rng, at: number, rank: number, direction: "up" | "down"): Member | undefined;
}

const ETH = 10n ** 18n;

export function buildBenchmarkServices(world: World): BenchmarkServices {
  // Each exchange has two labelled wallets, named as label sets name them ("Binance 14", "Binance 15"); its
  // customers' deposit addresses are unlabelled and swept to one of them (World.send), so the service must infer
  // them, as on a real chain.
  const exchange = (name: string, k: number): Exchange => {
    const wallets = [1, 2].map((n) =>
      world.account(`${name}.hot${n}`, { label: `${name} ${10 + 2 * k + n}`, category: "exchange" }),
    );
    const hot = wallets[0] as Account;
    return {
      name,
      hot,
      depositFor: (customer) => {
        const deposit = world.account(`${name}.deposit.${customer}`);
        const sweepTo = wallets[deposit.address.charCodeAt(2) % wallets.length] as Account;
        world.registerDeposit(deposit, name, sweepTo);
        return deposit;
      },
    };
  };
  const pool = (eth: string, denomination: bigint) => ({
    denomination,
    account: world.contract(`mixer.pool-${eth}eth`, {
      label: `Tornado.Cash: ${eth} ETH (benchmark pool)`,
      category: "mixer",
    }),
  });
  return {
    exchanges: ["Bitso", "Binance", "Buda", "Lemon", "Ripio"].map((name, k) => exchange(name, k)),
    pools: [pool("0.1", ETH / 10n), pool("1", ETH), pool("10", 10n * ETH)],
    mixerRouter: world.contract("mixer.router", {
      label: "Tornado.Cash: Router (benchmark)",
      category: "mixer",
    }),
    sanctioned: world.account("sanctioned.lazarus", {
      label: "OFAC SDN: Lazarus Group (benchmark)",
      category: "sanctioned",
    }),
    scam: world.account("illicit.scam", { label: "Phishing: fake airdrop (benchmark)", category: "illicit" }),
    bridge: world.contract("bridge.hop", { label: "Hop Protocol bridge (benchmark)", category: "bridge" }),
    dex: world.contract("dex.router", { label: "Uniswap-like router (benchmark)", category: "defi" }),
    faucet: world.account("faucet.community", { label: "Community faucet", category: "other" }),
    staking: world.contract("contract.staking"),
    game: world.contract("contract.game"),
  };
}

/** A cumulative-weight picker: O(log n) draws from a fixed weighted list. */
function weighted<T>(items: readonly T[], weights: readonly number[]): (rng: Rng) => T {
  const cumulative: number[] = [];
  let total = 0;
  for (const w of weights) {
    total += w;
    cumulative.push(total);
  }
  return (rng) => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] as number) > x) hi = mid;
      else lo = mid + 1;
    }
    return items[lo] as T;
  };
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export interface PopulationOptions {
  users: number;
  /** everyday background transfers (salaries, onboarding, sweeps and swaps' second legs come on top) */
  transfers: number;
  /** busy unlabelled hubs (hubs.ts), and the user-hub transfers on top of the everyday ones */
  hubs: number;
  hubTransfers: number;
  start: number;
  days: number;
}

export function buildPopulation(
  world: World,
  services: BenchmarkServices,
  rng: Rng,
  opts: PopulationOptions,
): Population {
  const end = opts.start + opts.days * DAY;
  const exchangeOf = weighted(
    services.exchanges,
    services.exchanges.map((_, k) => 1 / (k + 1)),
  );
  const merchants = Array.from({ length: 40 }, (_, i) => world.account(`merchant${i}`));
  const pickMerchantFn = weighted(
    merchants,
    merchants.map((_, k) => 1 / (k + 1) ** 1.1),
  );
  const employers = Array.from({ length: 40 }, (_, i) => world.account(`employer${i}`));
  const pickEmployer = weighted(
    employers,
    employers.map((_, k) => 1 / (k + 1) ** 0.8),
  );
  const suppliers = Array.from({ length: 12 }, (_, i) => world.account(`supplier${i}`));

  // People. Ranks are their index: payments between people only go up.
  const users: Member[] = [];
  const popularity: number[] = [];
  const activity: number[] = [];
  for (let i = 0; i < opts.users; i++) {
    const joined =
      opts.start +
      (rng.chance(0.7) ? rng.between(0, 30 * DAY) : rng.between(30 * DAY, (opts.days - 35) * DAY));
    users.push({
      account: world.account(`user${i}`),
      rank: i,
      joined: Math.floor(joined),
      home: exchangeOf(rng),
      scale: clamp(rng.logNormal(45, 0.7), 5, 400),
      community: rng.int(0, COMMUNITIES - 1),
    });
    popularity.push(rng.pareto(1, 1.3));
    activity.push(rng.pareto(1, 1.6));
  }
  const pickByPopularity = weighted(users, popularity);
  const pickByActivity = weighted(users, activity);

  const pop: Population = {
    world,
    services,
    users,
    merchants,
    merchantHome: new Map(),
    employers,
    start: opts.start,
    end,
    neighbours: new Set(),
    involved: new Set(),
    hubs: [],
    pickMerchant: pickMerchantFn,
    pickUser(r, at, rank, direction) {
      for (let tries = 0; tries < 12; tries++) {
        const u = pickByPopularity(r);
        if (u.joined >= at) continue;
        if (direction === "up" ? u.rank > rank : u.rank < rank) return u;
      }
      return undefined;
    },
  };
  if (users.length === 0) return pop;

  // Employers and merchants are funded by their treasuries and banks' on-ramps (accounts of their own).
  for (const [i, employer] of employers.entries()) {
    for (let m = 0; m < opts.days / 30; m++) {
      world.sendUsd(
        world.account(`employer${i}.treasury`),
        employer,
        "USDV",
        rng.logNormal(60_000, 0.5),
        opts.start + m * 30 * DAY - 2 * DAY + rng.between(0, DAY),
      );
    }
  }

  // Onboarding: the first transfer of every user, mostly a withdrawal from their exchange.
  for (const [i, u] of users.entries()) {
    const roll = rng.next();
    const usd = clamp(rng.logNormal(u.scale * 8, 0.6), 30, 5_000);
    const token = rng.pick(["ETH", "USDV", "USDV"] as const);
    if (roll < 0.75 || i === 0) world.sendUsd(u.home.hot, u.account, token, usd, u.joined);
    else if (roll < 0.88) world.sendUsd(pickEmployer(rng), u.account, "USDV", usd, u.joined);
    else {
      const friend = pop.pickUser(rng, u.joined, u.rank, "down");
      world.sendUsd(friend?.account ?? u.home.hot, u.account, token, Math.min(usd, 800), u.joined);
    }
  }

  // Salaries: 45% of users, monthly, a fixed amount from one employer (paid on the employer's payday).
  const payday = new Map(employers.map((e) => [e.address, rng.int(0, 27)]));
  for (const u of users) {
    if (!rng.chance(0.45)) continue;
    const employer = pickEmployer(rng);
    const salary = clamp(rng.logNormal(1_400, 0.45), 300, 8_000);
    const token: TokenSymbol = rng.chance(0.75) ? "USDV" : "ETH";
    const day = payday.get(employer.address) ?? 0;
    for (let m = 0; m < opts.days / 30; m++) {
      const at = opts.start + (m * 30 + day) * DAY + rng.between(8 * HOUR, 18 * HOUR);
      if (at <= u.joined + DAY || at >= end) continue;
      world.sendUsd(employer, u.account, token, salary * rng.between(0.99, 1.01), at);
    }
  }

  // Friends: each user pays a few users of a higher rank (family, landlord, friends), by popularity.
  const payees = new Map<Member, Member[]>();
  for (const u of users) {
    const list: Member[] = [];
    for (let k = rng.int(1, 5); k > 0; k--) {
      // Nine friends in ten live in the same community.
      let v = pop.pickUser(rng, Number.POSITIVE_INFINITY, u.rank, "up");
      for (let tries = 0; v && v.community !== u.community && tries < 4 && rng.chance(0.9); tries++) {
        v = pop.pickUser(rng, Number.POSITIVE_INFINITY, u.rank, "up");
      }
      if (v && !list.includes(v)) list.push(v);
    }
    payees.set(u, list);
  }

  // Everyday transfers.
  for (let n = 0; n < opts.transfers; n++) {
    const u = pickByActivity(rng);
    const at = Math.floor(rng.between(u.joined + HOUR, end));
    const roll = rng.next();
    const token: TokenSymbol = rng.chance(0.6) ? "USDV" : rng.chance(0.88) ? "ETH" : "TKN";
    if (roll < 0.5) {
      world.sendUsd(u.account, pickMerchantFn(rng), token, clamp(rng.logNormal(u.scale, 0.9), 1, 2_500), at);
    } else if (roll < 0.65) {
      const friends = (payees.get(u) ?? []).filter((f) => f.joined < at);
      const to = friends.length ? rng.pick(friends).account : pickMerchantFn(rng);
      world.sendUsd(u.account, to, token, clamp(rng.logNormal(u.scale * 0.8, 1), 1, 2_000), at);
    } else if (roll < 0.75) {
      const deposit = u.home.depositFor(u.account.name);
      const usd = clamp(rng.logNormal(u.scale * 4, 0.8), 10, 6_000);
      world.sendUsd(u.account, deposit, token, usd, at);
    } else if (roll < 0.87) {
      world.sendUsd(u.home.hot, u.account, token, clamp(rng.logNormal(u.scale * 4, 0.8), 10, 6_000), at);
    } else if (roll < 0.875) {
      // A payment straight to the exchange's labelled wallet (as some wallets' "send to exchange" does): the
      // sender is an ordinary user, not a deposit address, whatever else it does.
      world.sendUsd(u.account, u.home.hot, token, clamp(rng.logNormal(u.scale * 4, 0.8), 10, 6_000), at);
    } else if (roll < 0.95) {
      swap(world, services.dex, u.account, rng, clamp(rng.logNormal(u.scale * 2, 0.8), 5, 4_000), at);
    } else {
      world.sendUsd(u.account, services.game, "ETH", clamp(rng.logNormal(u.scale * 0.5, 0.7), 1, 300), at);
    }
  }

  pop.hubs = buildHubs(world, services, rng, users, pickByActivity, {
    count: opts.hubs,
    transfers: opts.hubTransfers,
    start: opts.start,
    end,
  });

  // Merchants: weekly, part of the takings to their exchange and to a supplier.
  for (const [i, merchant] of merchants.entries()) {
    const size = 20_000 / (i + 1) ** 1.1;
    const home = exchangeOf(rng);
    pop.merchantHome.set(merchant.address, home);
    const deposit = home.depositFor(merchant.name);
    for (let t = opts.start + 7 * DAY; t < end; t += 7 * DAY) {
      const at = t + rng.between(0, DAY);
      const usd = clamp(rng.logNormal(size, 0.4), 50, 200_000);
      world.sendUsd(merchant, deposit, "USDV", usd, at);
      world.sendUsd(merchant, rng.pick(suppliers), "USDV", usd * rng.between(0.2, 0.5), at + HOUR);
    }
  }
  return pop;
}

/** A swap on the DEX router: USDV in, TKN out (or the other way round), in one transaction as on a chain. */
export function swap(world: World, dex: Account, who: Account, rng: Rng, usd: number, at: number): void {
  const [sold, bought] = rng.chance(0.5) ? (["USDV", "TKN"] as const) : (["TKN", "USDV"] as const);
  world.transaction(
    [
      { from: who, to: dex, token: sold, amount: unitsForUsd(sold, usd, at) },
      { from: dex, to: who, token: bought, amount: unitsForUsd(bought, usd * 0.997, at) },
    ],
    at,
  );
}

export interface MemberOptions {
  /** how the wallet got its first funds: a withdrawal from its exchange (default), a salary, or nothing here */
  onboard?: "exchange" | "employer" | "none";
  /** USD of that first transfer (default: a few hundred) */
  usd?: number;
  token?: TokenSymbol;
}

/** A case wallet that is also a person: its own rank, exchange and spending level, onboarded at `at`. */
export function newMember(
  pop: Population,
  rng: Rng,
  name: string,
  at: number,
  opts: MemberOptions = {},
): Member {
  const m: Member = {
    account: pop.world.account(name),
    rank: rng.between(0, Math.max(1, pop.users.length)),
    joined: Math.floor(at),
    home: rng.pick(pop.services.exchanges),
    scale: clamp(rng.logNormal(45, 0.6), 5, 300),
    community: rng.int(0, COMMUNITIES - 1),
  };
  const usd = opts.usd ?? clamp(rng.logNormal(400, 0.5), 50, EVERYDAY_CAP_USD);
  const token = opts.token ?? rng.pick(["ETH", "USDV"] as const);
  if (opts.onboard === "employer") pop.world.sendUsd(rng.pick(pop.employers), m.account, token, usd, at);
  else if (opts.onboard !== "none") pop.world.sendUsd(m.home.hot, m.account, token, usd, at);
  return m;
}

export interface LifeOptions {
  from: number;
  to: number;
  /** everyday transfers to add */
  count: number;
  /** when the wallet may pay users (default: the whole span; null: never) */
  payUsers?: [number, number] | null;
  /** when the wallet may be paid by users (default: the whole span; null: never) */
  paidByUsers?: [number, number] | null;
  /** deposits to and withdrawals from its own exchange (default true) */
  exchange?: boolean;
  /** swaps on the DEX (default true) */
  dex?: boolean;
  /** tokens of everyday transfers (default ETH, USDV, TKN) */
  tokens?: readonly TokenSymbol[];
}

const within = (t: number, w: [number, number] | null | undefined, all: [number, number]) => {
  const [a, b] = w === undefined ? all : (w ?? [1, 0]);
  return t >= a && t <= b;
};

/**
 * An ordinary life for a case wallet between `from` and `to`: paying merchants and the game, paying and being paid
 * by users (respecting ranks and the windows given), its own exchange and the DEX; amounts log-normal around its
 * spending level, always under EVERYDAY_CAP_USD. Users it trades with become "neighbours".
 */
export function live(pop: Population, rng: Rng, m: Member, o: LifeOptions): void {
  const { world } = pop;
  const span: [number, number] = [o.from, o.to];
  const tokens = o.tokens ?? (["USDV", "USDV", "ETH", "TKN"] as const);
  const amount = (k: number) => clamp(rng.logNormal(m.scale * k, 0.8), 1, EVERYDAY_CAP_USD);
  for (let n = 0; n < o.count && o.to > o.from; n++) {
    const at = Math.floor(rng.between(o.from, o.to));
    const token = rng.pick(tokens);
    const roll = rng.next();
    if (roll < 0.35) {
      world.sendUsd(m.account, pop.pickMerchant(rng), token, amount(1), at);
    } else if (roll < 0.5 && within(at, o.payUsers, span)) {
      const u = pop.pickUser(rng, at, m.rank, "up");
      if (!u) continue;
      pop.neighbours.add(u.account.address);
      world.sendUsd(m.account, u.account, token, amount(0.8), at);
    } else if (roll < 0.65 && within(at, o.paidByUsers, span)) {
      const u = pop.pickUser(rng, at, m.rank, "down");
      if (!u) continue;
      pop.neighbours.add(u.account.address);
      world.sendUsd(u.account, m.account, token, amount(0.8), at);
    } else if (roll < 0.8 && o.exchange !== false) {
      if (rng.chance(0.5)) world.sendUsd(m.home.hot, m.account, token, amount(3), at);
      else {
        const deposit = m.home.depositFor(m.account.name);
        world.sendUsd(m.account, deposit, token, amount(3), at);
      }
    } else if (roll < 0.9 && o.dex !== false) {
      swap(world, pop.services.dex, m.account, rng, amount(2), at);
    } else {
      world.sendUsd(m.account, pop.services.game, "ETH", amount(0.4), at);
    }
  }
}

/** Log-uniform between a and b: spans of minutes to days get every order of magnitude. */
export function logUniform(rng: Rng, a: number, b: number): number {
  return Math.exp(rng.between(Math.log(a), Math.log(b)));
}
