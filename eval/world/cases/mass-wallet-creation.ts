// mass_wallet_creation (docs/risk-model.md): one address is the first funder of at least 10 fresh addresses within 24
// hours, the amounts within 25% of their median.
//
// Positives (rotating sizes): 10-12, 13-25 or 26-40 new wallets, all funded within 10 minutes to 23.5 hours
// (log-uniform), each amount within ±0-20% of a common one, in ETH, USDV or TKN; the funder lives an ordinary life
// around it; afterwards a third of the wallets sweep to a collector, a third spend at merchants and users, the
// rest stay idle; the case's subject is the funder, or now and then one of its new wallets (they are actors).
// Near misses: 6-9 new wallets in a day; 11-14 new wallets 3.2-5 hours apart (never 10 within 24 hours); 12-16 new
// wallets in a day with amounts 35% apart from each other; a labelled exchange withdrawing to new customers; a
// labelled faucet; an (unlabelled) payroll contract paying new employees; an unlabelled wallet paying 12-20
// existing users similar amounts (not fresh).
//
// Weaving rule: the funder's everyday payments go to merchants and existing users, never to fresh addresses.
import type { Rng } from "../../../src/platform/rng.ts";
import type { Account, TokenSymbol } from "../../../src/worlds/index.ts";
import { DAY, fundNewWallets, HOUR } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = ["10-12-wallets", "13-25-wallets", "26-40-wallets"] as const;
const NEAR_MISSES = [
  "too-few",
  "too-slow",
  "uneven-amounts",
  "exchange",
  "faucet",
  "payroll-contract",
  "existing-wallets",
] as const;

const tokenOf = (rng: Rng): TokenSymbol => (rng.chance(0.45) ? "ETH" : rng.chance(0.8) ? "USDV" : "TKN");

function funder(
  ctx: CaseContext,
  rng: Rng,
  id: string,
  start: number,
  usd: number,
  token: TokenSymbol,
): Member {
  return newMember(ctx.pop, rng, `${id}.funder`, start - rng.between(2, 60) * DAY, {
    usd: usd * rng.between(1.1, 1.8),
    token,
  });
}

function everyday(ctx: CaseContext, rng: Rng, m: Member, start: number) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: start + rng.between(15, 60) * DAY,
    count: rng.int(5, 25),
  });
}

/** What the new wallets do afterwards: sweep to a collector, spend, or stay idle. */
function afterwards(
  ctx: CaseContext,
  rng: Rng,
  id: string,
  wallets: Account[],
  token: TokenSymbol,
  usd: number,
  at: number,
) {
  const collector = ctx.world.account(`${id}.collector`);
  for (const [i, w] of wallets.entries()) {
    const t = at + rng.between(1, 20) * DAY;
    if (i % 3 === 0) ctx.world.sendUsd(w, collector, token, usd * rng.between(0.5, 0.95), t);
    else if (i % 3 === 1) {
      const u = rng.chance(0.5) ? ctx.pop.pickUser(rng, t, Number.NEGATIVE_INFINITY, "up") : undefined;
      ctx.world.sendUsd(w, u?.account ?? ctx.pop.pickMerchant(rng), token, usd * rng.between(0.1, 0.6), t);
    }
  }
}

export const massWalletCreationPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  const count =
    variant === "10-12-wallets"
      ? rng.int(10, 12)
      : variant === "13-25-wallets"
        ? rng.int(13, 25)
        : rng.int(26, 40);
  const token = tokenOf(rng);
  const amount = rng.logNormal(150, 1);
  const spreadFraction = rng.between(0, 0.22);
  const span = logUniform(rng, 10 * 60, 23.5 * HOUR);
  const m = funder(ctx, rng, id, start, amount * count * 1.2, token);
  const wallets = Array.from({ length: count }, (_, i) => ctx.world.account(`${id}.wallet${i}`));
  const times = wallets.map((_, i) =>
    i === 0 ? start : i === count - 1 ? start + span : start + rng.between(0, span),
  );
  times.sort((a, b) => a - b);
  // Amounts anywhere within ±22% of a median that is exactly `amount` (the middle ones are `amount` itself), so
  // that every amount lies within 25% of the set's median whatever the draw; then in a random order.
  const half = Math.floor(count / 2);
  const amounts = rng.shuffle(
    Array.from({ length: count }, (_, i) => {
      if (count % 2 === 0 ? i === half - 1 || i === half : i === half) return amount;
      return amount * (i < half ? 1 - spreadFraction * rng.next() : 1 + spreadFraction * rng.next());
    }),
  );
  fundNewWallets(ctx.world, m.account, wallets, token, { usd: (i) => amounts[i]!, at: (i) => times[i]! });
  afterwards(ctx, rng, id, wallets, token, amount, start + span);
  everyday(ctx, rng, m, start);
  const subject = rng.chance(0.25) ? rng.pick(wallets) : m.account;
  record(ctx, {
    id,
    pattern: "mass_wallet_creation",
    positive: true,
    subject: subject.address,
    involved: [m.account.address, ...wallets.map((w) => w.address)],
    variant,
    note:
      `${count} new wallets in ${(span / HOUR).toFixed(1)} h, ~${Math.round(amount)} USD ±${Math.round(spreadFraction * 100)}% in ${token}` +
      (subject === m.account ? "" : "; subject a new wallet"),
  });
};

