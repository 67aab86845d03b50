// Exposure to a sanctioned address at 1, 2 and 3 hops: the risk level must fall as the distance grows. One
// generator for the devnet's demo and the eval's world (eval/world/cases/sanctions.ts, which gives the hop wallets
// ordinary lives around it): sanctioned -> hop1 -> hop2 -> hop3, 90 % of the funds onward within two days, 80 %
// within five, and a case per hop.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, DAY, type TokenSymbol, type World } from "../world.ts";

/** The chain from `sanctioned` through `hops` (three wallets, nearest first) carrying `usd`, and its three cases. */
export function sanctionsChain(
  world: World,
  rng: Rng,
  id: string,
  sanctioned: Account,
  hops: readonly [Account, Account, Account],
  usd: number,
  start: number,
  token: TokenSymbol = "ETH",
): void {
  const [hop1, hop2, hop3] = hops;
  world.sendUsd(sanctioned, hop1, token, usd, start);
  world.sendUsd(hop1, hop2, token, usd * 0.9, start + rng.between(0.2, 2) * DAY);
  world.sendUsd(hop2, hop3, token, usd * 0.8, start + rng.between(2.5, 5) * DAY);
  for (const [distance, account] of hops.entries()) {
    world.addCase({
      id: `${id}-d${distance + 1}`,
      pattern: "sanctions_exposure",
      positive: true,
      subject: account.address,
      involved: [account.address],
      variant: `${distance + 1}-hop${distance ? "s" : ""}`,
      note: `${distance + 1} hop${distance ? "s" : ""} from a sanctioned address`,
    });
  }
}

/** The devnet's instance: three fresh wallets and USD 5,000-40,000 (in ETH, or `token`) from the demo's sanctioned address. */
export function sanctionsExposure(
  world: World,
  services: Pick<Services, "sanctioned">,
  rng: Rng,
  id: string,
  start: number,
  token: TokenSymbol = "ETH",
): void {
  const hops = [1, 2, 3].map((h) => world.account(`${id}.hop${h}`)) as [Account, Account, Account];
  sanctionsChain(world, rng, id, services.sanctioned, hops, rng.between(5_000, 40_000), start, token);
}
