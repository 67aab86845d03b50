// mixing (docs/risk-model.md): funds of the analysed address reach or come from an address labelled `mixer` within the
// analysed depth (3 in the benchmark); also deposits of the fixed denominations of a known pool.
//
// Positives (rotating): direct deposits of a pool's denomination (0.1, 1 or 10 ETH, to the pool or the router);
// withdrawals received directly (the denomination less a relayer's fee); and both at 2 and 3 hops, through fresh
// intermediaries.
// Near misses: active in the same block as someone else's deposit; exact denominations (or odd amounts) deposited
// into an unlabelled staking contract (mixer-like, not a mixer); a mixer 4 hops away (beyond the depth); the
// right counterparty in the wrong order (paid a depositor after its deposit, or paid by a withdrawer before its
// withdrawal: no funds of the address can have reached or come from the pool); funds that only meet the mixer's
// through an exchange (pooled funds).
//
// Weaving rule: every wallet whose funds reach a mixer is paid by users only after its last transfer towards it,
// and every wallet that received a mixer's funds pays users only before that, so no background user is within
// reach of a mixer (their ground truth stays "no mixing").
import type { Rng } from "../../../src/platform/rng.ts";
import { DAY, depositIntoPool, HOUR, priceOn, withdrawFromPool } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record, variantOf } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const POSITIVES = [
  "deposit",
  "withdrawal",
  "deposit-2-hops",
  "withdrawal-2-hops",
  "deposit-3-hops",
  "withdrawal-3-hops",
] as const;
const NEAR_MISSES = [
  "same-block",
  "unlabelled-contract",
  "beyond-depth",
  "wrong-order",
  "via-exchange",
] as const;

const ethUsd = (wei: bigint, at: number) => (Number(wei / 10n ** 12n) / 1e6) * priceOn("ETH", at);

/** An everyday life around `anchor`, with the windows in which the wallet may pay and be paid by users. */
function life(
  ctx: CaseContext,
  rng: Rng,
  m: Member,
  anchor: number,
  windows: { payUsers?: [number, number] | null; paidByUsers?: [number, number] | null } = {},
) {
  live(ctx.pop, rng, m, {
    from: m.joined + HOUR,
    to: anchor + rng.between(20, 90) * DAY,
    count: rng.int(6, 30),
    ...windows,
  });
}

export const mixingPositive: CaseGenerator = (ctx, rng, id, start, index) => {
  const { world, pop, services } = ctx;
  const variant = variantOf(POSITIVES, index);
  const pool = rng.pick(services.pools);
  const count = rng.int(1, 4);
  const fee = (pool.denomination * BigInt(rng.int(5, 50))) / 10_000n; // a relayer's 0.05-0.5%
  const total = pool.denomination * BigInt(count);
  const joined = start - rng.between(2, 40) * DAY;
  const deposits = variant.startsWith("deposit");
  const user = newMember(pop, rng, `${id}.user`, joined, {
    usd: deposits ? ethUsd(total, joined) * rng.between(1.05, 1.6) : rng.between(100, 700),
    token: deposits ? "ETH" : "USDV",
  });
  const hops = variant.endsWith("3-hops") ? 3 : variant.endsWith("2-hops") ? 2 : 1;
  const target = () => (rng.chance(0.3) ? services.mixerRouter : pool.account);
  let windows: Parameters<typeof life>[4];
  if (deposits) {
    // user -> (intermediaries) -> pool: the intermediaries forward everything, the last one in denominations.
    const { lastOut } = depositIntoPool(world, {
      from: user.account,
      intermediaries: Array.from({ length: hops - 1 }, (_, h) => world.account(`${id}.mule${h + 1}`)),
      target,
      denomination: pool.denomination,
      count,
      start,
      hopWait: () => logUniform(rng, 10 * 60, 3 * DAY),
      depositWait: () => logUniform(rng, 60, 2 * DAY),
    });
    windows = { paidByUsers: [lastOut + 1, Number.POSITIVE_INFINITY] };
  } else {
    // pool -> (intermediaries) -> user, then the user cashes out at its exchange.
    const { firstIn, received, end } = withdrawFromPool(world, {
      pool: pool.account,
      intermediaries: Array.from({ length: hops - 1 }, (_, h) => world.account(`${id}.fresh${h + 1}`)),
      to: user.account,
      amount: pool.denomination - fee,
      count,
      start,
      withdrawalWait: () => logUniform(rng, 60, DAY),
      forwardPercent: () => rng.int(90, 99),
      hopWait: () => logUniform(rng, 10 * 60, 2 * DAY),
    });
    world.sendUsd(
      user.account,
      user.home.depositFor(user.account.name),
      "ETH",
      ethUsd(received, end) * 0.8,
      end,
    );
    windows = { payUsers: [Number.NEGATIVE_INFINITY, firstIn - 1] };
  }
  life(ctx, rng, user, start, windows);
  record(ctx, {
    id,
    pattern: "mixing",
    positive: true,
    subject: user.account.address,
    involved: [user.account.address],
    variant,
    note: `${variant}: ${count} x ${Number(pool.denomination) / 1e18} ETH pool`,
  });
};

