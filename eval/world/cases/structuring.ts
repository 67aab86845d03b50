// structuring (docs/risk-model.md): at least 3 transfers sent or received by one address within 7 days, each between 85%
// and 100% (exclusive) of a reporting threshold (USD 1,000, 3,000, 10,000), summing to more than the threshold.
//
// Positives (rotating thresholds and directions): 3 to 8 transfers at 85.5-99.5% of the threshold, over 30 minutes
// to 6.9 days (log-uniform); sent to fresh payees, to background users or into the sender's own exchange deposit
// address, or received from fresh smurfs or background users; in USDV, ETH or TKN (mixed within a case; USD at the
// day's price); beside the wallet's everyday payments.
// Near misses: two in-band transfers only (the others well below); every transfer at 72-83% (just below the band);
// at 100-108% (at or just over the threshold); in the band but too slow (no three within 7 days); monthly salaries
// well below any threshold; one large transfer above a threshold.
//
// Weaving rule: the wallet's everyday transfers stay under USD 800 (population.ts), so they never add an
// in-band transfer; users it pays have a higher rank, users who pay it a lower one.
import type { Rng } from "../../../src/platform/rng.ts";
import type { Account, TokenSymbol } from "../../../src/worlds/index.ts";
import { DAY, HOUR, splitTransfers } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const THRESHOLDS = [1_000, 3_000, 10_000] as const;
const POSITIVES = [
  "sent-1000",
  "received-3000",
  "sent-10000",
  "received-1000",
  "sent-3000",
  "received-10000",
] as const;
const NEAR_MISSES = [
  "two-in-band",
  "below-band",
  "at-or-above-threshold",
  "too-slow",
  "salaries",
  "one-large",
] as const;

const token = (rng: Rng): TokenSymbol => (rng.chance(0.6) ? "USDV" : rng.chance(0.75) ? "ETH" : "TKN");

/** A counterparty of one structured transfer, ranked so that person-to-person flows keep going up. */
function counterparty(
  ctx: CaseContext,
  rng: Rng,
  m: Member,
  id: string,
  i: number,
  sent: boolean,
  at: number,
  involved: string[],
): Account {
  const roll = rng.next();
  if (sent && roll < 0.3) return m.home.depositFor(m.account.name);
  if (roll < 0.65) {
    const u = ctx.pop.pickUser(rng, at, m.rank, sent ? "up" : "down");
    if (u) {
      involved.push(u.account.address);
      return u.account;
    }
  }
  const fresh = ctx.world.account(`${id}.${sent ? "payee" : "smurf"}${i}`);
  // A smurf has money before it pays: a withdrawal from an exchange, days earlier.
  if (!sent)
    ctx.world.sendUsd(
      rng.pick(ctx.services.exchanges).hot,
      fresh,
      "USDV",
      12_000,
      at - rng.between(1, 5) * DAY,
    );
  return fresh;
}

/** Plays `amounts` (USD) at `times`, sent by or received by the member. */
function play(
  ctx: CaseContext,
  rng: Rng,
  m: Member,
  id: string,
  sent: boolean,
  amounts: number[],
  times: number[],
  involved: string[],
) {
  // The transfers as the devnet plays them (src/worlds/patterns/structuring.ts).
  splitTransfers(ctx.world, m.account, sent, amounts.length, (i) => {
    const at = times[i]!;
    const other = counterparty(ctx, rng, m, id, i, sent, at, involved);
    return { counterparty: other, token: token(rng), usd: amounts[i]!, at };
  });
}

/** `count` times spread over `span` seconds from `start`, in order, the first at `start` and the last at the end. */
function spread(rng: Rng, start: number, span: number, count: number): number[] {
  const inner = Array.from({ length: Math.max(0, count - 2) }, () => start + rng.between(0, span)).sort(
    (a, b) => a - b,
  );
  return count === 1 ? [start] : [start, ...inner, start + span];
}

function subject(ctx: CaseContext, rng: Rng, id: string, start: number, funds: number): Member {
  // Sending subjects have the money beforehand (from their exchange, in one transfer well over any band).
  return newMember(ctx.pop, rng, `${id}.subject`, start - rng.between(2, 40) * DAY, {
    usd: Math.max(funds, rng.between(200, 700)),
    token: "USDV",
  });
}

function everyday(ctx: CaseContext, rng: Rng, m: Member, start: number) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: start + rng.between(15, 60) * DAY,
    count: rng.int(5, 30),
  });
}

