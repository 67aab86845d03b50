// The EVM indexer: follows every enabled chain with an RPC URL into the chain data store (blocks, transfers,
// tokens, address facts), checkpointed per chain, reorg-safe, one follower per chain across processes.

export type { Checkpoint } from "../../ledger/index.ts";
export type { FollowerEvent, FollowerHooks, FollowerStatus } from "./follower.ts";
export { ChainFollower } from "./follower.ts";
export { indexStats } from "./index-stats.ts";
export {
  ADDED_BLACKLIST_TOPIC,
  type IssuerFreezeEvent,
  type IssuerFreezeSink,
  REMOVED_BLACKLIST_TOPIC,
  TRON_USDT,
} from "./issuer-freezes.ts";
export type { IndexerLog } from "./log.ts";
export { type IndexerSettings, type IndexerTuning, indexedChains, settingsFor } from "./settings.ts";
export { type Indexers, type StartIndexersOptions, startIndexers } from "./start.ts";
export { type TransferWatcher, unwindTo, writeBatch } from "./store.ts";
export { type ChainFollowingNeeds, wireChainFollowing } from "./wiring.ts";
