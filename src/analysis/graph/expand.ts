// Bounded breadth-first expansion from one or many roots over the chain data store: a graph with the roots
// (createGraph), then one layer at a time (layer.ts expandLayer) until the depth is reached, nothing is left to
// follow or a budget is spent. Every result says in `graph.truncated` whether a budget cut it short.
import type { Kysely } from "kysely";
import { normalizeStoredAddress } from "../../chains/address/index.ts";
import { type ReadCoalescing, readAddressFacts, UNKNOWN_FACTS, type Window } from "../../ledger/index.ts";
import { NO_TRUNCATION } from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import { expandLayer, type LayerReport, newNode, sortGraph } from "./layer.ts";
import { type ExpandingGraph, type ExpansionOverrides, resolveOptions } from "./options.ts";

export interface ExpansionRequest {
  chainId: number;
  /** EVM addresses, any case; duplicates are ignored */
  roots: string[];
  /** hops from the roots: 0 gives the roots alone, 1 their counterparties, ... */
  maxDepth: number;
  /** only transfers in this window (unix seconds, both ends inclusive) */
  window?: Window;
}

export interface ExpansionResult {
  graph: ExpandingGraph;
  layers: LayerReport[];
  /** statements run against the store: one for the roots, then one per layer */
  queries: number;
  ms: number;
}

/** The graph of the roots alone (one statement: their facts and labels), ready for expandLayer. */
export async function createGraph(
  db: Kysely<DB>,
  request: ExpansionRequest,
  coalescing?: ReadCoalescing,
): Promise<ExpandingGraph> {
  if (!Number.isInteger(request.maxDepth) || request.maxDepth < 0) {
    throw new RangeError("maxDepth must be a non-negative integer");
  }
  const roots = [
    ...new Set(
      request.roots.map((root) => {
        const address = normalizeStoredAddress(root);
        if (!address) throw new RangeError(`not an address: ${JSON.stringify(root)}`);
        return address;
      }),
    ),
  ].sort();
  if (roots.length === 0) throw new RangeError("at least one root is needed");
  const { from, to } = request.window ?? {};
  if (from !== undefined && to !== undefined && from > to)
    throw new RangeError("the window ends before it starts");
  const facts = await readAddressFacts(db, request.chainId, roots, coalescing);
  const graph: ExpandingGraph = {
    chainId: request.chainId,
    roots,
    nodes: new Map(
      roots.map((address) => [address, newNode(address, 0, facts.get(address) ?? UNKNOWN_FACTS)]),
    ),
    edges: [],
    maxDepth: request.maxDepth,
    truncated: { ...NO_TRUNCATION },
    frontier: request.maxDepth > 0 ? [...roots] : [],
  };
  if (from !== undefined || to !== undefined) {
    graph.window = {};
    if (from !== undefined) graph.window.from = from;
    if (to !== undefined) graph.window.to = to;
  }
  sortGraph(graph);
  return graph;
}

/** Expands from the roots, layer by layer, within the budgets (defaults in options.ts). */
export async function expandGraph(
  db: Kysely<DB>,
  request: ExpansionRequest,
  overrides: ExpansionOverrides = {},
): Promise<ExpansionResult> {
  const options = resolveOptions(overrides);
  const started = options.now();
  const deadline = started + options.budget.maxMillis;
  const graph = await createGraph(db, request, options.coalescing);
  const layers: LayerReport[] = [];
  let queries = 1;
  while (graph.frontier.length > 0) {
    const report = await expandLayer(db, graph, { ...options, deadline }); // throws when options.signal aborts
    layers.push(report);
    queries += report.statements;
    if (report.stop) break;
  }
  return { graph, layers, queries, ms: options.now() - started };
}
