// Mass wallet creation (docs/risk-model.md): one address is the first funder of >= 10 fresh addresses within 24 hours,
// the amounts within 25% of their median.
// False friends: labelled exchanges, faucets and payroll contracts; too few wallets; very uneven amounts.
// fundNewWallets is the one generator of the pattern's transfers, shared by the devnet and the eval.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, DAY, HOUR, type TokenSymbol, type World } from "../world.ts";

/**
 * The pattern's core, for the devnet's demo and the eval's world (eval/world/cases/mass-wallet-creation.ts): the
 * funder is the first to pay each new wallet, in wallet order, `usd(i)` USD at `at(i)`.
 */
export function fundNewWallets(
  world: World,
  funder: Account,
  wallets: readonly Account[],
  token: TokenSymbol,
  each: { usd: (i: number) => number; at: (i: number) => number },
): void {
  for (const [i, w] of wallets.entries()) world.sendUsd(funder, w, token, each.usd(i), each.at(i));
}

/** The devnet's instance: 10-25 new wallets within a day, a third of them sweeping to a collector later. */
export function massWalletCreation(world: World, rng: Rng, id: string, start: number): void {
  const funder = world.account(`${id}.funder`);
  const count = rng.int(10, 25);
  const token = rng.pick(["ETH", "USDV"] as const);
  const median = rng.between(50, 2_000);
  const span = rng.between(HOUR, 23 * HOUR);
  world.sendUsd(world.account(`${id}.bank`), funder, token, median * count * 1.5, start - HOUR);
  const children = Array.from({ length: count }, (_, i) => world.account(`${id}.child${i}`));
  const involved = [funder.address, ...children.map((c) => c.address)];
  fundNewWallets(world, funder, children, token, {
    // +-10% of a common amount: any two differ by < 25% of the sample median (0.85-1.15 could exceed it).
    usd: () => median * rng.between(0.9, 1.1),
    at: (i) => start + (span * i) / count,
  });
  // Children later sweep back to a collector (tree -> funnel), as sybil farms do.
  const collector = world.account(`${id}.collector`);
  for (let i = 0; i < count; i += 3) {
    world.sendUsd(
      world.account(`${id}.child${i}`),
      collector,
      token,
      median * 0.5,
      start + 2 * DAY + i * HOUR,
    );
  }
  world.addCase({
    id,
    pattern: "mass_wallet_creation",
    positive: true,
    subject: funder.address,
    involved,
    note: `${count} fresh wallets in ${(span / HOUR).toFixed(1)} h`,
  });
}

export function massWalletCreationFalseFriend(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const variant = rng.int(0, 4);
  let subject = world.account(`${id}.funder`);
  if (variant === 0) {
    // A labelled exchange withdrawing to many new customers in a day.
    subject = rng.pick(services.exchanges).hot;
    for (let i = 0; i < 14; i++) {
      world.sendUsd(
        subject,
        world.account(`${id}.customer${i}`),
        "ETH",
        rng.between(200, 260),
        start + i * HOUR,
      );
    }
  } else if (variant === 1) {
    // Seven new wallets only.
    world.sendUsd(world.account(`${id}.bank`), subject, "USDV", 5_000, start - HOUR);
    for (let i = 0; i < 7; i++) {
      world.sendUsd(subject, world.account(`${id}.child${i}`), "USDV", 300, start + i * HOUR);
    }
  } else if (variant === 3) {
    // Just outside on the amounts: twelve new wallets within a day, half funded ~USD 100 and half ~USD 300
    // (every amount 50% from the median).
    world.sendUsd(world.account(`${id}.bank`), subject, "USDV", 5_000, start - HOUR);
    for (let i = 0; i < 12; i++) {
      const usd = (i % 2 === 0 ? 100 : 300) * rng.between(0.97, 1.03);
      world.sendUsd(subject, world.account(`${id}.wallet${i}`), "USDV", usd, start + i * 1.5 * HOUR);
    }
  } else if (variant === 4) {
    // Just outside on time: twelve new wallets with even amounts, one every four hours (never ten in 24 hours).
    world.sendUsd(world.account(`${id}.bank`), subject, "USDV", 5_000, start - HOUR);
    for (let i = 0; i < 12; i++) {
      world.sendUsd(
        subject,
        world.account(`${id}.wallet${i}`),
        "USDV",
        250 * rng.between(0.95, 1.05),
        start + i * 4 * HOUR,
      );
    }
  } else {
    // Twelve new wallets spread over two weeks with very uneven amounts (a business paying suppliers).
    world.sendUsd(world.account(`${id}.bank`), subject, "USDV", 90_000, start - HOUR);
    for (let i = 0; i < 12; i++) {
      world.sendUsd(
        subject,
        world.account(`${id}.supplier${i}`),
        "USDV",
        50 * 2 ** (i % 7),
        start + i * 1.3 * DAY,
      );
    }
  }
  world.addCase({
    id,
    pattern: "mass_wallet_creation",
    positive: false,
    subject: subject.address,
    involved: [subject.address],
    note:
      [
        "labelled exchange withdrawals",
        "only seven wallets",
        "uneven amounts over two weeks",
        "twelve wallets in a day at USD 100 and 300",
        "twelve wallets over 44 hours",
      ][variant] ?? "",
  });
}
