// The UTXO pattern eval's labelled Bitcoin world (`npm run eval -- utxo-patterns`, docs/eval.md "Patterns on
// Bitcoin"): two months of a busy chain in Bitcoin's own shapes, with many instances of the patterns the detectors
// must find there, their near misses, and the ordinary lives that look most like them.
//
// Ordinary life: four exchanges (labelled hot wallets; per-customer deposit addresses, unlabelled, swept daily) pay
// withdrawals in batches; 160 users withdraw, pay merchants and each other, and deposit, with change to fresh
// addresses; a quarter of them are busy spenders who make 3-6 payments of 1-12 % of a large coin within a week (each
// payment's change on a fresh address: the shape of a peel chain); a sixth keep one address and its change (old
// wallets); merchants reuse an address and sweep it weekly to their exchange; employers pay salaries of USD
// 1,200-2,400 to many users in one transaction.
//
// Injected (per world, each with its variant):
// - peel_chain: 3-4, 5-7 and 8-10 hops from an exchange withdrawal of 5-40 BTC, each hop one transaction peeling
//   its own 1-19 % to an exchange deposit, a merchant, a user or a fresh address, 30 minutes to 5 days apart; the
//   case's address is one of the first three hops. Near misses: two hops; hops 8-12 days apart; peels of 25-45 %.
// - structuring: a collector paid by 3-6 payers each 86-99 % of USD 1,000, 3,000 or 10,000 within 1-6 days; an old
//   wallet (one address, change back to it) paying 3-5 people such amounts within 2-6 days. Near misses: two
//   payments only; 60-80 % of the threshold; three payments over 10-14 days.
// - exchange_hopping: a withdrawal from one exchange deposited at another 1-60 hours later (85-100 % of it), or
//   passed through one fresh wallet of the user's own first. Near misses: deposited back at the same exchange;
//   deposited at another after 4-6 days.
// The generator is written from the patterns' definitions (docs/risk-model.md) and from how wallets spend, not from
// the detectors' code. Everything derives from the seed.
import { Rng } from "../../src/platform/rng.ts";
import {
  BitcoinWorld,
  BtcExchange,
  type BtcWallet,
  type Case,
  DAY,
  HOUR,
  satsForUsd,
} from "../../src/worlds/index.ts";

export const UTXO_PATTERNS = ["peel_chain", "structuring", "exchange_hopping"] as const;

export interface UtxoPatternWorld {
  world: BitcoinWorld;
  /** positives, near misses (positive false, with the pattern they must not read as) and ordinary users */
  cases: Case[];
}

export interface UtxoPatternOptions {
  seed: number;
  users: number;
  /** instances of each positive variant, and of each near miss */
  instances: number;
}

const START = Date.UTC(2024, 2, 1) / 1000;
const btc = (amount: number) => BigInt(Math.round(amount * 1e8));
const share = (value: bigint, fraction: number) => (value * BigInt(Math.round(fraction * 1e6))) / 1_000_000n;
const THRESHOLDS = [1_000, 3_000, 10_000];

