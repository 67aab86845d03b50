// round_tripping (docs/risk-model.md): funds leaving an address return to it within 2 to 6 hops and 30 days, carrying at
// least 70% of the amount that left.
//
// Positives (rotating 2 to 6 hops): the loop returns 72-99% of what left (fees and skims spread over the legs),
// closing after 1 hour to 29 days (log-uniform), in ETH or USDV; intermediaries are fresh addresses or
// accomplices who otherwise live as ordinary users; the case's subject is the origin, or now and then a fresh
// intermediary (every wallet of the loop performs it).
// Near misses: a deposit to the own exchange and a withdrawal back (the exchange is the only intermediary); a loop
// of its own returning 35-62%; one closing after 32-60 days; one of 7 or 8 hops.
//
// Weaving rule: the origin's everyday amounts stay under USD 800, far below the 70% of a loop's amount a leg must
// carry, so ordinary life neither closes nor completes a loop.
import type { Rng } from "../../../src/platform/rng.ts";
import type { Account, TokenSymbol } from "../../../src/worlds/index.ts";
import { closeLoop, DAY, HOUR, unitsForUsd } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = ["2-hops", "3-hops", "4-hops", "5-hops", "6-hops"] as const;
const NEAR_MISSES = ["exchange-and-back", "low-return", "too-late", "too-long"] as const;

function origin(
  ctx: CaseContext,
  rng: Rng,
  id: string,
  start: number,
  usd: number,
  token: TokenSymbol,
): Member {
  return newMember(ctx.pop, rng, `${id}.origin`, start - rng.between(3, 60) * DAY, {
    usd: usd * rng.between(1.1, 2),
    token,
  });
}

function everyday(ctx: CaseContext, rng: Rng, m: Member, start: number) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: start + rng.between(20, 90) * DAY,
    count: rng.int(5, 30),
  });
}

/** Intermediaries: fresh addresses, or (with probability `users`) background users who become accomplices. */
function intermediaries(ctx: CaseContext, rng: Rng, id: string, n: number, at: number, users: number) {
  const out: Account[] = [];
  const involved: string[] = [];
  for (let i = 1; i <= n; i++) {
    const u = rng.chance(users) ? ctx.pop.pickUser(rng, at, Number.NEGATIVE_INFINITY, "up") : undefined;
    if (u && !out.includes(u.account)) {
      out.push(u.account);
      involved.push(u.account.address);
    } else out.push(ctx.world.account(`${id}.layer${i}`));
  }
  return { accounts: out, involved };
}

/**
 * Plays a loop origin -> a1 -> ... -> origin in token units: each leg passes on `keep[i]` of what it received;
 * the legs are spread over `duration` seconds. Returns the fraction that came back.
 */
function loop(
  ctx: CaseContext,
  rng: Rng,
  from: Account,
  via: Account[],
  token: TokenSymbol,
  usd: number,
  start: number,
  duration: number,
  keep: number[],
): number {
  const path = [from, ...via, from];
  const legs = path.length - 1;
  const first = unitsForUsd(token, usd, start);
  let amount = first;
  const times = [
    start,
    ...Array.from({ length: legs - 2 }, () => start + rng.between(0, duration)),
    start + duration,
  ]
    .slice(0, legs)
    .sort((a, b) => a - b);
  // The legs as the devnet plays them (src/worlds/patterns/round-tripping.ts).
  closeLoop(ctx.world, path, token, (i) => {
    if (i > 0) amount = (amount * BigInt(Math.round((keep[i - 1] ?? 1) * 1e6))) / 1_000_000n;
    return { at: times[i]! + (i === legs - 1 ? 0 : i), units: amount };
  });
  return Number((amount * 1_000_000n) / first) / 1e6;
}