export const mixingNearMiss: CaseGenerator = (ctx, rng, id, start, index) => {
  const { world, pop, services } = ctx;
  const variant = variantOf(NEAR_MISSES, index);
  const pool = rng.pick(services.pools);
  const joined = start - rng.between(2, 40) * DAY;
  const user = newMember(pop, rng, `${id}.user`, joined, {
    usd: rng.between(2_000, 40_000),
    token: "ETH",
  });
  let note: string = variant;
  if (variant === "same-block") {
    // Someone else deposits; the user pays a merchant in the very same second (same block).
    const depositor = newMember(pop, rng, `${id}.depositor`, joined, {
      usd: ethUsd(pool.denomination, joined) * 1.3,
      token: "ETH",
    });
    world.send(depositor.account, pool.account, "ETH", pool.denomination, start);
    world.sendUsd(user.account, pop.pickMerchant(rng), "ETH", rng.between(20, 700), start);
    life(ctx, rng, depositor, start, { paidByUsers: [start + 1, Number.POSITIVE_INFINITY] });
  } else if (variant === "unlabelled-contract") {
    // Deposits into a contract no label source names: exact 1 or 10 ETH (mixer-like), or odd amounts.
    const exact = rng.chance(0.6);
    const denomination = rng.chance(0.5) ? 10n ** 18n : 10n ** 19n;
    let t = start;
    for (let i = rng.int(1, 3); i > 0; i--) {
      const value = exact ? denomination : (denomination * BigInt(rng.int(13, 87))) / 100n;
      world.send(user.account, services.staking, "ETH", value, t);
      t += logUniform(rng, 60, 2 * DAY);
    }
    note = `${exact ? "exact" : "odd"} deposits to an unlabelled staking contract`;
  } else if (variant === "beyond-depth") {
    // Four hops: user -> a -> b -> c -> pool, or pool -> c -> b -> a -> user.
    const outgoing = rng.chance(0.5);
    const chain = [1, 2, 3].map((h) => world.account(`${id}.hop${h}`));
    let t = start;
    const amount = pool.denomination + 10n ** 15n;
    const path = outgoing
      ? [user.account, ...chain, pool.account]
      : [pool.account, ...[...chain].reverse(), user.account];
    for (let h = 0; h + 1 < path.length; h++) {
      const value = h + 2 === path.length && outgoing ? pool.denomination : amount - BigInt(h) * 10n ** 14n;
      world.send(path[h]!, path[h + 1]!, "ETH", value, t);
      t += logUniform(rng, 10 * 60, 2 * DAY);
    }
    note = `a mixer 4 hops away (${outgoing ? "outgoing" : "incoming"})`;
  } else if (variant === "wrong-order") {
    // A counterparty that used the pool, but the money between them moved the other way in time.
    const outgoing = rng.chance(0.5);
    const friend = newMember(pop, rng, `${id}.friend`, joined, {
      usd: ethUsd(pool.denomination, joined) * 1.4,
      token: "ETH",
    });
    const gap = logUniform(rng, 10 * 60, 5 * DAY);
    if (outgoing) {
      // The friend deposits first; the user pays the friend afterwards.
      world.send(friend.account, pool.account, "ETH", pool.denomination, start);
      world.sendUsd(user.account, friend.account, "ETH", rng.between(100, 3_000), start + gap);
      life(ctx, rng, friend, start, { paidByUsers: [start + 1, Number.POSITIVE_INFINITY] });
    } else {
      // The friend pays the user first, and only later withdraws from the pool.
      world.sendUsd(friend.account, user.account, "ETH", rng.between(100, 3_000), start);
      world.send(pool.account, friend.account, "ETH", pool.denomination, start + gap);
      life(ctx, rng, friend, start, { payUsers: [Number.NEGATIVE_INFINITY, start + gap - 1] });
    }
    note = `paid ${outgoing ? "a depositor after" : "by a withdrawer before"} its use of the pool`;
  } else {
    // The mixer's funds and the user's only meet inside an exchange (pooled): deposit, and someone else's
    // withdrawal goes on to the pool; or a withdrawer deposits, and the user withdraws days later.
    const outgoing = rng.chance(0.5);
    const ex = user.home;
    const other = world.account(`${id}.other`);
    const otherDeposit = ex.depositFor(other.name);
    const userDeposit = ex.depositFor(user.account.name);
    const t = start;
    if (outgoing) {
      world.sendUsd(user.account, userDeposit, "ETH", ethUsd(pool.denomination, t) * 1.02, t);
      world.send(ex.hot, other, "ETH", pool.denomination + 10n ** 15n, t + rng.between(2 * HOUR, 2 * DAY));
      world.send(other, pool.account, "ETH", pool.denomination, t + 3 * DAY);
    } else {
      world.send(pool.account, other, "ETH", pool.denomination, t);
      world.send(other, otherDeposit, "ETH", pool.denomination, t + HOUR);
      world.sendUsd(
        ex.hot,
        user.account,
        "ETH",
        ethUsd(pool.denomination, t) * 0.98,
        t + rng.between(1, 3) * DAY,
      );
    }
    note = `${outgoing ? "deposit" : "withdrawal"} at an exchange the mixer's funds also passed through`;
  }
  life(ctx, rng, user, start);
  record(ctx, {
    id,
    pattern: "mixing",
    positive: false,
    subject: user.account.address,
    involved: [user.account.address],
    variant,
    note,
  });
};
