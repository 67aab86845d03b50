// One breadth-first layer: expands the graph's frontier by one hop, in place. The loop (expand.ts) and the
// incremental, layer-by-layer analyses both call this; everything it needs between layers lives in the graph
// (nodes, edges, truncation flags and the frontier), so a graph saved after a layer can be expanded further later.
//
// A layer:
//  1. stops at once when the frontier is empty, a node or edge budget was spent, or the time budget is;
//  2. on a chain with an explorer, makes sure the store holds each frontier address's history (until the deadline);
//  3. reads the layer in one statement (store.ts readLayer);
//  4. keeps every transfer of the frontier addresses (so each expanded node's own flows are complete) and adds
//     their new counterparties as nodes, within the node and edge budgets: labelled counterparties with a risk
//     category first, then those to be followed, then by USD value;
//  5. follows to the next layer only new counterparties whose type does not end a path, and of a node with more
//     of them than the degree limit only the top ones by USD value.
import type { Kysely } from "kysely";
import type { GraphEdge, GraphNode, NodeType } from "../../risk/graph/types.ts";
import type { DB } from "../../schema.ts";
import { emptyHistoryReport, ensureHistories, type HistoryReport } from "./history.ts";
import { type AddressFacts, isRiskRelevant, nodeTypeOf } from "./node-types.ts";
import { type ExpandingGraph, type ExpansionOverrides, resolveOptions } from "./options.ts";
import { type LayerRow, readLayer } from "./store.ts";

/** The per-address cap never shrinks below this many transfers per direction. */
const MIN_TRANSFERS_PER_ADDRESS = 25;
/** Each layer reads up to this many times the edges the budget has left (spread over the frontier). */
const READ_AHEAD = 4;

export interface LayerOptions extends ExpansionOverrides {
  /** Epoch ms (per `now`) at which the time budget is spent; default now + budget.maxMillis. */
  deadline?: number;
}

export type StopReason = "done" | "depth" | "nodes" | "edges" | "time";

export interface LayerReport {
  /** depth of the frontier this layer expanded (its new nodes are one deeper) */
  depth: number;
  /** frontier addresses expanded */
  frontier: number;
  /** statements run against the store: 1, or 0 when the layer stopped before reading */
  statements: number;
  /** transfer rows the layer read (a transfer between two frontier addresses counts twice) */
  transfersRead: number;
  newNodes: number;
  newEdges: number;
  /** addresses of the next frontier */
  next: number;
  /** frontier addresses that had only their top counterparties by USD followed */
  degreeLimited: string[];
  /** frontier addresses with more transfers than the per-address cap: only the newest were read */
  capped: string[];
  history: HistoryReport;
  ms: number;
  /** set when the expansion ends with this layer, and why */
  stop?: StopReason;
}

const byAddress = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return (
    a.at - b.at ||
    a.blockNumber - b.blockNumber ||
    byAddress(a.txHash, b.txHash) ||
    a.logIndex - b.logIndex ||
    byAddress(a.id, b.id)
  );
}

function compareNodes(a: GraphNode, b: GraphNode): number {
  return a.depth - b.depth || byAddress(a.address, b.address);
}

/** Nodes by depth then address, edges by time then hash and log index: the same data gives the same graph. */
export function sortGraph(graph: ExpandingGraph): void {
  const nodes = [...graph.nodes.values()].sort(compareNodes);
  graph.nodes = new Map(nodes.map((n) => [n.address, n]));
  graph.edges.sort(compareEdges);
  graph.frontier = [...new Set(graph.frontier)].sort(byAddress);
}

export function newNode(address: string, depth: number, facts: AddressFacts): GraphNode {
  const node: GraphNode = {
    address,
    depth,
    type: nodeTypeOf(facts),
    isContract: facts.isContract,
    expanded: false,
  };
  if (facts.label !== undefined) node.label = facts.label;
  if (facts.category !== undefined) node.category = facts.category;
  if (facts.firstSeenAt !== undefined) node.firstSeenAt = facts.firstSeenAt;
  return node;
}

