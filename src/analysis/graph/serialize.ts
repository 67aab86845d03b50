// A graph as plain JSON (bigint amounts as decimal strings, nodes as an array), to store it between the layers of
// an incremental analysis or in a job's result, and back.
import type { GraphEdge, GraphNode } from "../../risk/index.ts";
import type { ExpandingGraph } from "./options.ts";

export type GraphJson = Omit<ExpandingGraph, "nodes" | "edges"> & {
  nodes: GraphNode[];
  edges: (Omit<GraphEdge, "value"> & { value: string })[];
};

export function graphToJson(graph: ExpandingGraph): GraphJson {
  return {
    ...graph,
    truncated: { ...graph.truncated },
    nodes: [...graph.nodes.values()].map((n) => ({ ...n })),
    edges: graph.edges.map((e) => ({ ...e, value: e.value.toString() })),
    frontier: [...graph.frontier],
    ...(graph.frontierShares ? { frontierShares: { ...graph.frontierShares } } : {}),
  };
}

export function graphFromJson(json: GraphJson): ExpandingGraph {
  return {
    ...json,
    truncated: { ...json.truncated },
    nodes: new Map(json.nodes.map((n) => [n.address, { ...n }])),
    edges: json.edges.map((e) => ({ ...e, value: BigInt(e.value) })),
    frontier: [...json.frontier],
    ...(json.frontierShares ? { frontierShares: { ...json.frontierShares } } : {}),
  };
}
