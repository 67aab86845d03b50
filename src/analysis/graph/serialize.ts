// A graph as plain JSON (bigint amounts as decimal strings, nodes as an array), to store it between the layers of
// an incremental analysis or in a job's result, and back.
import type { BridgeVia, GraphEdge, GraphNode } from "../../risk/index.ts";
import type { ExpandingGraph } from "./options.ts";

type BridgeJson = Omit<BridgeVia, "given"> & { given: Omit<BridgeVia["given"], "value"> & { value: string } };

/** A graph's clusters (Bitcoin) are not stored with it: they are read again from the store each time it is used. */
export type GraphJson = Omit<ExpandingGraph, "nodes" | "edges" | "clusters"> & {
  nodes: GraphNode[];
  edges: (Omit<GraphEdge, "value" | "bridge"> & { value: string; bridge?: BridgeJson })[];
};

// A bridge crossing's edge (bridge-reads.ts) carries what was deposited, an amount like the edge's own.
const bridgeToJson = (b: BridgeVia): BridgeJson => ({
  ...b,
  given: { ...b.given, value: b.given.value.toString() },
});
const bridgeFromJson = (b: BridgeJson): BridgeVia => ({
  ...b,
  given: { ...b.given, value: BigInt(b.given.value) },
});

export function graphToJson({ clusters: _, ...graph }: ExpandingGraph): GraphJson {
  return {
    ...graph,
    truncated: { ...graph.truncated },
    nodes: [...graph.nodes.values()].map((n) => ({ ...n })),
    edges: graph.edges.map(({ bridge, ...e }) => ({
      ...e,
      value: e.value.toString(),
      ...(bridge ? { bridge: bridgeToJson(bridge) } : {}),
    })),
    frontier: [...graph.frontier],
    ...(graph.frontierShares ? { frontierShares: { ...graph.frontierShares } } : {}),
    ...(graph.bridgeGaps ? { bridgeGaps: graph.bridgeGaps.map((g) => ({ ...g })) } : {}),
  };
}

export function graphFromJson(json: GraphJson): ExpandingGraph {
  return {
    ...json,
    truncated: { ...json.truncated },
    nodes: new Map(json.nodes.map((n) => [n.address, { ...n }])),
    edges: json.edges.map(({ bridge, ...e }) => ({
      ...e,
      value: BigInt(e.value),
      ...(bridge ? { bridge: bridgeFromJson(bridge) } : {}),
    })),
    frontier: [...json.frontier],
    ...(json.frontierShares ? { frontierShares: { ...json.frontierShares } } : {}),
    ...(json.bridgeGaps ? { bridgeGaps: json.bridgeGaps.map((g) => ({ ...g })) } : {}),
  };
}
