// Cases where the value changes form or is spread over an owner's wallets, and their legitimate look-alikes
// (docs/eval.md, "Across conversions and wallets"):
//  - peel_chain positives whose value is swapped to the stablecoin through the DEX at hop 1 or 2 and goes on in
//    it: the swap's recipient is the next hop ("to-next") or the hop itself, which then sends the stablecoin on
//    ("to-self");
//  - structuring positives spread over 3-7 transfers, 2.5-6.5 days and 3-5 fresh wallets the owner funds (at most
//    two transfers each), each 86-99.5% of a threshold; the subject is the owner;
//  - conversion_exposure positives: a sanctioned address swaps ETH for the stablecoin with the client as the swap's
//    recipient ("swap-sender"), or sends ETH to an intermediary that swaps with the client as recipient
//    ("swap-intermediary"); expected high or critical. A negative: a client who swapped through the same pool in
//    its own transaction minutes after the sanctioned address ("same-pool"), expected at most low;
//  - look-alikes (case pattern "lookalike": negatives for every pattern, expected at most low): an employer's
//    staff paid fresh wallets who live on their salary ("payroll-staff"), airdrop recipients who sell the token on
//    the DEX ("airdrop"), DEX traders who swap back and forth for months ("dex-trader").
// The DEX pools are unlabelled, as most pools are, and half the swaps go through one the export does not list as a
// contract; the router is the benchmark's labelled one.
import type { Rng } from "../../../src/platform/rng.ts";
import { type Account, DAY, HOUR, type TokenSymbol, unitsForUsd } from "../../../src/worlds/index.ts";
import { type CaseContext, type CaseGenerator, record } from "../context.ts";
import { live, logUniform, type Member, newMember } from "../population.ts";

const THRESHOLDS = [1_000, 3_000, 10_000] as const;

/**
 * The DEX: the benchmark's labelled router and one of two unlabelled pools, one the export lists as a contract and
 * one it does not (an export without the pool's creation: only its busyness and the swap's shape tell).
 */
function dex(ctx: CaseContext, rng: Rng, listedOnly = false) {
  const pool =
    listedOnly || rng.chance(0.5)
      ? ctx.world.contract("dex.pool.eth-usdv")
      : ctx.world.account("dex.pool.eth-usdv-unlisted");
  return { router: ctx.services.dex, pool };
}

/** `payer` swaps `usd` of ETH for USDV through the router and a pool, paid to `recipient`. */
function swapEthForUsdv(
  ctx: CaseContext,
  rng: Rng,
  payer: Account,
  recipient: Account,
  usd: number,
  at: number,
): void {
  ctx.world.swapUsd(payer, recipient, dex(ctx, rng), "ETH", "USDV", usd, at);
}

/** A client of an exchange with an ordinary life before and after `at`. */
function client(ctx: CaseContext, rng: Rng, name: string, at: number): Member {
  const m = newMember(ctx.pop, rng, name, at - rng.between(10, 60) * DAY);
  live(ctx.pop, rng, m, { from: m.joined + HOUR, to: at + rng.between(10, 40) * DAY, count: rng.int(4, 14) });
  return m;
}

export const swappedPeelChain: CaseGenerator = (ctx, rng, id, start, index) => {
  const swapAt = index % 2 === 0 ? 1 : 2;
  const form = Math.floor(index / 2) % 2 === 0 ? "to-next" : "to-self";
  const hops = rng.int(4, 6);
  const forwarders = Array.from({ length: hops }, (_, i) => ctx.world.account(`${id}.hop${i + 1}`));
  const source = rng.pick(ctx.services.exchanges).hot;
  let usd = rng.between(8_000, 60_000);
  let token: TokenSymbol = "ETH";
  let at = start;
  ctx.world.sendUsd(source, forwarders[0] as Account, token, usd, at);
  for (let i = 0; i < hops; i++) {
    const hop = forwarders[i] as Account;
    const next = forwarders[i + 1] ?? ctx.world.account(`${id}.end`);
    at += logUniform(rng, 10 * 60, 3 * DAY);
    const peel = usd * rng.between(0.01, 0.18);
    const peelTo = rng.chance(0.5)
      ? rng.pick(ctx.services.exchanges).depositFor(`${id}.peel${i}`)
      : ctx.world.account(`${id}.peel${i}`);
    ctx.world.sendUsd(hop, peelTo, token, peel, at);
    const forward = (usd - peel) * rng.between(0.995, 0.999);
    if (i + 1 === swapAt && form === "to-next") {
      swapEthForUsdv(ctx, rng, hop, next, forward, at + 60);
      usd = forward * 0.997;
    } else if (i + 1 === swapAt) {
      swapEthForUsdv(ctx, rng, hop, hop, forward, at + 60);
      usd = forward * 0.997 * rng.between(0.995, 0.999);
      at += rng.between(120, 3_600); // the next hop acts only after this arrives
      ctx.world.sendUsd(hop, next, "USDV", usd, at);
    } else {
      ctx.world.sendUsd(hop, next, token, forward, at + 60);
      usd = forward;
    }
    if (i + 1 === swapAt) token = "USDV";
  }
  record(ctx, {
    id,
    pattern: "peel_chain",
    positive: true,
    subject: (forwarders[0] as Account).address,
    involved: forwarders.map((f) => f.address),
    variant: `swap-hop-${swapAt}-${form}`,
    note: `peel chain of ${hops} hops, swapped ETH to USDV through the DEX at hop ${swapAt} (${form})`,
  });
};

