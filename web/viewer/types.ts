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
  txHash?: string;
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

export interface CompletedLayer {
  analysisId: string;
  layer: number;
  status: "completed";
  totalLayers: number;
  riskScore: number;
  /** why the score: the exposure and the patterns it rests on, in words a person can check */
  riskReason?: string;
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
