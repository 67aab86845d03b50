// peel_chain (docs/risk-model.md): a path of at least 3 hops in which each hop forwards at least 80% of what it received to
// a next address and peels the rest (at most 20%) to a different address; the forwarding addresses are fresh or
// used once; hops within 7 days of each other.
//
// Positives (rotating): 3-4, 5-7 and 8-10 hops; every hop peels its own share, 0.5% to 19.5%; between hops
// anything from 5 minutes to 6.8 days (log-uniform); peel first or forward first; ETH or USDV; peels land at
// exchange deposit addresses, merchants, background users or fresh addresses; the first funds come from the
// owner's exchange or wallet; the case's subject is any hop of the chain (all hops perform it). Some hop
// addresses are reused for everyday payments after their hop.
// Near misses: two hops only; a hop that peels 23-38% (no three qualifying hops in a row); a hop that waits
// 7.5-12 days (idem); forwarding addresses that are established wallets (received before, more than once);
// a labelled exchange's chain-like withdrawals beside an unlabelled payout wallet splitting evenly.
//
// Weaving rule: a chain address starts an everyday life only 8 days after its hop, and only with users and
// merchants (never fresh addresses), so ordinary life never adds a hop.
import type { Rng } from "../../../src/platform/rng.ts";
import type { Account, PeelHop, TokenSymbol } from "../../../src/worlds/index.ts";
import { DAY, HOUR, playPeelChain, unitsForUsd } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { COMMUNITIES, live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = ["3-4-hops", "5-7-hops", "8-10-hops"] as const;
const NEAR_MISSES = [
  "two-hops",
  "peel-too-large",
  "slow-hop",
  "established-forwarders",
  "exchange-payouts",
] as const;

const goodHop = (rng: Rng): PeelHop => ({
  peel: rng.between(0.005, 0.19),
  wait: logUniform(rng, 5 * 60, 6.8 * DAY),
});

/** Where a peel goes: an exchange deposit address, a merchant, a background user or a fresh address. */
function peelTarget(ctx: CaseContext, rng: Rng, id: string, i: number, at: number): Account {
  const roll = rng.next();
  if (roll < 0.4) return rng.pick(ctx.services.exchanges).depositFor(`${id}.peel${i}`);
  if (roll < 0.6) return ctx.pop.pickMerchant(rng);
  if (roll < 0.8) {
    const u = ctx.pop.pickUser(rng, at, Number.NEGATIVE_INFINITY, "up");
    if (u) return u.account;
  }
  return ctx.world.account(`${id}.peel${i}`);
}

/**
 * Plays a chain through the devnet's player (src/worlds/patterns/peel-chain.ts), in token units: each hop keeps up
 * to 0.4% back now and then (gas), peels first or forwards first, seconds to minutes apart. Returns the end time.
 */
function playChain(
  ctx: CaseContext,
  rng: Rng,
  id: string,
  source: Account,
  forwarders: Account[],
  end: Account,
  hops: PeelHop[],
  token: TokenSymbol,
  usd: number,
  start: number,
): number {
  const amount = unitsForUsd(token, usd, start);
  const chain = { source, forwarders, end, hops, token, amount, start };
  const last = playPeelChain(ctx.world, chain, (i, at) => ({
    kept: rng.between(0, 0.004),
    peelTo: peelTarget(ctx, rng, id, i, at),
    peelFirst: rng.chance(0.5),
    gap: rng.between(12, 900),
  }));
  return last + 900;
}

/**
 * The owner who starts the chain: funds come from its exchange (a withdrawal) or its own wallet, funded at least
 * 8 days before (so that the owner's own payment into the chain is not itself a hop).
 */
function owner(ctx: CaseContext, rng: Rng, id: string, start: number, usd: number, token: TokenSymbol) {
  if (rng.chance(0.4)) return { source: rng.pick(ctx.services.exchanges).hot, member: undefined };
  const joined = start - rng.between(8, 60) * DAY;
  const member = newMember(ctx.pop, rng, `${id}.owner`, joined, { usd: usd * 1.2, token });
  return { source: member.account, member };
}

function ownerLife(ctx: CaseContext, rng: Rng, member: Member | undefined, start: number) {
  if (!member) return;
  live(ctx.pop, rng, member, {
    from: member.joined + HOUR,
    to: start + rng.between(10, 80) * DAY,
    count: rng.int(5, 25),
  });
}

/** Some chain addresses pay merchants and users again, well after their hop. */
function laterLife(ctx: CaseContext, rng: Rng, hops: Account[], end: number) {
  for (const hop of hops) {
    if (!rng.chance(0.3)) continue;
    const m: Member = {
      account: hop,
      rank: rng.between(0, ctx.pop.users.length),
      joined: end,
      home: rng.pick(ctx.services.exchanges),
      scale: rng.between(20, 120),
      community: rng.int(0, COMMUNITIES - 1),
    };
    live(ctx.pop, rng, m, {
      from: end + 8 * DAY,
      to: end + rng.between(20, 60) * DAY,
      count: rng.int(1, 6),
      paidByUsers: null,
      exchange: false,
    });
  }
}

export const peelChainPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = variantOf(POSITIVES, index);
  const hops =
    variant === "3-4-hops" ? rng.int(3, 4) : variant === "5-7-hops" ? rng.int(5, 7) : rng.int(8, 10);
  const token: TokenSymbol = rng.chance(0.7) ? "ETH" : "USDV";
  const usd = Math.min(400_000, rng.logNormal(30_000, 0.8) + 3_000);
  const { source, member } = owner(ctx, rng, id, start, usd, token);
  const forwarders = Array.from({ length: hops }, (_, i) => ctx.world.account(`${id}.hop${i}`));
  const end = rng.chance(0.5)
    ? rng.pick(ctx.services.exchanges).depositFor(`${id}.cashout`)
    : ctx.world.account(`${id}.hop${hops}`);
  const shapes = forwarders.map(() => goodHop(rng));
  const ended = playChain(ctx, rng, id, source, forwarders, end, shapes, token, usd, start);
  ownerLife(ctx, rng, member, start);
  laterLife(ctx, rng, forwarders, ended);
  const subject = forwarders[rng.int(0, hops - 1)]!;
  const peels = shapes.map((s) => s.peel);
  record(ctx, {
    id,
    pattern: "peel_chain",
    positive: true,
    subject: subject.address,
    involved: forwarders.map((a) => a.address),
    variant,
    note:
      `${hops} hops in ${token}, peels ${(Math.min(...peels) * 100).toFixed(1)}-${(Math.max(...peels) * 100).toFixed(1)}%, ` +
      `longest wait ${(Math.max(...shapes.map((s) => s.wait)) / DAY).toFixed(2)} days`,
  });
};

