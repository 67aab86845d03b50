// The chains feature: registry, market data and network statistics.

export { presentAddressesPerChain } from "./address-edges.ts";
export { ChainStatsService, type OwnStats } from "./chain-stats.ts";
export { recordChainTokens } from "./chain-tokens.ts";
export { ExplorerHistory, type ExplorerOptions } from "./explorer/index.ts";
export {
  BRIDGE_ABI,
  BRIDGE_PROTOCOL_NAMES,
  type BridgeProtocol,
  decodeBridgeLegs,
  type TxTransfer,
} from "./indexer/bridge-events.ts";
export {
  BITCOIN_CHAIN_IDS,
  BITCOIN_DEVNET_CHAIN_ID,
  BITCOIN_LABEL_CHAINS,
  BUILT_IN_CHAINS,
  type ChainConfig,
  ChainRegistry,
  DEVNET_CHAIN_ID,
  isDevnetChain,
  loadChainRegistry,
  TRON_DEVNET_CHAIN_ID,
  TRON_MAINNET_ID,
} from "./registry.ts";
export { registerChainRoutes } from "./routes.ts";
export { type ChainsNeeds, wireChains } from "./wiring.ts";