export const massWalletCreationNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const { world, pop, services } = ctx;
  const variant = variantOf(NEAR_MISSES, index);
  const token = tokenOf(rng);
  const amount = rng.logNormal(150, 1);
  let subject: Account;
  let member: Member | undefined;
  let note: string = variant;
  const fund = (
    from: Account,
    names: string,
    n: number,
    at: (i: number) => number,
    usd: (i: number) => number,
  ) => {
    const out: Account[] = [];
    for (let i = 0; i < n; i++) {
      const w = world.account(`${id}.${names}${i}`);
      world.sendUsd(from, w, token, usd(i), at(i));
      out.push(w);
    }
    return out;
  };
  if (variant === "exchange" || variant === "faucet" || variant === "payroll-contract") {
    subject =
      variant === "exchange"
        ? rng.pick(services.exchanges).hot
        : variant === "faucet"
          ? services.faucet
          : world.contract(`${id}.payroll`);
    if (variant === "payroll-contract")
      world.sendUsd(rng.pick(pop.employers), subject, "USDV", 200_000, start - DAY);
    const n = rng.int(12, 30);
    const span = logUniform(rng, HOUR, 20 * HOUR);
    const wallets = fund(
      subject,
      variant === "payroll-contract" ? "employee" : "customer",
      n,
      (i) => start + (span * i) / n,
      () => amount * rng.between(0.9, 1.1),
    );
    afterwards(ctx, rng, id, wallets, token, amount, start + span);
    note = `${variant}: ${n} new wallets in ${(span / HOUR).toFixed(1)} h`;
  } else {
    member = funder(ctx, rng, id, start, amount * 20, token);
    subject = member.account;
    if (variant === "too-few") {
      const n = rng.int(6, 9);
      const span = logUniform(rng, HOUR, 20 * HOUR);
      fund(
        subject,
        "wallet",
        n,
        (i) => start + (span * i) / n,
        () => amount * rng.between(0.9, 1.1),
      );
      note = `${n} new wallets in ${(span / HOUR).toFixed(1)} h`;
    } else if (variant === "too-slow") {
      const n = rng.int(11, 14);
      const gap = rng.between(3.2, 5) * HOUR;
      fund(
        subject,
        "wallet",
        n,
        (i) => start + gap * i,
        () => amount * rng.between(0.9, 1.1),
      );
      note = `${n} new wallets ${(gap / HOUR).toFixed(1)} h apart`;
    } else if (variant === "uneven-amounts") {
      // Amounts 35% apart from each other: at most two lie within 25% of any median.
      const n = rng.int(12, 16);
      const base = amount / 4;
      const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
      const span = logUniform(rng, HOUR, 20 * HOUR);
      fund(
        subject,
        "wallet",
        n,
        (i) => start + (span * i) / n,
        (i) => base * 1.35 ** (order[i] ?? 0),
      );
      note = `${n} new wallets in ${(span / HOUR).toFixed(1)} h, amounts 35% apart`;
    } else {
      // Existing users (each had transfers before), similar amounts: a reimbursement run, not new wallets.
      const n = rng.int(12, 20);
      const span = logUniform(rng, HOUR, 20 * HOUR);
      let paid = 0;
      const seen = new Set<string>();
      for (let i = 0; i < n * 3 && paid < n; i++) {
        const at = start + (span * paid) / n;
        const u = pop.pickUser(rng, at - 2 * DAY, member.rank, "up");
        if (!u || seen.has(u.account.address)) continue;
        seen.add(u.account.address);
        world.sendUsd(subject, u.account, token, amount * rng.between(0.9, 1.1), at);
        paid++;
      }
      note = `${paid} existing users paid in ${(span / HOUR).toFixed(1)} h`;
    }
    everyday(ctx, rng, member, start);
  }
  record(ctx, {
    id,
    pattern: "mass_wallet_creation",
    positive: false,
    subject: subject.address,
    involved: [subject.address],
    variant,
    note,
  });
};
