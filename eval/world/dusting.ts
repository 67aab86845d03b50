// Dusting: ordinary users sent a few dollars, unsolicited, by a sanctioned address or a mixer (USD 0.5-5 a
// transfer, at most USD 10 from each), as address-poisoning and "dusting attacks" do to anyone on a real chain.
// The users are plain users of the population far from the risky side otherwise (more than 3 hops along funds,
// dust aside) and from the cases (no transfer with a case's wallet), with ordinary funds of thousands of USD: a
// withdrawal from their own exchange. Half are dusted after their last payment; the other half in the middle of
// their life, and go on paying from a balance that holds the dust (as real bystanders do: a payment from it is
// the user's own money, not the dust passed on). Each is a "dusted" case: a negative whose level the eval holds
// to low or below (eval/scoring/false-alerts.ts), not a pattern case.
import type { Rng } from "../../src/platform/rng.ts";
import { type Account, DAY, HOUR, priceOn, TOKENS, type TokenSymbol } from "../../src/worlds/index.ts";
import { type CaseContext, record, variantOf } from "./context.ts";
import type { Member } from "./population.ts";

/** Dust: USD per transfer, and at most this much from one risky source. */
export const DUST_USD = { min: 0.5, max: 5, perSource: 10 } as const;

const VARIANTS = ["sanctioned", "mixer", "both"] as const;

/** USD of a planned transfer at that day's price. */
export function usdValue(token: TokenSymbol, amount: bigint, at: number): number {
  const decimals = TOKENS[token].decimals;
  const scaled = Number(amount / 10n ** BigInt(Math.max(0, decimals - 6))) / 10 ** Math.min(6, decimals);
  return scaled * priceOn(token, at);
}

/**
 * Dusts `count` of the `candidates` (plain users) after their last payment and before `end`; returns the users
 * dusted. Every dusted user is recorded as a case (pattern "dusted") and marked involved (never sampled as
 * background).
 */
export function dustUsers(
  ctx: CaseContext,
  rng: Rng,
  candidates: readonly Member[],
  count: number,
  end: number,
): Member[] {
  const { world, services } = ctx;
  const lastPayment = new Map<string, number>();
  for (const t of world.transfers) lastPayment.set(t.from, Math.max(lastPayment.get(t.from) ?? 0, t.at));
  const eligible = candidates.filter((u) => {
    const last = lastPayment.get(u.account.address);
    return last !== undefined && last > u.joined + 2 * DAY && last < end - 3 * DAY;
  });
  const users = rng.shuffle(eligible).slice(0, count);
  const mixers: Account[] = [...services.pools.map((p) => p.account), services.mixerRouter];
  for (const [i, u] of users.entries()) {
    const variant = variantOf(VARIANTS, i);
    const last = lastPayment.get(u.account.address) as number;
    // Dusted after its last payment (never spent), or in the middle of its life, paying on afterwards.
    const living = i % 2 === 1;
    // Thousands of USD of its own, withdrawn from its exchange before the dust (days before the last payment; for
    // one dusted mid-life, weeks before it).
    const funds = rng.between(2_000, 15_000);
    const fundsAt = Math.max(
      u.joined + HOUR,
      last - Math.floor(living ? rng.between(20 * DAY, 60 * DAY) : rng.between(HOUR, 10 * DAY)),
    );
    world.sendUsd(u.home.hot, u.account, "USDV", funds, fundsAt);
    const dustFrom = living ? fundsAt + HOUR : last + HOUR;
    const dustTo = living ? last - DAY : Math.min(last + 20 * DAY, end - HOUR);
    const sources: { from: Account; token: TokenSymbol }[] = [];
    if (variant !== "mixer")
      sources.push({ from: services.sanctioned, token: rng.chance(0.5) ? "ETH" : "USDV" });
    if (variant !== "sanctioned") sources.push({ from: rng.pick(mixers), token: "ETH" });
    let dust = 0;
    for (const source of sources) {
      // One or two transfers, under DUST_USD.perSource together.
      const transfers = rng.int(1, 2);
      for (let k = 0; k < transfers; k++) {
        const usd = rng.between(DUST_USD.min, DUST_USD.max - 0.01);
        world.sendUsd(source.from, u.account, source.token, usd, Math.floor(rng.between(dustFrom, dustTo)));
        dust += usd;
      }
    }
    record(
      ctx,
      {
        id: `dusted-${i}`,
        pattern: "dusted",
        positive: false,
        subject: u.account.address,
        involved: [u.account.address],
        variant,
        note: `USD ${dust.toFixed(2)} of dust from ${sources.map((s) => (s.from === services.sanctioned ? "the sanctioned address" : "a mixer")).join(" and ")}, USD ${Math.round(funds)} of its own${living ? ", paying on from a balance that holds it" : ""}`,
      },
      [u.account.address],
    );
  }
  return users;
}
