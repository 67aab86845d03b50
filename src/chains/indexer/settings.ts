// How the indexer follows one chain: its settings, resolved from the chain's configuration and the defaults.
//
// Confirmations default to 0 on the local devnet (anvil mines on demand, and a demo should show a transfer at
// once) and to 12 elsewhere: deep enough that reorgs on the supported networks almost never reach indexed blocks
// (Ethereum finalises in ~2 epochs, but 12 blocks has been the usual exchange threshold; Polygon PoS reorgs are
// usually shallower than that). A reorg deeper than the confirmations is still detected and unwound.
import { type ChainConfig, DEVNET_CHAIN_ID } from "../registry.ts";

export interface IndexerSettings {
  chainId: number;
  chainName: string;
  rpcUrl: string;
  /** First block read when the chain has no checkpoint yet. */
  startBlock: bigint;
  /** Blocks to stay behind the head. */
  confirmations: bigint;
  /** How often the head is polled once caught up. */
  pollIntervalMs: number;
  /** Upper bound of blocks per batch. */
  maxBatchBlocks: number;
  /** The batch size adapts so that a batch holds about this many transactions. */
  targetBatchTransactions: number;
  /** How often a follower without the chain's lock tries to take it over. */
  lockRetryMs: number;
  /**
   * Deepest reorg unwound without asking; null: no limit. A node whose chain parts from the index deeper than
   * this is far more likely misconfigured (another network, a fresh or broken node) than reorganised, and
   * unwinding would delete the index: the follower refuses and keeps warning instead.
   */
  maxReorgDepth: bigint | null;
}

export type IndexerTuning = Partial<
  Pick<
    IndexerSettings,
    "pollIntervalMs" | "maxBatchBlocks" | "targetBatchTransactions" | "lockRetryMs" | "maxReorgDepth"
  >
>;

export const DEFAULT_CONFIRMATIONS = 12;
export const DEFAULT_MAX_REORG_DEPTH = 1000n;

/** The chains the indexer follows: enabled ones with an RPC URL. */
export function indexedChains(chains: ChainConfig[]): ChainConfig[] {
  return chains.filter((c) => c.enabled && typeof c.rpc_url === "string" && c.rpc_url.length > 0);
}

export function settingsFor(chain: ChainConfig, tuning: IndexerTuning = {}): IndexerSettings {
  if (!chain.rpc_url) throw new Error(`chain ${chain.id} has no rpc_url`);
  const devnet = chain.id === DEVNET_CHAIN_ID;
  const confirmations = chain.confirmations ?? (devnet ? 0 : DEFAULT_CONFIRMATIONS);
  return {
    chainId: chain.id,
    chainName: chain.name,
    rpcUrl: chain.rpc_url,
    startBlock: BigInt(chain.start_block ?? 0),
    confirmations: BigInt(confirmations),
    pollIntervalMs: tuning.pollIntervalMs ?? (devnet ? 500 : 3000),
    maxBatchBlocks: tuning.maxBatchBlocks ?? 100,
    targetBatchTransactions: tuning.targetBatchTransactions ?? 3000,
    lockRetryMs: tuning.lockRetryMs ?? 5000,
    // The devnet is thrown away and started afresh all the time: its index follows whatever runs there.
    maxReorgDepth:
      tuning.maxReorgDepth !== undefined ? tuning.maxReorgDepth : devnet ? null : DEFAULT_MAX_REORG_DEPTH,
  };
}
