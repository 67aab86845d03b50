// wash_trading (docs/risk-model.md): two or more addresses send the same token back and forth at least 3 times each way
// within 7 days, amounts within 10% of each other, net flow under 10% of the gross.
//
// Positives (rotating cycle counts): 3, 4-5 or 6-8 transfers each way within 3 hours to 6.9 days (log-uniform),
// strictly alternating or in bursts, each amount within ±4% of a common size (so any two are within 10% of each
// other and the net flow stays under 10%), in TKN, USDV or ETH; both traders live ordinary lives, and now and then
// one ordinary payment between them in the same token (a very different amount) falls inside the window; the
// case's subject is either trader.
// Near misses: two round trips only; three or four each way but a leg only every 2.6-3.3 days (never three each
// way within 7 days); returns of 55-74% of what went out (amounts over 10% apart, net flow over 10%); a business
// paying invoices and receiving small refunds; one-way payments (a subscription).
//
// Weaving rule: the two traders' everyday lives never pay each other (ranks), besides the designed transfers.
import type { Rng } from "../../../src/platform/rng.ts";
import type { TokenSymbol } from "../../../src/worlds/index.ts";
import { DAY, HOUR, tradeBackAndForth, unitsForUsd } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = ["3-each-way", "4-5-each-way", "6-8-each-way"] as const;
const NEAR_MISSES = ["two-each-way", "spread-out", "uneven-returns", "invoices-refunds", "one-way"] as const;

const tokenOf = (rng: Rng): TokenSymbol => (rng.chance(0.45) ? "TKN" : rng.chance(0.7) ? "USDV" : "ETH");

function pair(ctx: CaseContext, rng: Rng, id: string, start: number, size: number, token: TokenSymbol) {
  const joined = () => start - rng.between(2, 60) * DAY;
  const a = newMember(ctx.pop, rng, `${id}.trader-a`, joined(), { usd: size * rng.between(1.2, 2), token });
  const b = newMember(ctx.pop, rng, `${id}.trader-b`, joined(), { usd: size * rng.between(1.2, 2), token });
  return { a, b };
}

function everyday(ctx: CaseContext, rng: Rng, m: Member, start: number) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: start + rng.between(15, 60) * DAY,
    count: rng.int(5, 25),
  });
}

export const washTradingPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  const rounds = variant === "3-each-way" ? 3 : variant === "4-5-each-way" ? rng.int(4, 5) : rng.int(6, 8);
  const token = tokenOf(rng);
  const size = Math.min(200_000, rng.logNormal(3_000, 1) + 100);
  const span = logUniform(rng, 3 * HOUR, 6.9 * DAY);
  const { a, b } = pair(ctx, rng, id, start, size, token);
  // Traders move token units: every leg is the same number of tokens, ±4%.
  const units = unitsForUsd(token, size, start);
  const jitter = () => (units * BigInt(Math.round(rng.between(0.96, 1.04) * 1e6))) / 1_000_000n;
  const bursts = rng.chance(0.3);
  const legs = 2 * rounds;
  // The legs as the devnet plays them (src/worlds/patterns/wash-trading.ts), evenly spread, alternating or in bursts.
  tradeBackAndForth(ctx.world, a.account, b.account, token, legs, (i) => ({
    fromA: bursts ? i < rounds : i % 2 === 0,
    at: start + (span * i) / (legs - 1),
    units: jitter(),
  }));
  const noise = rng.chance(0.3);
  if (noise)
    ctx.world.sendUsd(b.account, a.account, token, size * rng.between(0.2, 0.5), start + span / 2 + 7);
  everyday(ctx, rng, a, start);
  everyday(ctx, rng, b, start);
  const subject = rng.chance(0.5) ? a : b;
  record(ctx, {
    id,
    pattern: "wash_trading",
    positive: true,
    subject: subject.account.address,
    involved: [a.account.address, b.account.address],
    variant,
    note:
      `${rounds} each way of ~${Math.round(size)} USD in ${token} within ${(span / DAY).toFixed(2)} days` +
      `${bursts ? ", in bursts" : ""}${noise ? ", plus an ordinary payment between them" : ""}`,
  });
};

export const washTradingNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(NEAR_MISSES, index);
  const token = tokenOf(rng);
  const size = Math.min(200_000, rng.logNormal(3_000, 1) + 100);
  const { a, b } = pair(ctx, rng, id, start, size * 3, token);
  // Amounts in token units: `usd` is converted at the case's start, whatever the day of the transfer.
  const send = (fromA: boolean, usd: number, at: number) =>
    ctx.world.send(
      fromA ? a.account : b.account,
      fromA ? b.account : a.account,
      token,
      unitsForUsd(token, usd, start),
      at,
    );
  let note = "";
  if (variant === "two-each-way") {
    const span = logUniform(rng, 3 * HOUR, 6 * DAY);
    for (let i = 0; i < 4; i++) send(i % 2 === 0, size * rng.between(0.96, 1.04), start + (span * i) / 3);
    note = "two round trips";
  } else if (variant === "spread-out") {
    const n = rng.int(3, 4);
    const gap = rng.between(2.6, 3.3) * DAY;
    for (let i = 0; i < 2 * n; i++) send(i % 2 === 0, size * rng.between(0.96, 1.04), start + gap * i);
    note = `${n} each way, a leg every ${(gap / DAY).toFixed(1)} days`;
  } else if (variant === "uneven-returns") {
    const n = rng.int(3, 5);
    const span = logUniform(rng, 3 * HOUR, 6 * DAY);
    for (let i = 0; i < n; i++) {
      const out = size * rng.between(0.97, 1.03);
      send(true, out, start + (span * 2 * i) / (2 * n - 1));
      send(false, out * rng.between(0.55, 0.74), start + (span * (2 * i + 1)) / (2 * n - 1));
    }
    note = `${n} round trips returning 55-74%`;
  } else if (variant === "invoices-refunds") {
    const n = rng.int(3, 5);
    for (let i = 0; i < n; i++) {
      const invoice = size * rng.between(0.5, 1.5);
      send(true, invoice, start + i * DAY);
      send(false, invoice * rng.between(0.02, 0.15), start + i * DAY + rng.between(HOUR, 10 * HOUR));
    }
    note = `${n} invoices and small refunds`;
  } else {
    const n = rng.int(6, 8);
    for (let i = 0; i < n; i++)
      send(true, size * rng.between(0.98, 1.02), start + i * rng.between(HOUR, DAY));
    note = `${n} payments one way`;
  }
  everyday(ctx, rng, a, start);
  everyday(ctx, rng, b, start);
  record(ctx, {
    id,
    pattern: "wash_trading",
    positive: false,
    subject: (rng.chance(0.5) ? a : b).account.address,
    involved: [a.account.address, b.account.address],
    variant,
    note,
  });
};
