// Shared checks of a layered analysis's layers (their invariants): the cumulative graph only grows,
// metadata counts equal the lengths, newNodes and newEdges are exactly the difference to the previous layer,
// only the final layer is not provisional, and newPatterns / removedPatterns agree with consecutive layers.
import { expect } from "vitest";
import type { CompletedLayer } from "../../src/analysis/index.ts";

const ids = (patterns: { id: string }[]) => patterns.map((p) => p.id).sort();

export function expectLayerInvariants(layers: CompletedLayer[], maxDepth: number, root: string): void {
  expect(layers.map((l) => l.layer)).toEqual([...Array(maxDepth).keys()]);
  let previousNodes = new Set<string>();
  let previousEdges = new Set<string>();
  let previousPatterns: string[] = [];
  for (const layer of layers) {
    const graph = layer.cumulativeGraph;
    const nodes = Object.keys(graph.nodes);
    const edges = graph.edges.map((e) => e.id);
    expect(layer.status).toBe("completed");
    expect(layer.totalLayers).toBe(maxDepth);
    expect(layer.isProvisional).toBe(layer.layer < maxDepth - 1);
    expect(graph.rootAddress).toBe(root);
    expect(graph.nodes[root]).toBeDefined();
    // monotone
    for (const n of previousNodes)
      expect(graph.nodes[n], `layer ${layer.layer} lost node ${n}`).toBeDefined();
    const edgeSet = new Set(edges);
    for (const e of previousEdges) expect(edgeSet.has(e), `layer ${layer.layer} lost edge ${e}`).toBe(true);
    expect(edgeSet.size).toBe(edges.length);
    // every edge joins two nodes of the graph
    for (const e of graph.edges) {
      expect(graph.nodes[e.from]).toBeDefined();
      expect(graph.nodes[e.to]).toBeDefined();
    }
    // new = difference
    expect(Object.keys(layer.newNodes).sort()).toEqual(nodes.filter((n) => !previousNodes.has(n)).sort());
    for (const [address, node] of Object.entries(layer.newNodes)) expect(node).toEqual(graph.nodes[address]);
    expect(layer.newEdges.map((e) => e.id).sort()).toEqual(edges.filter((e) => !previousEdges.has(e)).sort());
    // counts
    expect(graph.metadata.totalNodes).toBe(nodes.length);
    expect(graph.metadata.totalEdges).toBe(edges.length);
    expect(layer.layerMetadata).toMatchObject({
      nodeCount: nodes.length,
      edgeCount: edges.length,
      newNodeCount: Object.keys(layer.newNodes).length,
      newEdgeCount: layer.newEdges.length,
    });
    // no node deeper than one hop past the layer
    for (const node of Object.values(graph.nodes)) expect(node.depth).toBeLessThanOrEqual(layer.layer + 1);
    // pattern diffs
    const detected = ids(layer.detectedPatterns);
    expect(ids(layer.newPatterns)).toEqual(detected.filter((p) => !previousPatterns.includes(p)));
    expect(ids(layer.removedPatterns)).toEqual(previousPatterns.filter((p) => !detected.includes(p)));
    expect(layer.riskScore).toBeGreaterThanOrEqual(0);
    expect(layer.riskScore).toBeLessThanOrEqual(100);
    previousNodes = new Set(nodes);
    previousEdges = edgeSet;
    previousPatterns = detected;
  }
}

/**
 * A layer without what differs between two runs of the same data: its analysis id, timings, and the times its
 * coverage states (an explorer history's fetch time, and the note that says it).
 */
export function comparable(layer: CompletedLayer): unknown {
  const { analysisId: _a, layerMetadata, coverage, ...rest } = layer;
  const { processingTimeMs: _p, patternDetectionTimeMs: _d, timestamp: _t, ...counts } = layerMetadata;
  const { dataFrom: _f, dataUntil: _u, note: _n, ...covered } = coverage ?? {};
  return { ...rest, layerMetadata: counts, coverage: covered };
}
