// What bounds an expansion, and its defaults.

import type { ReadCoalescing } from "../../ledger/index.ts";
import { type NodeType, TERMINAL_TYPES, type TxGraph } from "../../risk/index.ts";
import type { HistoryProvider } from "./history.ts";

/** A graph being expanded: the TxGraph the detectors read, plus what the next layer expands. */
export interface ExpandingGraph extends TxGraph {
  /** Addresses the next layer expands, sorted; empty once the expansion is done or a budget is spent. */
  frontier: string[];
  /**
   * The path share of frontier addresses (layer.ts): at most what of their value can reach the roots along the
   * path that reached them. Missing (a root, or a graph saved before shares were kept): 1.
   */
  frontierShares?: Record<string, number>;
  /**
   * Bridge legs of the graph's addresses whose other side the expansion could not follow (bridge-reads.ts): on a
   * chain the service does not index, not in the store yet, or claimed by more than one leg. Absent: none.
   */
  bridgeGaps?: BridgeGap[];
}

/** A bridge leg of a graph address whose other side is not in the graph, and why. */
export interface BridgeGap {
  /** "Across", "Circle CCTP", "LayerZero OFT" */
  protocol: string;
  /** `out`: the address deposited; `in`: it received */
  direction: "out" | "in";
  /** the graph's key of the address (chain-keys.ts) */
  address: string;
  chainId: number;
  txHash: string;
  /** the other end as the protocol names it ("chain:1", "cctp:5", "lz:30168") and its chain id when known */
  otherRef: string;
  otherChainId: number | null;
  reason: "chain-not-indexed" | "other-leg-not-found" | "ambiguous";
}

export interface ExpansionBudget {
  /** nodes in the graph, roots included */
  maxNodes: number;
  /** edges (transfers) in the graph */
  maxEdges: number;
  /** wall time of the whole expansion (expandGraph) or of one expandLayer call */
  maxMillis: number;
}

export interface ExpansionOptions {
  budget: ExpansionBudget;
  /**
   * A node with more new, expandable counterparties than this has only the top ones by USD value (summed over
   * its transfers with each) followed to the next layer. Its other counterparties stay in the graph, with their
   * edges, as nodes that are not expanded.
   */
  degreeLimit: number;
  /**
   * At most this many transfers per address and direction are read in a layer, the newest first (hubs). Below it,
   * the cap also shrinks so that one layer reads about 4x the edges the edge budget has left (never below 25).
   */
  maxTransfersPerAddress: number;
  /**
   * Rows one layer statement reads at most, whatever the frontier: the per-address cap shrinks to keep a layer
   * within it, and the statement's LIMIT enforces it (reaching it ends the expansion with `truncated.edges`).
   */
  maxLayerRows: number;
  /**
   * A counterparty with at least this many transfers in the store (sent and received, address_facts) is reached
   * but never expanded, whatever its type: a path through so busy an address carries a share of any one source
   * too small to count as exposure (docs/decisions/0019). Roots are expanded whatever their count.
   */
  busyTransfers: number;
  /**
   * A counterparty with at least this many transfers (but fewer than busyTransfers) is followed only while its
   * path share is at least its transfers / busyTransfers: an address 10% of whose funds could reach the roots is
   * expanded below 100 transfers, one with half of them below 500, a root's sole counterparty below
   * busyTransfers (docs/decisions/0031). Below this count every path the share admits is followed.
   */
  crowdedTransfers: number;
  /**
   * A counterparty is followed only while the share of its path is at least this: its transfers with the
   * frontier address are at most that share of all that address's transfers (by USD or by count), compounded
   * along the path from a root (docs/decisions/0019). 0 follows every path.
   */
  minPathShare: number;
  /**
   * Transactions per layer whose other transfers are read so that a swap through a contract reads as one
   * conversion (conversion-reads.ts): those of the layer's transfers with a contract, a defi address or a
   * registered protocol contract, the largest by USD first. 0 reads none.
   */
  maxConversionTxs: number;
  /**
   * Bridge legs read per layer (bridge-reads.ts): the frontier's deposits into bridges and deliveries from them,
   * each paired with its other side on whatever chain holds it. 0 reads none.
   */
  maxBridgeLegs: number;
  /** Node types that end a path: reached, never expanded (roots excepted). */
  terminalTypes: ReadonlySet<NodeType>;
  /** The chain's native currency (transfers with token 'native'). */
  native: { symbol: string; decimals: number };
  /** The native currencies of other chains a bridge crossing reaches, by chain id; absent: `native`'s. */
  natives: Readonly<Record<number, { symbol: string; decimals: number }>>;
  /** Explorer histories fetched before each layer, on chains it has an explorer for. */
  history: HistoryProvider | undefined;
  /** Explorer fetches in flight at once. */
  historyConcurrency: number;
  /** Shares the statements of concurrent single-address reads (quick checks); none: each read runs alone. */
  coalescing: ReadCoalescing | undefined;
  /** read each layer as one JSON text: faster on PGlite, whose row decoding is slow (docs/decisions/0018) */
  jsonRows: boolean;
  /** Clock in epoch milliseconds (tests). */
  now: () => number;
  /**
   * Ends the expansion with the signal's reason as an error (not a truncated graph): the work was taken away
   * (a job's claim lost, a request's deadline passed) and its result would not be used.
   */
  signal: AbortSignal | undefined;
}

export const DEFAULT_EXPANSION_OPTIONS: ExpansionOptions = {
  budget: { maxNodes: 5_000, maxEdges: 20_000, maxMillis: 5_000 },
  degreeLimit: 50,
  maxTransfersPerAddress: 10_000,
  maxLayerRows: 500_000,
  busyTransfers: 1_000,
  crowdedTransfers: 100,
  minPathShare: 0.01,
  maxConversionTxs: 200,
  maxBridgeLegs: 200,
  terminalTypes: TERMINAL_TYPES,
  native: { symbol: "ETH", decimals: 18 },
  natives: {},
  history: undefined,
  historyConcurrency: 4,
  coalescing: undefined,
  jsonRows: false,
  now: () => Date.now(),
  signal: undefined,
};

export type ExpansionOverrides = Partial<Omit<ExpansionOptions, "budget">> & {
  budget?: Partial<ExpansionBudget>;
};

export function resolveOptions(overrides: ExpansionOverrides = {}): ExpansionOptions {
  const options: ExpansionOptions = {
    ...DEFAULT_EXPANSION_OPTIONS,
    ...stripUndefined(overrides),
    budget: { ...DEFAULT_EXPANSION_OPTIONS.budget, ...stripUndefined(overrides.budget ?? {}) },
  };
  const { budget } = options;
  for (const [name, value] of [
    ["budget.maxNodes", budget.maxNodes],
    ["budget.maxEdges", budget.maxEdges],
    ["degreeLimit", options.degreeLimit],
    ["maxTransfersPerAddress", options.maxTransfersPerAddress],
    ["maxLayerRows", options.maxLayerRows],
    ["busyTransfers", options.busyTransfers],
    ["crowdedTransfers", options.crowdedTransfers],
    ["historyConcurrency", options.historyConcurrency],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  for (const [name, value] of [
    ["maxConversionTxs", options.maxConversionTxs],
    ["maxBridgeLegs", options.maxBridgeLegs],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  }
  if (!(budget.maxMillis > 0)) throw new RangeError("budget.maxMillis must be positive");
  if (!(options.minPathShare >= 0 && options.minPathShare <= 1)) {
    throw new RangeError("minPathShare must be between 0 and 1");
  }
  return options;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
