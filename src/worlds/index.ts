// Scenario worlds and every rendering of them. A world is a deterministic list of planned transfers between
// addresses, with labels and the cases injected into it. The product's world is the devnet's demo (one instance of
// every pattern, with labelled services and ordinary users); the detection benchmark's world (many varied
// instances and their near misses, woven into a year of ordinary traffic) lives outside the product, in eval/world,
// and builds on what this door exports: World, the services and the pattern generators (patterns/). A world is
// rendered (render/) as:
//   - a TxGraph around one address, the graph the service's expansion would build (graph.ts), on which the eval
//     measures the risk core's detection in memory;
//   - rows in the chain data store, as an import would write them (store.ts);
//   - a devnet: blocks for anvil (devnet-plan.ts) and the labels and prices beside them (devnet-data.ts);
// on an EVM chain as it is, or on a Tron-kind chain (render/chain-tokens.ts: ETH as TRX, the stablecoin as USDT).
// The Tron devnet's own demo world is tron.ts. Bitcoin's worlds are coins and transactions instead of transfers
// (bitcoin-world.ts): the Bitcoin devnet's demo (bitcoin-demo.ts), written as a bitcoin-etl export
// (render/bitcoin-etl.ts) with its labels and prices (render/bitcoin-devnet-data.ts).

import { Rng } from "../platform/rng.ts";
import { backgroundTraffic } from "./background.ts";
import { exchangeHopping, exchangeHoppingFalseFriend } from "./patterns/exchange-hopping.ts";
import { massWalletCreation, massWalletCreationFalseFriend } from "./patterns/mass-wallet-creation.ts";
import { mixing, mixingFalseFriend } from "./patterns/mixing.ts";
import { peelChain, peelChainFalseFriend } from "./patterns/peel-chain.ts";
import { roundTripping, roundTrippingFalseFriend } from "./patterns/round-tripping.ts";
import { sanctionsExposure } from "./patterns/sanctions-exposure.ts";
import { structuring, structuringFalseFriend } from "./patterns/structuring.ts";
import { swapExposure } from "./patterns/swap-exposure.ts";
import { washTrading, washTradingFalseFriend } from "./patterns/wash-trading.ts";
import { buildServices, type Services } from "./services.ts";
import { DAY, World } from "./world.ts";

export { bitcoinDevnetWorld } from "./bitcoin-demo.ts";
export {
  BitcoinWorld,
  type BtcCoin,
  BtcExchange,
  type BtcOutput,
  BtcWallet,
  type BtcWorldTx,
  btcPriceOn,
  satsForUsd,
} from "./bitcoin-world.ts";
export { type ExchangeHops, hopExchanges } from "./patterns/exchange-hopping.ts";
export { fundNewWallets } from "./patterns/mass-wallet-creation.ts";
export { depositIntoPool, withdrawFromPool } from "./patterns/mixing.ts";
export { type PeelAct, type PeelChain, type PeelHop, playPeelChain } from "./patterns/peel-chain.ts";
export { closeLoop, type LoopLeg } from "./patterns/round-tripping.ts";
export { sanctionsChain } from "./patterns/sanctions-exposure.ts";
export { type SplitLeg, splitTransfers } from "./patterns/structuring.ts";
export { tradeBackAndForth, type WashLeg } from "./patterns/wash-trading.ts";
export { BITCOIN_DEVNET_LABEL_SOURCE, writeBitcoinDevnetData } from "./render/bitcoin-devnet-data.ts";
export { type BitcoinEtlSummary, writeBitcoinEtl } from "./render/bitcoin-etl.ts";
export {
  type AcrossLeg,
  acrossDeposit,
  acrossFill,
  type CctpLeg,
  cctpBurn,
  cctpMint,
  oftReceived,
  oftSent,
} from "./render/bridge-logs.ts";
export {
  type ChainToken,
  type ChainTokens,
  chainTokensOfKind,
  EVM_TOKENS,
  TRON_TOKENS,
  TRON_USDT_ADDRESS,
} from "./render/chain-tokens.ts";
export {
  DEMO_SWAP_RUNTIME,
  DEMO_SWAP_SOURCE_SHA256,
  DEMO_TOKEN_ABI,
  DEMO_TOKEN_BYTECODE,
  DEMO_TOKEN_SOURCE_SHA256,
} from "./render/contracts.generated.ts";
export { type DevnetDataSummary, dailyPrices, writeDevnetData } from "./render/devnet-data.ts";
export {
  balanceSlot,
  DEVNET_LABEL_SOURCE,
  type DevnetBlock,
  type DevnetPlan,
  type DevnetTx,
  FIRST_SCENARIO_BLOCK,
  planDevnet,
  planTronDevnet,
  TOKEN_CONTRACTS,
  TOTAL_SUPPLY_SLOT,
  TRON_DEVNET_LABEL_SOURCE,
  TRON_ISSUER,
  TRON_USDT_CONTRACT,
  tokenAddress,
} from "./render/devnet-plan.ts";
export { indexWorld, TOKEN_ADDRESSES, type WorldIndex, worldGraph } from "./render/graph.ts";
export { type WorldStoreSummary, writeWorldToStore } from "./render/store.ts";
export {
  DEMO_TETHER_ABI,
  DEMO_TETHER_BYTECODE,
  DEMO_TETHER_SOURCE_SHA256,
} from "./render/tether.generated.ts";
export { buildExchange, buildServices, type Exchange, type Services } from "./services.ts";
export { type Freeze, type TronWorld, tronDevnetWorld } from "./tron.ts";
export {
  type Account,
  type Case,
  DAY,
  HOUR,
  type PlannedTransfer,
  priceOn,
  TOKENS,
  type TokenSymbol,
  transactionsOf,
  unitsForUsd,
  World,
  type WorldEvent,
} from "./world.ts";

