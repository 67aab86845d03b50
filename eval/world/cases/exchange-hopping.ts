// exchange_hopping (docs/risk-model.md): funds withdrawn from one exchange reach a different exchange within 72 hours,
// deposited by the address itself or through up to 3 of its own wallets, in a burst touching at least 2 exchanges
// with no step resting over 72 hours.
//
// Positives (rotating): 2, 3 and 4-5 exchanges, where the hopper deposits into the first exchange (or starts from a
// withdrawal: bought there), and each exchange's withdrawal goes into the next exchange's deposit address; every
// step rests 10 minutes to 70 hours (log-uniform) and carries 86-99.9% of the previous one (fees, a part kept);
// and hops through the user's own wallets between two exchanges: the withdrawal from the first passes through 1,
// 2 or 3 fresh wallets of the user (each fed by the previous one only, forwarding 93-99.9% within 5 minutes to 12
// hours) before the deposit into the second. With 1 or 2 the withdrawal goes to the user's everyday wallet, which
// pays the first fresh one; with 3 it goes straight into the first fresh wallet (a withdrawal to a new address).
// The address scanned is always the one that received the withdrawal. ETH or USDV; the user lives an ordinary life
// with its own exchange.
// Near misses: the second exchange after 74-130 hours' rest; in and out of one exchange twice within hours;
// deposits into two exchanges weeks apart; savings split between two exchanges on the same day, nothing withdrawn;
// a single deposit to one exchange; a withdrawal paid within hours to a merchant (a shop many pay) that deposits its
// takings into its own, other exchange hours later; or to a friend with a life of its own (history, other
// counterparties) who keeps part and deposits the rest into its own, other exchange.
//
// Weaving rule: everyday life uses the hopper's first exchange only, in amounts under USD 800 (far from the 80% of
// a hop's amount a deposit must carry), so ordinary life never adds a hop.
import type { Rng } from "../../../src/platform/rng.ts";
import {
  type Account,
  DAY,
  type Exchange,
  HOUR,
  hopExchanges,
  type TokenSymbol,
} from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = [
  "2-exchanges",
  "3-exchanges",
  "4-5-exchanges",
  "own-wallets-1",
  "own-wallets-2",
  "own-wallets-3",
] as const;
const NEAR_MISSES = [
  "rested",
  "same-exchange",
  "weeks-apart",
  "split-deposits",
  "single-deposit",
  "merchant-deposits",
  "friend-deposits",
] as const;

function hopper(
  ctx: CaseContext,
  rng: Rng,
  id: string,
  start: number,
  usd: number,
  token: TokenSymbol,
  home: Exchange,
) {
  const m = newMember(ctx.pop, rng, `${id}.hopper`, start - rng.between(8, 60) * DAY, {
    usd: usd * rng.between(1.1, 1.6),
    token,
    onboard: "employer",
  });
  m.home = home;
  return m;
}

function everyday(ctx: CaseContext, rng: Rng, m: Member, start: number) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: start + rng.between(15, 60) * DAY,
    count: rng.int(5, 25),
  });
}

/** A merchant (an address many users pay) whose exchange is not `not`. */
function merchantBanking(ctx: CaseContext, rng: Rng, not: Exchange): { account: Account; home: Exchange } {
  for (let tries = 0; tries < 1_000; tries++) {
    const account = ctx.pop.pickMerchant(rng);
    const home = ctx.pop.merchantHome.get(account.address);
    if (home && home !== not) return { account, home };
  }
  throw new Error("no merchant banks with another exchange (a world without users?)");
}

/** A deposit into `ex` (the hopper's own deposit address there), swept to its wallet within hours (World.send). */
function deposit(ctx: CaseContext, m: Member, ex: Exchange, token: TokenSymbol, usd: number, at: number) {
  const address = ex.depositFor(m.account.name);
  ctx.world.sendUsd(m.account, address, token, usd, at);
}

