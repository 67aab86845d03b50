// The wire shapes the viewer reads, as documented in /v1 (docs/api.md,
// "Investigations and layered analyses"). The viewer is a plain API client: it keeps
// its own copy of these shapes instead of importing the server's types, and treats every field the documents
// mark optional (or that a newer server may add) as possibly missing.

/** Node types of docs/api.md; anything else a server sends is drawn as `unknown`. */
export const NODE_TYPES = [
  "eoa",
  "contract",
  "exchange",
  "mixer",
  "bridge",
  "defi",
  "sanctioned",
  "illicit",
  "unknown",
] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  message?: string;
}

export interface Investigation {
  id: string | number;
  name: string;
  address: string;
  chain_id: number | string;
  incremental: boolean;
  max_depth: number;
  /** "" until the analysis record exists (incremental mode) */
  analysis_id: string | null;
  status: string;
  risk_score: number | null;
  created_at: string;
  updated_at: string;
  /** standard mode: the complete graph */
  graph?: WireGraph;
  /** the reason of a failed analysis, when the server gives one */
  error?: string | null;
}

export type AnalysisStatus = "pending" | "running" | "completed" | "failed";

export interface Progress {
  analysisId: string;
  status: AnalysisStatus;
  completedLayers: number;
  maxDepth: number;
  incremental: boolean;
  riskScore?: number | null;
  patternsDetected?: number;
  startedAt?: string;
  error?: string | null;
}

export interface WireNode {
  address: string;
  type: string;
  label?: string | null;
  /** the label set the label comes from (absent for an inferred label and from older servers) */
  labelSource?: string | null;
  category?: string | null;
  depth?: number;
  /** the label and type are inferred (an exchange deposit address), not from a label set */
  inferred?: boolean;
}

export interface WireEdge {
  from: string;
  to: string;
  /** raw amount in the token's smallest unit, a decimal string */
  value: string;
  usd?: number | null;
  symbol?: string;
  /** the token's decimals, to show `value` as an amount */
  decimals?: number;
  txHash?: string;
  /** ISO 8601 */
  timestamp?: string;
  /** set on the edge that stands for a conversion (a swap read as one movement of value from payer to recipient) */
  conversion?: WireConversion;
  /** set on the edge that stands for a bridge crossing (value deposited on one chain, delivered on another) */
  bridge?: WireBridge;
}

/** A bridge crossing: the protocol, the chains, and what was deposited (the edge's own amount is what arrived). */
export interface WireBridge {
  protocol: string;
  fromChainId: number;
  toChainId: number;
  depositTx: string;
  given: WireConversionLeg;
}

/** One side of a conversion: an asset given or received, on net. */
export interface WireConversionLeg {
  symbol: string;
  value: string;
  decimals: number;
  usd: number | null;
}

export interface WireConversion {
  /** the protocols by name ("Uniswap V2"), or the unlisted contracts */
  via: string[];
  given: WireConversionLeg[];
  received: WireConversionLeg[];
}

export interface WireGraph {
  rootAddress: string;
  nodes: Record<string, WireNode>;
  edges: WireEdge[];
  metadata?: { totalNodes: number; totalEdges: number };
}

export interface PatternEvidence {
  wallets?: string[];
  txHashes?: string[];
  usdAmount?: number;
  /** the parameters that decided it, e.g. { thresholdUsd: 10000, windowDays: 7 } */
  thresholds?: Record<string, number | string>;
}

export interface LayerPattern {
  patternType: string;
  confidence: number;
  severity: string;
  description: string;
  /** the address the finding is about, when the server says */
  subject?: string;
  evidence?: PatternEvidence;
}

/** One exposure of the root as a path in the graph (docs/api.md, "Exposure paths"). */
export interface ExposurePath {
  category: string;
  direction: "incoming" | "outgoing" | "self";
  hops: number;
  usd: number;
  share: number;
  /** the labelled addresses at the far end of the paths */
  counterparties: { address: string; label?: string }[];
  /** the intermediaries on the paths */
  via: string[];
  /** the transactions on the paths */
  txHashes: string[];
  /** the score's exposure points come from this entry */
  drivesScore: boolean;
}

/** An enabled chain of GET /v1/chains: the explorer to link transaction hashes to. */
export interface Chain {
  id: number;
  name: string;
  explorer_url: string | null;
}

export interface CompletedLayer {
  analysisId: string;
  layer: number;
  status: "completed";
  totalLayers: number;
  /** null: the verdict is withheld, the data it rests on is not current (errorCode no_data; riskReason says why) */
  riskScore: number | null;
  /** the score's level, as the API decides it (minimal, low, medium, high, critical); null when withheld */
  riskLevel?: string | null;
  errorCode?: string;
  /** why the score: the exposure and the patterns it rests on, in words a person can check */
  riskReason?: string;
  exposure?: ExposurePath[];
  isProvisional: boolean;
  detectedPatterns: LayerPattern[];
  newPatterns: LayerPattern[];
  removedPatterns: LayerPattern[];
  cumulativeGraph: WireGraph;
  newNodes: Record<string, WireNode>;
  newEdges: WireEdge[];
  layerMetadata?: Record<string, number | string>;
}

export interface PendingLayer {
  analysisId: string;
  layer: number;
  status: "pending" | "failed";
  totalLayers: number;
}

export type LayerResult = CompletedLayer | PendingLayer;