/** Per-leg retention factors whose product is `overall`, each leg keeping a similar share. */
function retention(rng: Rng, legs: number, overall: number): number[] {
  if (legs <= 1) return [];
  const raw = Array.from({ length: legs - 1 }, () => rng.between(0.5, 1.5));
  const sum = raw.reduce((s, v) => s + v, 0);
  return raw.map((w) => overall ** (w / sum));
}

export const roundTrippingPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  const hops = Number(variant[0]);
  const token: TokenSymbol = rng.chance(0.6) ? "ETH" : "USDV";
  const usd = Math.min(300_000, rng.logNormal(15_000, 0.9) + 2_000);
  const returned = rng.between(0.72, 0.99);
  const duration = logUniform(rng, HOUR, 29 * DAY);
  const m = origin(ctx, rng, id, start, usd, token);
  const { accounts, involved } = intermediaries(ctx, rng, id, hops - 1, start, 0.3);
  const back = loop(
    ctx,
    rng,
    m.account,
    accounts,
    token,
    usd,
    start,
    duration,
    retention(rng, hops, returned),
  );
  everyday(ctx, rng, m, start);
  const fresh = accounts.filter((a) => !involved.includes(a.address));
  const subject = fresh.length > 0 && rng.chance(0.25) ? rng.pick(fresh) : m.account;
  record(
    ctx,
    {
      id,
      pattern: "round_tripping",
      positive: true,
      subject: subject.address,
      involved: [m.account.address, ...accounts.map((a) => a.address)],
      variant,
      note:
        `${hops}-hop loop in ${token}, ${(back * 100).toFixed(0)}% back after ${(duration / DAY).toFixed(2)} days` +
        (subject === m.account ? "" : "; subject an intermediary"),
    },
    involved,
  );
};

export const roundTrippingNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(NEAR_MISSES, index);
  const token: TokenSymbol = rng.chance(0.6) ? "ETH" : "USDV";
  const usd = Math.min(300_000, rng.logNormal(15_000, 0.9) + 2_000);
  const m = origin(ctx, rng, id, start, usd, token);
  let note = "";
  if (variant === "exchange-and-back") {
    const deposit = m.home.depositFor(m.account.name);
    const back = logUniform(rng, 2 * HOUR, 25 * DAY);
    ctx.world.sendUsd(m.account, deposit, token, usd, start);
    ctx.world.sendUsd(m.home.hot, m.account, token, usd * rng.between(0.9, 1), start + back);
    note = `deposit to ${m.home.name} and withdrawal back after ${(back / DAY).toFixed(1)} days`;
  } else {
    const hops = variant === "too-long" ? rng.int(7, 8) : rng.int(2, 4);
    const returned =
      variant === "low-return"
        ? rng.between(0.35, 0.62)
        : variant === "too-late"
          ? rng.between(0.8, 0.98)
          : 0.9;
    const duration =
      variant === "too-late"
        ? rng.between(32, 60) * DAY
        : logUniform(rng, 6 * HOUR, (variant === "too-long" ? 25 : 28) * DAY);
    const via = Array.from({ length: hops - 1 }, (_, i) => ctx.world.account(`${id}.layer${i + 1}`));
    // A low return loses most at one leg (the rest is kept by that intermediary); the others pass on 95-99%.
    const keep =
      variant === "low-return"
        ? (() => {
            const k = Array.from({ length: hops - 1 }, () => rng.between(0.95, 0.99));
            const rest = k.reduce((p, v) => p * v, 1);
            k[rng.int(0, hops - 2)] = Math.min(0.69, returned / rest);
            return k;
          })()
        : retention(rng, hops, returned);
    const back = loop(ctx, rng, m.account, via, token, usd, start, duration, keep);
    note = `${hops}-hop loop, ${(back * 100).toFixed(0)}% back after ${(duration / DAY).toFixed(1)} days`;
  }
  everyday(ctx, rng, m, start);
  record(ctx, {
    id,
    pattern: "round_tripping",
    positive: false,
    subject: m.account.address,
    involved: [m.account.address],
    variant,
    note,
  });
};
