// The layer result (docs/api.md, "Investigations and layered analyses") built from the graph after a layer and the state before it.
// Pure: the same graphs and analysis give the same JSON, so a layer recomputed after a crash equals the one an
// uninterrupted run would have stored (except its timings).
//
// Layer k is the expansion of the addresses k hops from the root: layer 0 reads the root's own transfers and
// finds its direct counterparties, layer 1 theirs, and so on; an analysis of maxDepth N has layers 0..N-1 and its
// final graph reaches N hops, like a scan of the same depth (docs/decisions/0004-analysis-layers.md).
import type {
  Conversion,
  ConversionLeg,
  GraphEdge,
  GraphNode,
  LayerPattern,
  RiskAnalysis,
} from "../../risk/index.ts";
import type {
  CompletedLayer,
  LayerEdge,
  LayerExposure,
  LayerGraph,
  LayerNode,
  ShortLayer,
} from "./schemas.ts";

export type { CompletedLayer, LayerEdge, LayerExposure, LayerGraph, LayerNode, ShortLayer };

const legView = (l: ConversionLeg) => ({
  symbol: l.symbol,
  value: l.value.toString(),
  decimals: l.decimals,
  usd: l.usd,
});

/** `labelSource`: the label set its label comes from (label-sources.ts), when it has a stored label. */
export function layerNode(node: GraphNode, labelSource?: string): LayerNode {
  const out: LayerNode = { address: node.address, type: node.type, depth: node.depth };
  if (node.label !== undefined) out.label = node.label;
  if (node.label !== undefined && labelSource) out.labelSource = labelSource;
  if (node.category !== undefined) out.category = node.category;
  if (node.inferred) out.inferred = true;
  return out;
}

export function layerEdge(edge: GraphEdge): LayerEdge {
  const view: LayerEdge = {
    id: edge.id,
    from: edge.from,
    to: edge.to,
    value: edge.value.toString(),
    token: edge.token,
    symbol: edge.symbol,
    decimals: edge.decimals,
    usd: edge.usd,
    txHash: edge.txHash,
    timestamp: new Date(edge.at * 1000).toISOString(),
  };
  if (edge.bridge) {
    const { protocol, fromChainId, toChainId, depositTx, given } = edge.bridge;
    view.bridge = { protocol, fromChainId, toChainId, depositTx, given: legView(given) };
  }
  return view;
}

/**
 * The edge a conversion stands for (src/risk/graph/conversions.ts), for the viewer to draw beside the swap's own
 * transfers: from the payer to the recipient, what was received, and what was given. None for a swap to oneself.
 */
export function conversionEdge(c: Conversion): LayerEdge | undefined {
  if (c.edgeId === undefined) return undefined;
  const received = c.received;
  const one = received.length === 1 ? received[0] : undefined;
  const usdOf = (legs: readonly ConversionLeg[]) =>
    legs.every((l) => l.usd !== null) ? legs.reduce((s, l) => s + (l.usd ?? 0), 0) : null;
  const usd = usdOf(received) ?? usdOf(c.given);
  return {
    id: c.edgeId,
    from: c.from,
    to: c.to,
    value: one ? one.value.toString() : "0",
    token: one ? one.token : "mixed",
    symbol: received.map((l) => l.symbol).join("+"),
    decimals: one ? one.decimals : 0,
    usd: usd === null ? null : Math.round(usd * 100) / 100,
    txHash: c.txHash,
    timestamp: new Date(c.at * 1000).toISOString(),
    conversion: { via: [...c.via], given: c.given.map(legView), received: received.map(legView) },
  };
}

export interface LayerInput {
  analysisId: string;
  layer: number;
  totalLayers: number;
  root: string;
  /** the graph after this layer (nodes and edges in their canonical order) */
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  /** the conversions read in the graph (drawn as edges of their own beside the transfers) */
  conversions: readonly Conversion[];
  truncated: LayerGraph["metadata"]["truncated"];
  /** node addresses and edge ids of the previous layer's graph (empty for layer 0) */
  previousNodes: ReadonlySet<string>;
  previousEdges: ReadonlySet<string>;
  /** the conversion edges' ids of the previous layer's graph */
  previousConversions: ReadonlySet<string>;
  previousPatterns: readonly LayerPattern[];
  analysis: Pick<RiskAnalysis, "score" | "level" | "reason">;
  /** the root's exposure after this layer, as paths (exposure-paths.ts) */
  exposure: LayerExposure[];
  /** the source of each labelled node's label, by address */
  labelSources: ReadonlyMap<string, string>;
  patterns: LayerPattern[];
  errorCount: number;
  processingTimeMs: number;
  patternDetectionTimeMs: number;
  timestamp: Date;
}

export function buildLayer(input: LayerInput): CompletedLayer {
  const nodes: Record<string, LayerNode> = {};
  const newNodes: Record<string, LayerNode> = {};
  for (const node of input.nodes) {
    const view = layerNode(node, input.labelSources.get(node.address));
    nodes[node.address] = view;
    if (!input.previousNodes.has(node.address)) newNodes[node.address] = view;
  }
  const edges: LayerEdge[] = [];
  const newEdges: LayerEdge[] = [];
  for (const edge of input.edges) {
    const view = layerEdge(edge);
    edges.push(view);
    if (!input.previousEdges.has(edge.id)) newEdges.push(view);
  }
  for (const c of input.conversions) {
    const view = conversionEdge(c);
    if (!view) continue;
    edges.push(view);
    if (!input.previousConversions.has(view.id)) newEdges.push(view);
  }
  const before = new Set(input.previousPatterns.map((p) => p.id));
  const now = new Set(input.patterns.map((p) => p.id));
  const newNodeCount = Object.keys(newNodes).length;
  return {
    analysisId: input.analysisId,
    layer: input.layer,
    status: "completed",
    totalLayers: input.totalLayers,
    riskScore: input.analysis.score,
    riskLevel: input.analysis.level,
    riskReason: input.analysis.reason,
    exposure: input.exposure,
    isProvisional: input.layer < input.totalLayers - 1,
    detectedPatterns: input.patterns,
    newPatterns: input.patterns.filter((p) => !before.has(p.id)),
    removedPatterns: input.previousPatterns.filter((p) => !now.has(p.id)),
    cumulativeGraph: {
      rootAddress: input.root,
      nodes,
      edges,
      metadata: {
        totalNodes: input.nodes.length,
        totalEdges: edges.length,
        truncated: { ...input.truncated },
      },
    },
    newNodes,
    newEdges,
    layerMetadata: {
      processingTimeMs: Math.round(input.processingTimeMs),
      nodeCount: input.nodes.length,
      edgeCount: edges.length,
      newNodeCount,
      newEdgeCount: newEdges.length,
      errorCount: input.errorCount,
      patternDetectionTimeMs: Math.round(input.patternDetectionTimeMs),
      timestamp: input.timestamp.toISOString(),
    },
  };
}