export const ownerStructuring: CaseGenerator = (ctx, rng, id, start, index) => {
  const threshold = THRESHOLDS[index % THRESHOLDS.length] as number;
  const transfers = rng.int(3, 7);
  const wallets = Math.min(transfers, rng.int(Math.max(3, Math.ceil(transfers / 2)), 5));
  const span = rng.between(2.5, 6.5) * DAY;
  const owner = newMember(ctx.pop, rng, `${id}.owner`, start - rng.between(15, 60) * DAY, {
    usd: threshold * transfers * 1.3,
    token: "USDV",
  });
  live(ctx.pop, rng, owner, {
    from: owner.joined + HOUR,
    to: start - DAY,
    count: rng.int(2, 8),
    tokens: ["USDV"],
  });
  const toOneBeneficiary = rng.chance(0.5);
  const beneficiary = ctx.world.account(`${id}.beneficiary`);
  const exchange = rng.pick(ctx.services.exchanges);
  // Transfer k is sent by wallet k mod wallets: at most two per wallet.
  const times = Array.from({ length: transfers }, (_, k) => start + (span * k) / (transfers - 1));
  const plan = times.map((at, k) => ({ wallet: k % wallets, at, usd: threshold * rng.between(0.86, 0.995) }));
  for (let w = 0; w < wallets; w++) {
    const own = plan.filter((p) => p.wallet === w);
    const wallet = ctx.world.account(`${id}.wallet${w}`);
    const need = own.reduce((s, p) => s + p.usd, 0) * rng.between(1.005, 1.15);
    ctx.world.sendUsd(
      owner.account,
      wallet,
      "USDV",
      need,
      (own[0]?.at ?? start) - rng.between(HOUR, 12 * HOUR),
    );
    for (const [k, p] of own.entries()) {
      const to = toOneBeneficiary ? beneficiary : exchange.depositFor(`${id}.w${w}.${k}`);
      ctx.world.sendUsd(wallet, to, "USDV", p.usd, p.at);
    }
  }
  record(ctx, {
    id,
    pattern: "structuring",
    positive: true,
    subject: owner.account.address,
    involved: [owner.account.address],
    variant: "owner-wallets",
    note: `${transfers} transfers of 86-99.5% of USD ${threshold} from ${wallets} fresh wallets of one owner over ${(span / DAY).toFixed(1)} days`,
  });
};

export const conversionExposure: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = (["swap-sender", "swap-intermediary", "same-pool"] as const)[index % 3] as string;
  const sanctioned = ctx.services.sanctioned;
  const usd = rng.between(5_000, 40_000);
  const c = client(ctx, rng, `${id}.client`, start);
  if (variant === "swap-sender") swapEthForUsdv(ctx, rng, sanctioned, c.account, usd, start);
  else if (variant === "swap-intermediary") {
    const intermediary = ctx.world.account(`${id}.intermediary`);
    ctx.world.sendUsd(sanctioned, intermediary, "ETH", usd, start);
    swapEthForUsdv(
      ctx,
      rng,
      intermediary,
      c.account,
      usd * rng.between(0.97, 0.995),
      start + rng.between(HOUR, DAY),
    );
  } else {
    // The sanctioned address swaps for itself; the client swaps its own ETH through the same pool minutes later.
    const pool = dex(ctx, rng);
    ctx.world.swapUsd(sanctioned, sanctioned, pool, "ETH", "USDV", usd, start);
    ctx.world.sendUsd(c.home.hot, c.account, "ETH", rng.between(300, 3_000), start - DAY);
    const own = rng.between(200, 2_000);
    ctx.world.swapUsd(c.account, c.account, pool, "ETH", "USDV", own, start + rng.between(60, 1_800));
  }
  record(ctx, {
    id,
    pattern: "conversion_exposure",
    positive: variant !== "same-pool",
    subject: c.account.address,
    involved: [c.account.address],
    variant,
    note:
      variant === "swap-sender"
        ? "a sanctioned address swapped ETH for USDV with the client as the swap's recipient"
        : variant === "swap-intermediary"
          ? "a sanctioned address's ETH, swapped by an intermediary with the client as recipient"
          : "the client swapped through the pool the sanctioned address used, in its own transaction",
  });
};

