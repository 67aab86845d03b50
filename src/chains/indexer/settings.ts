// How the indexer follows one chain: its settings, resolved from the chain's configuration and the defaults.
//
// Confirmations default to 0 on the local devnet (anvil mines on demand, and a demo should show a transfer at
// once) and to 12 elsewhere: deep enough that reorgs on the supported networks almost never reach indexed blocks
// (Ethereum finalises in ~2 epochs, but 12 blocks has been the usual exchange threshold; Polygon PoS reorgs are
// usually shallower than that). A reorg deeper than the confirmations is still detected and unwound.
// Tron-kind chains default to 19: a Tron block is solidified (irreversible) once 19 of the 27 super representatives
// built on it (docs/decisions/0033-tron.md), and their node's /jsonrpc keeps eth_getLogs within 5000 blocks.
// Bitcoin chains default to 6.
import { type ChainKind, codecOfKind } from "../address/index.ts";
import { type ChainConfig, isDevnetChain, TRON_MAINNET_ID } from "../registry.ts";
import { TRON_USDT } from "./issuer-freezes.ts";

export interface IndexerSettings {
  chainId: number;
  chainName: string;
  /** What the node answers to eth_chainId: the chain config's `node_chain_id`, else its id. */
  nodeChainId: bigint;
  /** What the node speaks: "tron" reads transfers the way Tron's /jsonrpc writes them (tron-values.ts). */
  kind: ChainKind;
  rpcUrl: string;
  /**
   * Tron: the node's HTTP API root (…/wallet/… is appended), asked for the contract type of the transactions whose
   * JSON-RPC `value` may not be TRX. Null on other chains.
   */
  tronWalletUrl: string | null;
  /** Contracts whose AddedBlackList / RemovedBlackList events are issuer freezes (lowercase 0x form). */
  issuerFreezeContracts: string[];
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
> & {
  /** By chain id: the contracts whose blacklist events are issuer freezes (replacing the chain's default). */
  issuerFreezeContracts?: Record<number, string[]>;
  /** By chain id: a Tron node's HTTP API root, when it is not the rpc_url without its /jsonrpc path. */
  tronWalletUrls?: Record<number, string>;
};

export const DEFAULT_CONFIRMATIONS = 12;
export const TRON_CONFIRMATIONS = 19;
/** Bitcoin: six blocks, the usual depth after which a payment is taken as final (a reorg of more is unheard of). */
export const BITCOIN_CONFIRMATIONS = 6;
/** java-tron's node.jsonrpc.maxBlockRange default: a wider eth_getLogs is refused. */
export const TRON_MAX_LOG_RANGE = 5000;
/** The issuer-freeze contracts of the chains that have a default: USDT on Tron mainnet. */
export const DEFAULT_ISSUER_FREEZE_CONTRACTS: Readonly<Record<number, readonly string[]>> = {
  [TRON_MAINNET_ID]: [TRON_USDT],
};
export const DEFAULT_MAX_REORG_DEPTH = 1000n;

/** The chains the indexer follows: enabled ones with an RPC URL. */
export function indexedChains(chains: ChainConfig[]): ChainConfig[] {
  return chains.filter((c) => c.enabled && typeof c.rpc_url === "string" && c.rpc_url.length > 0);
}

export function settingsFor(chain: ChainConfig, tuning: IndexerTuning = {}): IndexerSettings {
  if (!chain.rpc_url) throw new Error(`chain ${chain.id} has no rpc_url`);
  const devnet = isDevnetChain(chain.id);
  const kind = chain.kind ?? "evm";
  const tron = kind === "tron";
  const confirmations =
    chain.confirmations ??
    (devnet
      ? 0
      : tron
        ? TRON_CONFIRMATIONS
        : kind === "bitcoin"
          ? BITCOIN_CONFIRMATIONS
          : DEFAULT_CONFIRMATIONS);
  const maxBatchBlocks = tuning.maxBatchBlocks ?? 100;
  const freezeContracts =
    tuning.issuerFreezeContracts?.[chain.id] ??
    chain.issuer_freeze_contracts?.map((a) => storedForm(chain, a)) ??
    DEFAULT_ISSUER_FREEZE_CONTRACTS[chain.id] ??
    [];
  return {
    chainId: chain.id,
    chainName: chain.name,
    nodeChainId: BigInt(chain.node_chain_id ?? chain.id),
    kind,
    rpcUrl: chain.rpc_url,
    tronWalletUrl:
      tron && chain.tron_http_url !== null
        ? (tuning.tronWalletUrls?.[chain.id] ?? chain.tron_http_url ?? tronWalletUrlOf(chain.rpc_url))
        : null,
    issuerFreezeContracts: [...new Set(freezeContracts.map((a) => a.toLowerCase()))],
    startBlock: BigInt(chain.start_block ?? 0),
    confirmations: BigInt(confirmations),
    pollIntervalMs: tuning.pollIntervalMs ?? (devnet ? 500 : 3000),
    // A batch is one eth_getLogs range on nodes without eth_getBlockReceipts (all Tron nodes).
    maxBatchBlocks: tron ? Math.min(maxBatchBlocks, TRON_MAX_LOG_RANGE) : maxBatchBlocks,
    targetBatchTransactions: tuning.targetBatchTransactions ?? 3000,
    lockRetryMs: tuning.lockRetryMs ?? 5000,
    // The devnet is thrown away and started afresh all the time: its index follows whatever runs there.
    maxReorgDepth:
      tuning.maxReorgDepth !== undefined ? tuning.maxReorgDepth : devnet ? null : DEFAULT_MAX_REORG_DEPTH,
  };
}

/** A configured contract address in the stored form (a wrong one is refused when the chains file is read). */
function storedForm(chain: ChainConfig, address: string): string {
  const parsed = codecOfKind(chain.kind).parse(address);
  if ("error" in parsed)
    throw new Error(`chain ${chain.id}: issuer_freeze_contracts: ${JSON.stringify(address)} ${parsed.error}`);
  return parsed.address;
}

/**
 * A Tron node's HTTP API root from its JSON-RPC URL: TronGrid and java-tron serve /jsonrpc beside /wallet on the
 * same host (a self-hosted node with the two on different ports names its HTTP API in tronWalletUrls).
 */
export function tronWalletUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.pathname = url.pathname.replace(/\/jsonrpc\/?$/, "").replace(/\/+$/, "");
  url.search = "";
  return url.href.replace(/\/+$/, "");
}