export const exchangeHoppingPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  if (variant.startsWith("own-wallets"))
    return ownWalletsPositive(ctx, rng, id, start, Number(variant.at(-1)));
  const count = variant === "2-exchanges" ? 2 : variant === "3-exchanges" ? 3 : rng.int(4, 5);
  const exchanges = rng.shuffle(ctx.services.exchanges).slice(0, count);
  const token: TokenSymbol = rng.chance(0.6) ? "ETH" : "USDV";
  const usd = Math.min(500_000, rng.logNormal(12_000, 0.9) + 1_500);
  const m = hopper(ctx, rng, id, start, usd, token, exchanges[0]!);
  const boughtThere = rng.chance(0.3);
  const rests: number[] = [];
  const rest = () => {
    const seconds = logUniform(rng, 10 * 60, 70 * HOUR);
    rests.push(seconds);
    return seconds;
  };
  // The hops as the devnet plays them (src/worlds/patterns/exchange-hopping.ts), across the definition's range.
  hopExchanges(ctx.world, {
    hopper: m.account,
    exchanges,
    customer: m.account.name,
    token,
    usd,
    start,
    startsWithWithdrawal: boughtThere,
    untilWithdrawal: rest,
    withdrawn: () => rng.between(0.86, 0.999),
    untilDeposit: rest,
    deposited: () => rng.between(0.97, 0.999),
  });
  everyday(ctx, rng, m, start);
  record(ctx, {
    id,
    pattern: "exchange_hopping",
    positive: true,
    subject: m.account.address,
    involved: [m.account.address],
    variant,
    note:
      `${exchanges.map((e) => e.name).join(" -> ")} in ${token}, longest rest ${(Math.max(...rests) / HOUR).toFixed(1)} h` +
      (boughtThere ? ", starting with a withdrawal" : ""),
  });
};

/**
 * A hop through the user's own wallets: exchange A pays the user, the funds pass through `own` fresh wallets of
 * the user (with 3, the first of them received the withdrawal), and the last one deposits into exchange B.
 */
function ownWalletsPositive(ctx: CaseContext, rng: Rng, id: string, start: number, own: number) {
  const variant = `own-wallets-${own}`;
  const [first, second] = rng.shuffle(ctx.services.exchanges) as [Exchange, Exchange];
  const token: TokenSymbol = rng.chance(0.6) ? "ETH" : "USDV";
  const usd = Math.min(500_000, rng.logNormal(12_000, 0.9) + 1_500);
  const m = hopper(ctx, rng, id, start, usd, token, first);
  const boughtThere = rng.chance(0.3);
  const fresh = Array.from({ length: own }, (_, k) => ctx.world.account(`${id}.own${k + 1}`));
  const wallets = own === 3 ? fresh : [m.account, ...fresh];
  const receiver = wallets[0]!;
  hopExchanges(ctx.world, {
    hopper: m.account,
    exchanges: [first, second],
    customer: m.account.name,
    token,
    usd,
    start,
    startsWithWithdrawal: boughtThere,
    untilWithdrawal: () => logUniform(rng, 10 * 60, 30 * HOUR),
    withdrawn: () => rng.between(0.9, 0.999),
    via: () => wallets,
    // The everyday wallet (or the first fresh one) passes the funds on within hours, and each fresh wallet
    // forwards nearly all it received within 24 hours: the own wallets of docs/risk-model.md.
    untilForward: () => logUniform(rng, 5 * 60, 12 * HOUR),
    forwarded: () => rng.between(0.93, 0.999),
    untilDeposit: () => logUniform(rng, 5 * 60, 12 * HOUR),
    deposited: () => rng.between(0.93, 0.999),
  });
  everyday(ctx, rng, m, start);
  record(ctx, {
    id,
    pattern: "exchange_hopping",
    positive: true,
    subject: receiver.address,
    involved: [...new Set([m.account.address, ...wallets.map((w) => w.address)])],
    variant,
    note:
      `${first.name} -> ${own} own wallet${own > 1 ? "s" : ""} -> ${second.name} in ${token}` +
      (receiver === m.account ? "" : ", the withdrawal into a fresh wallet") +
      (boughtThere ? ", starting with a withdrawal" : ""),
  });
}