function toEdge(row: LayerRow, native: { symbol: string; decimals: number }): GraphEdge {
  const isNative = row.token === "native";
  const decimals = isNative ? native.decimals : row.decimals;
  const usd =
    decimals === null || row.priceUsd === null
      ? null
      : Math.round((Number(row.value) / 10 ** decimals) * row.priceUsd * 100) / 100;
  return {
    id: `${row.txHash}:${row.logIndex}`,
    txHash: row.txHash,
    logIndex: row.logIndex,
    from: row.from,
    to: row.to,
    token: row.token,
    symbol: isNative ? native.symbol : (row.symbol ?? "UNKNOWN"),
    decimals: decimals ?? 0,
    value: row.value,
    usd,
    at: row.at,
    blockNumber: row.blockNumber,
  };
}

/** Expands `graph.frontier` by one hop, in place. */
export async function expandLayer(
  db: Kysely<DB>,
  graph: ExpandingGraph,
  layerOptions: LayerOptions = {},
): Promise<LayerReport> {
  const options = resolveOptions(layerOptions);
  const { budget, now } = options;
  const started = now();
  const deadline = layerOptions.deadline ?? started + budget.maxMillis;
  const frontier = [...new Set(graph.frontier)].sort(byAddress);
  const frontierNodes = frontier.map((address) => {
    const node = graph.nodes.get(address);
    if (!node) throw new Error(`frontier address ${address} is not a node of the graph`);
    return node;
  });
  const depth = frontierNodes.reduce((min, n) => Math.min(min, n.depth), Number.POSITIVE_INFINITY);
  const report: LayerReport = {
    depth: Number.isFinite(depth) ? depth : 0,
    frontier: frontier.length,
    statements: 0,
    transfersRead: 0,
    newNodes: 0,
    newEdges: 0,
    next: 0,
    degreeLimited: [],
    capped: [],
    history: emptyHistoryReport(),
    ms: 0,
  };
  const finish = (stop?: StopReason) => {
    if (stop) report.stop = stop;
    report.ms = now() - started;
    return report;
  };

  if (frontier.length === 0) return finish("done");
  // A spent node or edge budget ends the expansion (a cut layer empties the frontier; this catches a graph that
  // was saved full, or budgets lowered since).
  if (graph.nodes.size >= budget.maxNodes || graph.edges.length >= budget.maxEdges) {
    const spent = graph.nodes.size >= budget.maxNodes ? "nodes" : "edges";
    graph.truncated[spent] = true;
    graph.frontier = [];
    return finish(spent);
  }
  if (now() >= deadline) {
    graph.truncated.time = true;
    return finish("time");
  }

  // 2. Explorer histories, until the deadline; the layer then reads whatever the store holds.
  let timeCut = false;
  if (options.history?.hasExplorer(graph.chainId)) {
    const history = await ensureHistories(options.history, graph.chainId, frontier, graph.window ?? {}, {
      concurrency: options.historyConcurrency,
      deadline,
      now,
    });
    const { timedOut, ...historyReport } = history;
    report.history = historyReport;
    if (timedOut) timeCut = true;
  }

  // 3. The layer's one statement.
  const edgeRoom = Math.max(0, budget.maxEdges - graph.edges.length);
  const cap = Math.min(
    options.maxTransfersPerAddress,
    Math.max(MIN_TRANSFERS_PER_ADDRESS, Math.ceil((READ_AHEAD * edgeRoom) / frontier.length)),
  );
  const rows = await readLayer(db, graph.chainId, frontier, graph.window ?? {}, cap);
  report.statements = 1;
  report.transfersRead = rows.length;

  // 4. What the rows say, per frontier address and per counterparty.
  const perDirection = new Map<string, number>();
  const existing = new Set(graph.edges.map((e) => e.id));
  const candidates = new Map<string, GraphEdge>();
  const newFacts = new Map<string, AddressFacts>();
  const newDepth = new Map<string, number>();
  const newUsd = new Map<string, number>();
  /** frontier address -> counterparty -> USD of their transfers */
  const flows = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const key = `${row.frontier} ${row.dir}`;
    perDirection.set(key, (perDirection.get(key) ?? 0) + 1);
    const edge = toEdge(row, options.native);
    if (!existing.has(edge.id)) candidates.set(edge.id, edge);
    const cp = row.counterparty;
    if (cp === row.frontier) continue;
    let perCp = flows.get(row.frontier);
    if (!perCp) {
      perCp = new Map();
      flows.set(row.frontier, perCp);
    }
    perCp.set(cp, (perCp.get(cp) ?? 0) + (edge.usd ?? 0));
    if (!graph.nodes.has(cp)) {
      newFacts.set(cp, row.facts);
      const d = (graph.nodes.get(row.frontier)?.depth ?? 0) + 1;
      newDepth.set(cp, Math.min(newDepth.get(cp) ?? d, d));
      newUsd.set(cp, (newUsd.get(cp) ?? 0) + (edge.usd ?? 0));
    }
  }
  for (const [key, count] of perDirection) {
    if (count < cap) continue;
    const address = key.slice(0, key.indexOf(" "));
    if (!report.capped.includes(address)) report.capped.push(address);
    if (cap < options.maxTransfersPerAddress) graph.truncated.edges = true;
    else graph.truncated.degree = true;
  }
  report.capped.sort(byAddress);

  // 5. Which new counterparties are followed to the next layer.
  const typeOf = new Map<string, NodeType>();
  for (const [address, facts] of newFacts) typeOf.set(address, nodeTypeOf(facts));
  const followed = new Set<string>();
  for (const address of frontier) {
    const perCp = flows.get(address);
    if (!perCp) continue;
    const expandable = [...perCp.entries()].filter(
      ([cp]) => newFacts.has(cp) && !options.terminalTypes.has(typeOf.get(cp) as NodeType),
    );
    if (expandable.length > options.degreeLimit) {
      expandable.sort(([a, usdA], [b, usdB]) => usdB - usdA || byAddress(a, b));
      expandable.length = options.degreeLimit;
      report.degreeLimited.push(address);
      graph.truncated.degree = true;
    }
    for (const [cp] of expandable) followed.add(cp);
  }

  // 4 (cont.). Within the budgets: edges between known nodes first, then new nodes in priority order, each
  // with all its edges, until the next one no longer fits.
  const knownEdges: GraphEdge[] = [];
  const edgesOfNew = new Map<string, GraphEdge[]>();
  for (const edge of candidates.values()) {
    const unknown = !graph.nodes.has(edge.from) ? edge.from : !graph.nodes.has(edge.to) ? edge.to : undefined;
    if (unknown === undefined) knownEdges.push(edge);
    else {
      let list = edgesOfNew.get(unknown);
      if (!list) {
        list = [];
        edgesOfNew.set(unknown, list);
      }
      list.push(edge);
    }
  }
  knownEdges.sort(compareEdges);
  const ordered = [...newFacts.entries()]
    .map(([address, facts]) => ({
      address,
      rank: (isRiskRelevant(facts.category) ? 0 : 2) + (followed.has(address) ? 0 : 1),
      usd: newUsd.get(address) ?? 0,
    }))
    .sort((a, b) => a.rank - b.rank || b.usd - a.usd || byAddress(a.address, b.address))
    .map((entry) => entry.address);

  let nodeRoom = Math.max(0, budget.maxNodes - graph.nodes.size);
  let room = edgeRoom;
  const added: string[] = [];
  let budgetCut = false;
  if (knownEdges.length > room) {
    knownEdges.length = room;
    graph.truncated.edges = true;
    budgetCut = true;
  }
  for (const edge of knownEdges) graph.edges.push(edge); // (not push(...): a layer may hold 100,000s of edges)
  room -= knownEdges.length;
  report.newEdges += knownEdges.length;
  if (!budgetCut) {
    for (const address of ordered) {
      const edges = edgesOfNew.get(address) ?? [];
      if (nodeRoom === 0) {
        graph.truncated.nodes = true;
        budgetCut = true;
        break;
      }
      if (edges.length > room) {
        graph.truncated.edges = true;
        budgetCut = true;
        break;
      }
      const facts = newFacts.get(address) as AddressFacts;
      graph.nodes.set(address, newNode(address, newDepth.get(address) as number, facts));
      for (const edge of edges) graph.edges.push(edge);
      nodeRoom--;
      room -= edges.length;
      report.newEdges += edges.length;
      added.push(address);
    }
  }
  report.newNodes = added.length;
  for (const node of frontierNodes) node.expanded = true;

  // The next frontier.
  let stop: StopReason | undefined;
  if (budgetCut) {
    graph.frontier = [];
    stop = graph.truncated.nodes ? "nodes" : "edges";
  } else {
    graph.frontier = added.filter(
      (address) => followed.has(address) && (newDepth.get(address) as number) < graph.maxDepth,
    );
    if (graph.frontier.length === 0) stop = added.some((a) => followed.has(a)) ? "depth" : "done";
  }
  if (timeCut) {
    graph.truncated.time = true;
    stop ??= "time";
  }
  report.next = graph.frontier.length;
  sortGraph(graph);
  return finish(stop);
}