/** Legitimate lives that look like the cases above: background users, negatives for every pattern. */
export const conversionLookalike: CaseGenerator = (ctx, rng, id, start, index) => {
  const variant = (["payroll-staff", "airdrop", "dex-trader"] as const)[index % 3] as string;
  let subject: Account;
  if (variant === "payroll-staff") {
    const employer = newMember(ctx.pop, rng, `${id}.employer`, start - 30 * DAY, {
      usd: 60_000,
      token: "USDV",
    });
    const staff = rng.int(4, 8);
    const members: Member[] = [];
    for (let i = 0; i < staff; i++) {
      const m = newMember(ctx.pop, rng, `${id}.staff${i}`, start, { onboard: "none" });
      // Salaries of USD 1,200-2,500 a month, below every threshold's band: a payroll of near-threshold amounts is
      // the per-address detector's business (its own near misses), not this look-alike's.
      for (let month = 0; month < 3; month++) {
        const salary = rng.between(1_200, 2_500);
        ctx.world.sendUsd(employer.account, m.account, "USDV", salary, start + month * 30 * DAY);
      }
      live(ctx.pop, rng, m, {
        from: start + HOUR,
        to: start + 85 * DAY,
        count: rng.int(8, 20),
        tokens: ["USDV"],
      });
      members.push(m);
    }
    subject = employer.account;
  } else if (variant === "airdrop") {
    const distributor = ctx.world.contract(`${id}.distributor`);
    ctx.world.sendUsd(ctx.services.exchanges[0]!.hot, distributor, "TKN", 200_000, start - DAY);
    const recipients = Array.from({ length: 12 }, (_, i) => ctx.world.account(`${id}.recipient${i}`));
    for (const [i, r] of recipients.entries()) {
      const at = start + i * 600;
      const amount = rng.between(300, 2_500);
      ctx.world.sendUsd(distributor, r, "TKN", amount, at);
      const sold = amount * rng.between(0.5, 1);
      ctx.world.transaction(
        [
          { from: r, to: ctx.services.dex, token: "TKN", amount: unitsForUsd("TKN", sold, at + DAY) },
          {
            from: ctx.services.dex,
            to: r,
            token: "USDV",
            amount: unitsForUsd("USDV", sold * 0.997, at + DAY),
          },
        ],
        at + DAY,
      );
      ctx.world.sendUsd(
        r,
        rng.pick(ctx.services.exchanges).depositFor(`${id}.r${i}`),
        "USDV",
        sold * 0.99,
        at + 2 * DAY,
      );
    }
    subject = recipients[0] as Account;
  } else {
    const trader = newMember(ctx.pop, rng, `${id}.trader`, start - 5 * DAY, {
      usd: rng.between(3_000, 20_000),
      token: "ETH",
    });
    for (let k = 0; k < rng.int(10, 30); k++) {
      const at = start + k * rng.between(1, 5) * DAY;
      const usd = rng.between(500, 9_000);
      if (k % 2 === 0) swapEthForUsdv(ctx, rng, trader.account, trader.account, usd, at);
      // A token-for-token swap has no native leg to tell its sender by: through a pool the store does not know as
      // one it is a trade with an unknown counterparty (docs/decisions/0049). The traders use the listed pool.
      else ctx.world.swapUsd(trader.account, trader.account, dex(ctx, rng, true), "USDV", "TKN", usd, at);
    }
    live(ctx.pop, rng, trader, { from: start, to: start + 60 * DAY, count: rng.int(4, 10) });
    subject = trader.account;
  }
  record(ctx, {
    id,
    pattern: "lookalike",
    positive: false,
    subject: subject.address,
    involved: [subject.address],
    variant,
    note: `a legitimate ${variant.replace("-", " ")} whose shape resembles a conversion or owner case`,
  });
};