export const peelChainNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const { world, pop, services } = ctx;
  const variant = variantOf(NEAR_MISSES, index);
  const token: TokenSymbol = rng.chance(0.7) ? "ETH" : "USDV";
  const usd = Math.min(400_000, rng.logNormal(30_000, 0.8) + 3_000);
  if (variant === "exchange-payouts") {
    // An unlabelled payout wallet splits a deposit evenly (no hop forwards 80%), and its exchange's hot wallet
    // withdraws in a chain-like way: neither is a peel chain.
    const payout = world.account(`${id}.payout`);
    const customer = newMember(pop, rng, `${id}.customer`, start - 20 * DAY, { usd: usd * 1.1, token });
    let t = start;
    world.sendUsd(customer.account, payout, token, usd, t);
    const parts = rng.int(3, 6);
    for (let i = 0; i < parts; i++) {
      t += logUniform(rng, HOUR, 2 * DAY);
      world.sendUsd(
        payout,
        world.account(`${id}.recipient${i}`),
        token,
        (usd / parts) * rng.between(0.9, 1),
        t,
      );
    }
    const ex = rng.pick(services.exchanges);
    for (let i = 0; i < 4; i++) {
      t += logUniform(rng, HOUR, DAY);
      world.sendUsd(ex.hot, world.account(`${id}.withdrawal${i}`), token, usd * 0.9 ** i * 0.3, t);
    }
    ownerLife(ctx, rng, customer, start);
    record(ctx, {
      id,
      pattern: "peel_chain",
      positive: false,
      subject: payout.address,
      involved: [payout.address],
      variant,
      note: `even split into ${parts} payouts; exchange withdrawals`,
    });
    return;
  }
  const hops = variant === "two-hops" ? 2 : rng.int(3, 4);
  const shapes = Array.from({ length: hops }, () => goodHop(rng));
  // The bad hop sits where it leaves no three good hops in a row (any position of 3 hops; the middle of 4).
  const bad = hops === 3 ? rng.int(0, 2) : rng.int(1, 2);
  let note = `${hops} hops`;
  let forwarders = Array.from({ length: hops }, (_, i) => world.account(`${id}.hop${i}`));
  const involvedUsers: string[] = [];
  if (variant === "peel-too-large") {
    shapes[bad] = { ...shapes[bad]!, peel: rng.between(0.23, 0.38) };
    note = `${hops} hops, hop ${bad + 1} peels ${(shapes[bad]!.peel * 100).toFixed(0)}%`;
  } else if (variant === "slow-hop") {
    shapes[bad] = { ...shapes[bad]!, wait: rng.between(7.5, 12) * DAY };
    note = `${hops} hops, hop ${bad + 1} waits ${(shapes[bad]!.wait / DAY).toFixed(1)} days`;
  } else if (variant === "established-forwarders") {
    // Wallets with a history: each received at least twice before its hop.
    const picked: Account[] = [];
    for (let i = 0; i < hops; i++) {
      const u = pop.pickUser(rng, start - 10 * DAY, Number.NEGATIVE_INFINITY, "up");
      const account = u && !picked.includes(u.account) ? u.account : world.account(`${id}.wallet${i}`);
      for (let k = 0; k < 2; k++) {
        world.sendUsd(
          rng.pick(pop.employers),
          account,
          "USDV",
          rng.between(200, 700),
          start - rng.between(2, 9) * DAY,
        );
      }
      picked.push(account);
      if (u && account === u.account) involvedUsers.push(account.address);
    }
    forwarders = picked;
    note = `${hops} hops through established wallets`;
  }
  const { source, member } = owner(ctx, rng, id, start, usd, token);
  const end = world.account(`${id}.end`);
  const ended = playChain(ctx, rng, id, source, forwarders, end, shapes, token, usd, start);
  ownerLife(ctx, rng, member, start);
  if (variant !== "established-forwarders") laterLife(ctx, rng, forwarders, ended);
  record(
    ctx,
    {
      id,
      pattern: "peel_chain",
      positive: false,
      subject: forwarders[0]!.address,
      involved: forwarders.map((a) => a.address),
      variant,
      note,
    },
    involvedUsers,
  );
};
