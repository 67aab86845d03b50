// Exposure to a sanctioned address at 1, 2 and 3 hops: the risk level must fall as the distance grows.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { DAY, type World } from "../world.ts";

export function sanctionsExposure(
  world: World,
  services: Services,
  rng: Rng,
  id: string,
  start: number,
): void {
  const hop1 = world.account(`${id}.hop1`);
  const hop2 = world.account(`${id}.hop2`);
  const hop3 = world.account(`${id}.hop3`);
  const usd = rng.between(5_000, 40_000);
  world.sendUsd(services.sanctioned, hop1, "ETH", usd, start);
  world.sendUsd(hop1, hop2, "ETH", usd * 0.9, start + rng.between(0.2, 2) * DAY);
  world.sendUsd(hop2, hop3, "ETH", usd * 0.8, start + rng.between(2.5, 5) * DAY);
  for (const [distance, account] of [hop1, hop2, hop3].entries()) {
    world.addCase({
      id: `${id}-d${distance + 1}`,
      pattern: "sanctions_exposure",
      positive: true,
      subject: account.address,
      involved: [account.address],
      note: `${distance + 1} hop${distance ? "s" : ""} from a sanctioned address`,
    });
  }
}
