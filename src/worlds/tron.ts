// The Tron devnet's demo world: what an AML service sees on Tron, where most of the traffic is USDT. Ordinary users
// paid and paying in USDT, exchanges whose per-customer deposit addresses are swept to their labelled hot wallets,
// a sanctioned address (labelled as the EVM devnet labels its own), an address Tether freezes after it cashed out
// the sanctioned address's funds, and the peel-chain, structuring and exchange-hopping patterns and the sanctions
// exposure at 1, 2 and 3 hops, made by the same generators as the EVM devnet's demo (src/worlds/index.ts) with the
// world's stablecoin, USDV, which the Tron rendering writes as USDT (render/chain-tokens.ts, render/devnet-plan.ts).
import { Rng } from "../platform/rng.ts";
import { backgroundTraffic } from "./background.ts";
import { exchangeHopping } from "./patterns/exchange-hopping.ts";
import { peelChain } from "./patterns/peel-chain.ts";
import { sanctionsExposure } from "./patterns/sanctions-exposure.ts";
import { structuring } from "./patterns/structuring.ts";
import { buildExchange, type Services } from "./services.ts";
import { DAY, HOUR, World } from "./world.ts";

/** An issuer freeze: Tether's owner calls addBlackList(address) at `at` (AddedBlackList is emitted). */
export interface Freeze {
  address: string;
  at: number;
}

export interface TronWorld {
  world: World;
  /** The freezes, in time order; a frozen address sends nothing after its freeze (Tether would refuse it). */
  freezes: Freeze[];
}

/** 2024-01-01T00:00:00Z, as the EVM devnet's scenario. */
const START = Date.UTC(2024, 0, 1) / 1000;

/** The token every transfer of the Tron world moves: the world's stablecoin, USDT on Tron. */
const STABLECOIN = "USDV" as const;

/** The Tron devnet's demo world (a fixed seed: the same addresses on every machine). */
export function tronDevnetWorld(seed = 728): TronWorld {
  const world = new World("vigia-tron-devnet");
  const rng = new Rng(seed);
  // Exchanges big on Tron; the mixer and the bridge of the EVM devnet have no part here, so they are not made
  // (every account a world makes with a label is written to the devnet's labels).
  const exchanges = ["Binance", "OKX", "HTX"].map((name) => buildExchange(world, name));
  const sanctioned = world.account("sanctioned.garantex", {
    label: "OFAC SDN: Garantex (Tron devnet)",
    category: "sanctioned",
  });
  const services: Pick<Services, "exchanges" | "sanctioned"> = { exchanges, sanctioned };

  backgroundTraffic(world, services, rng.fork(), {
    users: 25,
    transfers: 100,
    start: START,
    days: 60,
    namespace: "tron-user",
    tokens: [STABLECOIN],
  });
  peelChain(world, services, rng.fork(), "tron-peel_chain", START + 5 * DAY, STABLECOIN);
  structuring(world, rng.fork(), "tron-structuring", START + 11 * DAY);
  exchangeHopping(world, services, rng.fork(), "tron-exchange_hopping", START + 17 * DAY, STABLECOIN);
  sanctionsExposure(world, services, rng.fork(), "tron-sanctions", START + 10 * DAY, STABLECOIN);
  world.addCase({
    id: "tron-sanctioned",
    pattern: "sanctioned",
    positive: true,
    subject: sanctioned.address,
    involved: [sanctioned.address],
    note: "labelled sanctioned in the devnet's labels",
  });

  // A cash-out wallet of the sanctioned address: paid USD 18,000, it pays a user and an exchange deposit, and
  // Tether freezes it a day later with USD 9,500 still on it.
  const frozen = world.account("tron-frozen.cashout");
  const t = START + 24 * DAY;
  world.sendUsd(sanctioned, frozen, STABLECOIN, 18_000, t);
  world.sendUsd(frozen, world.account("tron-user3"), STABLECOIN, 2_500, t + 6 * HOUR);
  world.sendUsd(frozen, exchanges[1]!.depositFor("tron-frozen"), STABLECOIN, 6_000, t + DAY);
  const freezes: Freeze[] = [{ address: frozen.address, at: t + 2 * DAY }];
  world.addCase({
    id: "tron-frozen",
    pattern: "frozen",
    positive: true,
    subject: frozen.address,
    involved: [frozen.address, sanctioned.address],
    note: "USDT frozen by Tether (AddedBlackList) after a sanctioned address paid it",
  });
  return { world, freezes };
}
