// Busy unlabelled neighbourhoods: a few unlabelled addresses with thousands of counterparties, as payment
// processors, payout services and popular contracts have on a real chain, among ordinary users' counterparties.
// Their degrees are heavy-tailed (the k-th busiest has about 1/k^1.2 of the busiest's counterparties, the busiest
// four per user of the world). Most counterparties are one-off addresses (a customer paying once, a payee paid
// once); the rest are the population's users, a few times each.
// The ground truth stays as it was: a crowd is a collector (everyone pays it; it sweeps its takings to its own
// exchange weekly) or a distributor (its exchange funds it weekly; it pays everyone), never both, so it closes no
// loop and trades nothing back and forth; it has no dealings with the risky side; everyday amounts (USD 1-600,
// log-normal) are far from any reporting threshold.
import type { Rng } from "../../src/platform/rng.ts";
import { type Account, DAY, type TokenSymbol, type World } from "../../src/worlds/index.ts";
import type { BenchmarkServices, Member } from "./population.ts";

export interface Crowd {
  account: Account;
  kind: "collector" | "distributor";
  /** distinct counterparties it was given (one-off addresses and users) */
  counterparties: number;
}

export interface CrowdOptions {
  count: number;
  /** counterparties of the busiest */
  busiest: number;
  /** share of a crowd's transfers that are with the population's users */
  userShare: number;
  start: number;
  end: number;
}

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export function buildCrowds(
  world: World,
  services: BenchmarkServices,
  rng: Rng,
  users: readonly Member[],
  opts: CrowdOptions,
): Crowd[] {
  if (users.length === 0) return [];
  const crowds: Crowd[] = [];
  for (let i = 0; i < opts.count; i++) {
    const kind = i % 2 === 0 ? "collector" : "distributor";
    const account = world.account(`crowd${i}`);
    const degree = Math.max(10, Math.round(opts.busiest / (i + 1) ** 1.2));
    const exchange = services.exchanges[
      (i + 2) % services.exchanges.length
    ] as (typeof services.exchanges)[0];
    const counterparties = new Set<string>();
    const weekly = new Map<number, number>();
    for (let n = 0; n < degree; n++) {
      const user = rng.chance(opts.userShare) ? rng.pick(users) : undefined;
      const other =
        user?.account ?? world.account(`crowd${i}.${kind === "collector" ? "payer" : "payee"}${n}`);
      const from = Math.max(opts.start, (user?.joined ?? opts.start) + DAY);
      if (from >= opts.end) continue;
      const at = Math.floor(rng.between(from, opts.end));
      const token: TokenSymbol = rng.chance(0.7) ? "USDV" : "ETH";
      const usd = clamp(rng.logNormal(user ? user.scale : 40, 1), 1, 600);
      if (kind === "collector") world.sendUsd(other, account, token, usd, at);
      else world.sendUsd(account, other, token, usd, at);
      counterparties.add(other.address);
      const week = Math.floor((at - opts.start) / (7 * DAY));
      weekly.set(week, (weekly.get(week) ?? 0) + usd);
    }
    // Its own exchange: the week's takings swept there, or the next week's payouts bought there beforehand.
    for (const [week, usd] of weekly) {
      const at =
        opts.start + (week + (kind === "collector" ? 1 : 0)) * 7 * DAY + Math.floor(rng.between(0, DAY));
      if (kind === "collector")
        world.sendUsd(account, exchange.depositFor(account.name), "USDV", usd * 0.97, at);
      else world.sendUsd(exchange.hot, account, "USDV", usd * 1.05, at - DAY);
    }
    crowds.push({ account, kind, counterparties: counterparties.size });
  }
  return crowds;
}
