// exchange_hopping (docs/risk-model.md): funds pass through deposit or hot wallets of at least 2 distinct exchanges (label
// `exchange`) within 72 hours, without resting more than 72 hours at any step.
//
// Positives (rotating 2, 3 and 4-5 exchanges): the hopper deposits into the first exchange (or starts from a
// withdrawal: bought there), and each exchange's withdrawal goes into the next exchange's deposit address; every
// step rests 10 minutes to 70 hours (log-uniform) and carries 86-99.9% of the previous one (fees, a part kept);
// ETH or USDV; the hopper lives an ordinary life with its own exchange.
// Near misses: the second exchange after 74-130 hours' rest; in and out of one exchange twice within hours;
// deposits into two exchanges weeks apart; savings split between two exchanges on the same day, nothing withdrawn;
// a single deposit to one exchange.
//
// Weaving rule: everyday life uses the hopper's first exchange only, in amounts under USD 800 (far from the 80% of
// a hop's amount a deposit must carry), so ordinary life never adds a hop.
import type { Rng } from "../../../src/platform/rng.ts";
import { DAY, type Exchange, HOUR, hopExchanges, type TokenSymbol } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = ["2-exchanges", "3-exchanges", "4-5-exchanges"] as const;
const NEAR_MISSES = ["rested", "same-exchange", "weeks-apart", "split-deposits", "single-deposit"] as const;

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

/** A deposit into `ex` (the hopper's own deposit address there), swept to its wallet within hours (World.send). */
function deposit(ctx: CaseContext, m: Member, ex: Exchange, token: TokenSymbol, usd: number, at: number) {
  const address = ex.depositFor(m.account.name);
  ctx.world.sendUsd(m.account, address, token, usd, at);
}

export const exchangeHoppingPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
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