export const exchangeHoppingNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(NEAR_MISSES, index);
  const [first, second] = rng.shuffle(ctx.services.exchanges) as [Exchange, Exchange];
  const token: TokenSymbol = rng.chance(0.6) ? "ETH" : "USDV";
  const usd = Math.min(500_000, rng.logNormal(12_000, 0.9) + 1_500);
  const m = hopper(ctx, rng, id, start, usd * 2, token, first);
  let note = "";
  if (variant === "rested") {
    deposit(ctx, m, first, token, usd, start);
    const out = start + logUniform(rng, HOUR, 48 * HOUR);
    ctx.world.sendUsd(first.hot, m.account, token, usd * 0.99, out);
    const rest = rng.between(74, 130) * HOUR;
    deposit(ctx, m, second, token, usd * 0.98, out + rest);
    note = `${first.name} then ${second.name} after ${(rest / HOUR).toFixed(0)} h`;
  } else if (variant === "same-exchange") {
    let t = start;
    for (let i = 0; i < 2; i++) {
      deposit(ctx, m, first, token, usd, t);
      t += logUniform(rng, HOUR, 20 * HOUR);
      ctx.world.sendUsd(first.hot, m.account, token, usd * 0.99, t);
      t += logUniform(rng, HOUR, 10 * HOUR);
    }
    note = `in and out of ${first.name} twice`;
  } else if (variant === "weeks-apart") {
    deposit(ctx, m, first, token, usd, start);
    const later = rng.between(14, 40) * DAY;
    deposit(ctx, m, second, token, usd * 0.7, start + later);
    note = `${first.name}, then ${second.name} ${(later / DAY).toFixed(0)} days later`;
  } else if (variant === "split-deposits") {
    deposit(ctx, m, first, token, usd * 0.5, start);
    deposit(ctx, m, second, token, usd * 0.5, start + logUniform(rng, 10 * 60, 20 * HOUR));
    note = `savings split between ${first.name} and ${second.name}`;
  } else if (variant === "merchant-deposits" || variant === "friend-deposits") {
    // Exchange A pays the user, who pays most of it on within hours to someone who deposits into exchange B
    // hours later: a merchant (many customers, its takings) or a friend with a life of its own (it keeps part).
    ctx.world.sendUsd(first.hot, m.account, token, usd, start);
    const paidAt = start + logUniform(rng, 10 * 60, 20 * HOUR);
    const paid = usd * rng.between(0.85, 0.99);
    const depositAt = paidAt + logUniform(rng, 30 * 60, 30 * HOUR);
    if (variant === "merchant-deposits") {
      const merchant = merchantBanking(ctx, rng, first);
      ctx.world.sendUsd(m.account, merchant.account, token, paid, paidAt);
      ctx.world.sendUsd(
        merchant.account,
        merchant.home.depositFor(merchant.account.name),
        token,
        paid * rng.between(1, 1.6),
        depositAt,
      );
      note = `${first.name}'s withdrawal paid to ${merchant.account.name}, which deposits into ${merchant.home.name}`;
    } else {
      const friend = newMember(ctx.pop, rng, `${id}.friend`, start - rng.between(20, 120) * DAY, {
        onboard: "employer",
        usd: rng.between(300, 700),
        token,
      });
      friend.home = second;
      friend.rank = Math.max(friend.rank, m.rank + 0.5); // payments between people go up
      ctx.world.sendUsd(m.account, friend.account, token, paid, paidAt);
      ctx.world.sendUsd(
        friend.account,
        second.depositFor(friend.account.name),
        token,
        paid * rng.between(0.6, 0.95),
        depositAt,
      );
      live(ctx.pop, rng, friend, {
        from: friend.joined + HOUR,
        to: start + rng.between(20, 60) * DAY,
        count: rng.int(8, 25),
      });
      note = `${first.name}'s withdrawal paid to a friend, who keeps part and deposits into ${second.name}`;
    }
  } else {
    deposit(ctx, m, first, token, usd, start);
    note = `one deposit to ${first.name}`;
  }
  everyday(ctx, rng, m, start);
  record(ctx, {
    id,
    pattern: "exchange_hopping",
    positive: false,
    subject: m.account.address,
    involved: [m.account.address],
    variant,
    note,
  });
};
