// Address histories on demand from a chain's explorer (Blockscout API v2, an Etherscan-compatible API or TronGrid), cached
// in the chain data store with the indexer's keys. The risk engine calls `ExplorerHistory.ensureHistory`.
export {
  DEFAULT_OPTIONS as DEFAULT_EXPLORER_OPTIONS,
  type ExplorerKind,
  type ExplorerOptions,
  type ExplorerSource,
  explorerSource,
} from "./config.ts";
export type { HistoryWindow } from "./coverage.ts";
export { ExplorerError, type ExplorerErrorKind } from "./errors.ts";
export { type ChainLookup, type EnsureHistoryResult, ExplorerHistory } from "./history.ts";
export { HostRateLimiters } from "./rate-limiter.ts";