type Generator = (world: World, services: Services, rng: Rng, id: string, start: number) => void;

/** Each pattern's positive generator and false-friend generator. */
export const GENERATORS: Record<string, { positive: Generator; negative: Generator }> = {
  mixing: { positive: mixing, negative: mixingFalseFriend },
  peel_chain: { positive: peelChain, negative: peelChainFalseFriend },
  structuring: {
    positive: (w, _s, r, id, t) => structuring(w, r, id, t),
    negative: (w, _s, r, id, t) => structuringFalseFriend(w, r, id, t),
  },
  round_tripping: {
    positive: (w, _s, r, id, t) => roundTripping(w, r, id, t),
    negative: roundTrippingFalseFriend,
  },
  mass_wallet_creation: {
    positive: (w, _s, r, id, t) => massWalletCreation(w, r, id, t),
    negative: massWalletCreationFalseFriend,
  },
  wash_trading: {
    positive: (w, _s, r, id, t) => washTrading(w, r, id, t),
    negative: (w, _s, r, id, t) => washTradingFalseFriend(w, r, id, t),
  },
  exchange_hopping: { positive: exchangeHopping, negative: exchangeHoppingFalseFriend },
};

/** 2024-01-01T00:00:00Z: scenarios play in the past so that historical prices and windows make sense. */
export const SCENARIO_START = Date.UTC(2024, 0, 1) / 1000;

/** The devnet's demo: one instance of every pattern, sanctions exposure, labelled services, ordinary users. */
export function devnetWorld(seed = 31337): World {
  const world = new World("vigia-devnet");
  const rng = new Rng(seed);
  const services = buildServices(world);
  backgroundTraffic(world, services, rng.fork(), {
    users: 30,
    transfers: 120,
    start: SCENARIO_START,
    days: 60,
  });
  let start = SCENARIO_START + 5 * DAY;
  for (const [pattern, gen] of Object.entries(GENERATORS)) {
    gen.positive(world, services, rng.fork(), `demo-${pattern}`, start);
    start += 6 * DAY;
  }
  sanctionsExposure(world, services, rng.fork(), "demo-sanctions", SCENARIO_START + 10 * DAY);
  // A conversion: the sanctioned address pays a client through the DEX's pool (swap-exposure.ts).
  swapExposure(world, services, rng.fork(), "demo-swap-d1", SCENARIO_START + 14 * DAY);
  return world;
}