export const structuringPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  const sent = variant.startsWith("sent");
  const threshold = Number(variant.split("-")[1]);
  const count = rng.int(3, 8);
  const span = logUniform(rng, 30 * 60, 6.9 * DAY);
  const amounts = Array.from({ length: count }, () => threshold * rng.between(0.855, 0.995));
  const total = amounts.reduce((s, v) => s + v, 0);
  const m = subject(ctx, rng, id, start, sent ? total * rng.between(1.2, 3) : 0);
  const involved: string[] = [];
  play(ctx, rng, m, id, sent, amounts, spread(rng, start, span, count), involved);
  everyday(ctx, rng, m, start);
  record(
    ctx,
    {
      id,
      pattern: "structuring",
      positive: true,
      subject: m.account.address,
      involved: [m.account.address],
      variant,
      note: `${count} x ${Math.round(Math.min(...amounts))}-${Math.round(Math.max(...amounts))} USD ${sent ? "sent" : "received"} in ${(span / DAY).toFixed(2)} days (threshold ${threshold})`,
    },
    involved,
  );
};

export const structuringNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(NEAR_MISSES, index);
  const threshold = THRESHOLDS[index % THRESHOLDS.length] as number;
  const sent = rng.chance(0.6);
  const involved: string[] = [];
  let amounts: number[] = [];
  let times: number[] = [];
  let note: string = variant;
  if (variant === "two-in-band") {
    const others = rng.int(1, 3);
    amounts = [
      threshold * rng.between(0.86, 0.99),
      threshold * rng.between(0.86, 0.99),
      ...Array.from({ length: others }, () => threshold * rng.between(0.4, 0.75)),
    ];
    times = spread(rng, start, logUniform(rng, HOUR, 6 * DAY), amounts.length);
    note = `2 in-band and ${others} at 40-75% of ${threshold} within days`;
  } else if (variant === "below-band") {
    amounts = Array.from({ length: rng.int(3, 6) }, () => threshold * rng.between(0.72, 0.83));
    times = spread(rng, start, logUniform(rng, HOUR, 6 * DAY), amounts.length);
    note = `${amounts.length} transfers at 72-83% of ${threshold}`;
  } else if (variant === "at-or-above-threshold") {
    amounts = Array.from({ length: rng.int(3, 5) }, () =>
      rng.chance(0.3) ? threshold : threshold * rng.between(1.0, 1.08),
    );
    times = spread(rng, start, logUniform(rng, HOUR, 6 * DAY), amounts.length);
    note = `${amounts.length} transfers at 100-108% of ${threshold}`;
  } else if (variant === "too-slow") {
    // In the band, but any three of them span more than 7 days (gaps of 3.6-5 days).
    const n = rng.int(3, 4);
    let t = start;
    for (let i = 0; i < n; i++) {
      amounts.push(threshold * rng.between(0.86, 0.99));
      times.push(t);
      t += rng.between(3.6, 5) * DAY;
    }
    note = `${n} in-band transfers of ${threshold}, 3.6-5 days apart`;
  }
  if (variant === "salaries" || variant === "one-large") {
    // An employer: salaries between the USD 1,000 and 3,000 bands, monthly; or one large payment and small change.
    const employer = subject(ctx, rng, id, start, 60_000);
    if (variant === "salaries") {
      const staff = rng.int(3, 8);
      for (let e = 0; e < staff; e++) {
        const u = ctx.pop.pickUser(rng, start, employer.rank, "up");
        const to = u?.account ?? ctx.world.account(`${id}.employee${e}`);
        const salary = rng.between(1_050, 2_500);
        for (let month = 0; month < 4; month++)
          ctx.world.sendUsd(employer.account, to, "USDV", salary, start + month * 30 * DAY + e * 60);
      }
      note = `${staff} monthly salaries of USD 1,050-2,500`;
    } else {
      const big = rng.between(10_500, 60_000);
      const u = ctx.pop.pickUser(rng, start, employer.rank, "up");
      ctx.world.sendUsd(
        employer.account,
        u?.account ?? ctx.world.account(`${id}.supplier`),
        "USDV",
        big,
        start,
      );
      ctx.world.sendUsd(
        employer.account,
        ctx.pop.pickMerchant(rng),
        "USDV",
        rng.between(20, 300),
        start + HOUR,
      );
      note = `one transfer of USD ${Math.round(big)}`;
    }
    everyday(ctx, rng, employer, start);
    record(ctx, {
      id,
      pattern: "structuring",
      positive: false,
      subject: employer.account.address,
      involved: [employer.account.address],
      variant,
      note,
    });
    return;
  }
  const total = amounts.reduce((s, v) => s + v, 0);
  const m = subject(ctx, rng, id, start, sent ? total * rng.between(1.2, 3) : 0);
  play(ctx, rng, m, id, sent, amounts, times, involved);
  everyday(ctx, rng, m, start);
  record(
    ctx,
    {
      id,
      pattern: "structuring",
      positive: false,
      subject: m.account.address,
      involved: [m.account.address],
      variant,
      note: `${sent ? "sent" : "received"}: ${note}`,
    },
    involved,
  );
};