export function utxoPatternWorld(opts: UtxoPatternOptions): UtxoPatternWorld {
  const world = new BitcoinWorld(`vigia-utxo-eval-${opts.seed}`, "bcrt");
  const rng = new Rng(opts.seed);
  const cases: Case[] = [];
  const at = (day: number) => START + day * DAY + rng.int(0, 20 * HOUR);
  const exchanges = ["Bitso", "Binance", "Kraken", "Buda"].map((n) => new BtcExchange(world, n));
  const pool = world.wallet("pool");
  const poolAddress = pool.fresh();
  for (let i = 0; i < 400; i++) world.mine(START - 2 * DAY + i * 60, poolAddress, btc(6.25));
  for (const [i, exchange] of exchanges.entries())
    pool.pay(START - DAY + i * 600, [{ address: exchange.hotAddress, value: btc(600) }], {
      changeTo: poolAddress,
    });

  // Ordinary life.
  const merchants = Array.from({ length: 10 }, (_, i) => {
    const wallet = world.wallet(`merchant.${i}`);
    return { wallet, address: wallet.fresh(), home: rng.pick(exchanges) };
  });
  type User = { wallet: BtcWallet; home: BtcExchange; kind: "ordinary" | "busy" | "reuser"; address: string };
  const users: User[] = Array.from({ length: opts.users }, (_, i) => {
    const roll = rng.next();
    const kind = roll < 0.25 ? "busy" : roll < 0.42 ? "reuser" : "ordinary";
    const wallet = world.wallet(`user.${i}`);
    return { wallet, home: rng.pick(exchanges), kind, address: wallet.fresh() };
  });
  const changeOf = (u: User) => (u.kind === "reuser" ? { changeTo: u.address } : {});
  const payFrom = (u: User, when: number, to: string, value: bigint) => {
    if (value < 20_000n || u.wallet.balance() < value + 20_000n) return;
    u.wallet.pay(when, [{ address: to, value }], changeOf(u));
  };
  for (const u of users) {
    const when = START + rng.int(0, 3 * DAY);
    const amount = btc(Math.min(8, rng.logNormal(0.4, 1)));
    world.schedule(when, () => u.home.withdraw(when, [{ address: u.address, value: amount }]));
  }
  for (let day = 4; day <= 60; day++) {
    for (let k = 0; k < Math.round(opts.users / 6); k++) {
      const u = rng.pick(users.filter((x) => x.kind !== "busy"));
      const when = at(day);
      world.schedule(when, () => {
        const balance = u.wallet.balance();
        const roll = rng.next();
        if (balance < btc(0.02)) {
          u.home.withdraw(when, [
            { address: u.kind === "reuser" ? u.address : u.wallet.fresh(), value: btc(rng.between(0.05, 1)) },
          ]);
        } else if (roll < 0.55)
          payFrom(u, when, rng.pick(merchants).address, share(balance, rng.between(0.01, 0.3)));
        else if (roll < 0.75) {
          const friend = rng.pick(users);
          if (friend !== u)
            payFrom(
              u,
              when,
              friend.kind === "reuser" ? friend.address : friend.wallet.fresh(),
              share(balance, rng.between(0.05, 0.5)),
            );
        } else payFrom(u, when, u.home.depositFor(u.wallet.name), share(balance, rng.between(0.2, 0.9)));
      });
    }
    if (day % 7 === 0)
      for (const m of merchants) {
        const when = START + day * DAY + 21 * HOUR;
        world.schedule(when, () => {
          if (m.wallet.balance() > btc(0.01)) m.wallet.sendAll(when, m.home.depositFor(m.wallet.name));
        });
      }
    for (const [i, exchange] of exchanges.entries()) {
      const when = START + day * DAY + 23 * HOUR + i * 600;
      world.schedule(when, () => exchange.sweep(when));
    }
  }
  // Busy spenders: a week of 3-6 payments, each 1-12 % of what the coin holds, to merchants and friends.
  for (const u of users.filter((x) => x.kind === "busy")) {
    let when = START + rng.int(5, 50) * DAY;
    const payments = rng.int(3, 6);
    for (let i = 0; i < payments; i++) {
      const t = when;
      const to = rng.chance(0.7) ? rng.pick(merchants).address : rng.pick(users).wallet.fresh();
      const fraction = rng.between(0.01, 0.12);
      world.schedule(t, () => payFrom(u, t, to, share(u.wallet.balance(), fraction)));
      when += rng.int(2 * HOUR, 30 * HOUR);
    }
  }
  // Employers: monthly salaries of USD 1,200-2,400 to 8-15 users in one transaction, from a reused address.
  for (let e = 0; e < 2; e++) {
    const employer = world.wallet(`employer.${e}`);
    const address = employer.fresh();
    const staff = rng.shuffle(users).slice(0, rng.int(8, 15));
    const salary = rng.between(1_200, 2_400);
    world.schedule(START + DAY, () => exchanges[e]!.withdraw(START + DAY, [{ address, value: btc(15) }]));
    for (const day of [15, 45]) {
      const when = START + day * DAY + 10 * HOUR;
      world.schedule(when, () =>
        employer.pay(
          when,
          staff.map((s) => ({ address: s.address, value: satsForUsd(salary, when) })),
          { changeTo: address },
        ),
      );
    }
    cases.push({
      id: `employer-${e}`,
      pattern: "structuring",
      positive: false,
      subject: address,
      involved: [address],
      note: "salaries",
      variant: "salaries",
    });
  }

  let n = 0;
  const caseOf = (pattern: string, positive: boolean, subject: string, variant: string) =>
    cases.push({
      id: `${pattern}-${variant}-${n++}`,
      pattern,
      positive,
      subject,
      involved: [subject],
      note: variant,
      variant,
    });

  // Peel chains and their near misses.
  const peel = (
    variant: string,
    hops: number,
    gap: () => number,
    fraction: () => number,
    positive: boolean,
  ) => {
    const wallet = world.wallet(`peel.${n}`);
    const first = wallet.fresh();
    const start = at(rng.int(5, 40));
    const from = rng.pick(exchanges);
    world.schedule(start, () => from.withdraw(start, [{ address: first, value: btc(rng.between(5, 40)) }]));
    let t = start + rng.int(HOUR, 12 * HOUR);
    const hopAddresses = [first];
    for (let h = 0; h < hops; h++) {
      const when = t;
      const roll = rng.next();
      const target =
        roll < 0.4
          ? rng.pick(exchanges).depositFor(`peel.${n}.${h}`)
          : roll < 0.6
            ? rng.pick(merchants).address
            : roll < 0.8
              ? rng.pick(users).address
              : world.address(`peel.${n}.out.${h}`);
      const f = fraction();
      world.schedule(when, () => {
        const coin = wallet.coins[0];
        if (coin) wallet.pay(when, [{ address: target, value: share(coin.value, f) }], { coins: [coin] });
      });
      hopAddresses.push(world.address(`peel.${n}.${h + 1}`));
      t += gap();
    }
    caseOf(
      "peel_chain",
      positive,
      hopAddresses[positive ? rng.int(0, Math.min(2, hops - 1)) : 0] as string,
      variant,
    );
  };
  for (let i = 0; i < opts.instances; i++) {
    const hopGap = () => rng.int(HOUR / 2, 5 * DAY);
    const peelShare = () => rng.between(0.01, 0.19);
    peel("3-4 hops", rng.int(3, 4), hopGap, peelShare, true);
    peel("5-7 hops", rng.int(5, 7), hopGap, peelShare, true);
    peel("8-10 hops", rng.int(8, 10), hopGap, peelShare, true);
    peel("two hops", 2, hopGap, peelShare, false);
    peel("8-12 days apart", rng.int(3, 4), () => rng.int(8 * DAY, 12 * DAY), peelShare, false);
    peel("peels of 25-45 %", rng.int(3, 5), hopGap, () => rng.between(0.25, 0.45), false);
  }

  // Structuring and its near misses.
  const collected = (
    variant: string,
    payers: number,
    band: [number, number],
    days: number,
    positive: boolean,
  ) => {
    const collector = world.wallet(`collector.${n}`);
    const address = collector.fresh();
    const threshold = rng.pick(THRESHOLDS);
    const start = START + rng.int(8, 45) * DAY;
    for (let i = 0; i < payers; i++) {
      const payer = world.wallet(`collector.${n}.payer.${i}`);
      const payerAddress = payer.fresh();
      const when = start + Math.round((i / Math.max(1, payers - 1)) * days * DAY) + rng.int(0, 3 * HOUR);
      const usd = threshold * rng.between(band[0], band[1]);
      const x = rng.pick(exchanges);
      world.schedule(when - 4 * HOUR, () =>
        x.withdraw(when - 4 * HOUR, [{ address: payerAddress, value: satsForUsd(usd * 1.3 + 50, when) }]),
      );
      world.schedule(when, () => payer.pay(when, [{ address, value: satsForUsd(usd, when) }]));
    }
    caseOf("structuring", positive, address, variant);
  };
  const sent = (
    variant: string,
    payments: number,
    band: [number, number],
    days: number,
    positive: boolean,
  ) => {
    const wallet = world.wallet(`structurer.${n}`);
    const address = wallet.fresh();
    const threshold = rng.pick(THRESHOLDS);
    const start = START + rng.int(8, 45) * DAY;
    const x = rng.pick(exchanges);
    world.schedule(start - DAY, () =>
      x.withdraw(start - DAY, [{ address, value: satsForUsd(threshold * payments * 1.2, start) }]),
    );
    for (let i = 0; i < payments; i++) {
      const when = start + Math.round((i / Math.max(1, payments - 1)) * days * DAY) + rng.int(0, 3 * HOUR);
      const to = rng.chance(0.5)
        ? rng.pick(users).address
        : rng.pick(exchanges).depositFor(`structurer.${n}.${i}`);
      const usd = threshold * rng.between(band[0], band[1]);
      world.schedule(when, () => {
        if (wallet.balance() > satsForUsd(usd, when) + 20_000n)
          wallet.pay(when, [{ address: to, value: satsForUsd(usd, when) }], { changeTo: address });
      });
    }
    caseOf("structuring", positive, address, variant);
  };
  for (let i = 0; i < opts.instances; i++) {
    collected("received from 3-6 payers", rng.int(3, 6), [0.86, 0.99], rng.between(1, 6), true);
    sent("sent from one address", rng.int(3, 5), [0.86, 0.99], rng.between(2, 6), true);
    collected("two payments only", 2, [0.86, 0.99], rng.between(1, 4), false);
    collected("60-80 % of the threshold", rng.int(3, 5), [0.6, 0.8], rng.between(1, 5), false);
    sent("over 10-14 days", 3, [0.86, 0.99], rng.between(10, 14), false);
  }

  // Exchange hopping and its near misses.
  const hop = (variant: string, same: boolean, rest: () => number, ownWallet: boolean, positive: boolean) => {
    const wallet = world.wallet(`hopper.${n}`);
    const address = wallet.fresh();
    const [x, other] = rng.shuffle(exchanges) as [BtcExchange, BtcExchange];
    const y = same ? x : other;
    const start = at(rng.int(5, 50));
    const amount = btc(rng.between(0.3, 6));
    world.schedule(start, () => x.withdraw(start, [{ address, value: amount }]));
    const when = start + rest();
    const carried = rng.between(0.85, 1);
    if (ownWallet) {
      const middle = world.wallet(`hopper.${n}.own`);
      const middleAddress = middle.fresh();
      const passAt = start + Math.round((when - start) / 2);
      world.schedule(passAt, () => wallet.sendAll(passAt, middleAddress));
      world.schedule(when, () =>
        middle.pay(when, [
          { address: y.depositFor(middle.name), value: share(middle.balance(), carried - 0.001) },
        ]),
      );
    } else {
      world.schedule(when, () =>
        wallet.pay(when, [
          { address: y.depositFor(wallet.name), value: share(wallet.balance(), carried - 0.001) },
        ]),
      );
    }
    caseOf("exchange_hopping", positive, address, variant);
  };
  for (let i = 0; i < opts.instances; i++) {
    hop("direct, 1-60 hours", false, () => rng.int(HOUR, 60 * HOUR), false, true);
    hop("through an own wallet", false, () => rng.int(2 * HOUR, 40 * HOUR), true, true);
    hop("back at the same exchange", true, () => rng.int(HOUR, 60 * HOUR), false, false);
    hop("after 4-6 days", false, () => rng.int(4 * DAY, 6 * DAY), false, false);
  }

  world.play();
  // Ordinary users as cases of every pattern's absence. A busy spender is also taken at its first change address,
  // the first of its run of payments that forwards what it received within hours, as a peel chain's hop does.
  for (const u of users) {
    const subjects: [string, string][] = [[u.address, u.kind]];
    const change = u.wallet.addresses[1];
    if (u.kind === "busy" && change) subjects.push([change, "busy, at its first change"]);
    for (const [subject, kind] of subjects)
      cases.push({
        id: `user-${subject}`,
        pattern: "background",
        positive: false,
        subject,
        involved: [subject],
        note: kind,
        variant: kind,
      });
  }
  return { world, cases };
}
