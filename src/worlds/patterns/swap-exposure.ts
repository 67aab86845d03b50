// Exposure through a swap: a sanctioned address swaps ETH for the stablecoin through a DEX pool with a client as
// the swap's recipient, so the client's only link to it is the pool's token transfer in a transaction the
// sanctioned address sent (docs/risk-model.md, Conversions). The devnet plays it on its DemoSwap pool
// (contracts/DemoSwap.sol), so that `npm start` shows a conversion; the client was onboarded by its exchange
// before and pays a merchant after, as anyone does.
import type { Rng } from "../../platform/rng.ts";
import type { Services } from "../services.ts";
import { type Account, DAY, HOUR, type World } from "../world.ts";

/** The devnet's DEX: one pool that is its own router (DemoSwap), unlabelled as most pools are. */
export function demoDex(world: World): { router: Account; pool: Account } {
  const pool = world.contract("dex.demo-pool", {
    label: "DemoSwap: ETH/USDV pool (devnet)",
    category: "defi",
  });
  return { router: pool, pool };
}

export function swapExposure(
  world: World,
  services: Pick<Services, "sanctioned" | "exchanges">,
  rng: Rng,
  id: string,
  start: number,
): void {
  const client = world.account(`${id}.client`);
  const exchange = services.exchanges[0];
  if (!exchange) throw new Error("the world has no exchange");
  world.sendUsd(exchange.hot, client, "USDV", rng.between(200, 900), start - 5 * DAY);
  world.swapUsd(
    services.sanctioned,
    client,
    demoDex(world),
    "ETH",
    "USDV",
    rng.between(8_000, 25_000),
    start,
  );
  world.sendUsd(client, world.account(`${id}.merchant`), "USDV", rng.between(50, 300), start + 2 * HOUR);
  world.addCase({
    id,
    pattern: "sanctions_exposure",
    positive: true,
    subject: client.address,
    involved: [client.address],
    variant: "1-hop-swap",
    note: "paid by a sanctioned address's swap",
  });
}
