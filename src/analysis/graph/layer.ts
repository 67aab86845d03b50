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
//
// Written for layers of 10,000s of rows: each row is looked at once; a row becomes a graph edge (with its BigInt
// amount) only when its edge is admitted, and a counterparty a node only when it is admitted; sorting is done only
// where a budget makes the order matter; and the graph, sorted on entry, is kept sorted by merging the layer's
// sorted nodes and edges into it instead of sorting everything again.
import type { Kysely } from "kysely";
import type { AddressFacts } from "../../ledger/index.ts";
import { type LayerRow, readLayer, toFacts, usdValue } from "../../ledger/index.ts";
import {
  chainKey,
  compareEdges,
  type GraphEdge,
  type GraphNode,
  type NodeType,
  splitChainKey,
} from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import { type BridgeReport, readLayerBridges } from "./bridge-reads.ts";
import { type ConversionReport, readLayerConversions } from "./conversion-reads.ts";
import { emptyHistoryReport, ensureHistories, type HistoryReport } from "./history.ts";
import { isRiskRelevant, nodeTypeOf } from "./node-types.ts";
import { type ExpandingGraph, type ExpansionOverrides, resolveOptions } from "./options.ts";

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
  /** transfers read per frontier address and direction at most (0 when the layer stopped before reading) */
  cap: number;
  newNodes: number;
  newEdges: number;
  /** addresses of the next frontier */
  next: number;
  /** frontier addresses that had only their top counterparties by USD followed */
  degreeLimited: string[];
  /** frontier addresses with more transfers than the per-address cap: only the newest were read */
  capped: string[];
  /** new counterparties reached but not followed because they are busy (options.busyTransfers) */
  busy: string[];
  /** new counterparties reached but not followed because their path share fell below options.minPathShare */
  diluted: number;
  /** new counterparties reached but not followed because they are crowded for their share (options.crowdedTransfers) */
  crowded: string[];
  history: HistoryReport;
  /** the swaps through contracts read whole in this layer (conversion-reads.ts) */
  conversions?: ConversionReport;
  /** the bridge crossings of the frontier read in this layer (bridge-reads.ts) */
  bridges?: BridgeReport;
  ms: number;
  /** of `ms`, the layer's statement as the caller sees it: the database, the wire and the driver's decoding */
  readMs: number;
  /** set when the expansion ends with this layer, and why */
  stop?: StopReason;
}

const byAddress = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

function isSorted<T>(list: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < list.length; i++) if (compare(list[i - 1] as T, list[i] as T) > 0) return false;
  return true;
}

/** Merges two sorted lists into a new sorted one (stable: `a` first on ties). */
function merge<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): T[] {
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    if (compare(b[j] as T, a[i] as T) < 0) out[k++] = b[j++] as T;
    else out[k++] = a[i++] as T;
  }
  while (i < a.length) out[k++] = a[i++] as T;
  while (j < b.length) out[k++] = b[j++] as T;
  return out;
}

/**
 * Adds a layer's nodes and edges to the graph and leaves it sorted as sortGraph would: the graph's own lists are
 * sorted already (sortGraph ran after the previous layer, or here they are sorted first), so the layer's sorted
 * lists are merged in.
 */
function addSorted(graph: ExpandingGraph, nodes: GraphNode[], edges: GraphEdge[], frontier: string[]): void {
  if (!isSorted(graph.edges, compareEdges)) graph.edges.sort(compareEdges);
  edges.sort(compareEdges);
  const lastEdge = graph.edges[graph.edges.length - 1];
  if (lastEdge === undefined || edges.length === 0 || compareEdges(lastEdge, edges[0] as GraphEdge) <= 0) {
    for (const edge of edges) graph.edges.push(edge); // (not push(...): a layer may hold 100,000s of edges)
  } else {
    graph.edges = merge(graph.edges, edges, compareEdges);
  }
  const existing = [...graph.nodes.values()];
  const inOrder = isSorted(existing, compareNodes);
  if (!inOrder) existing.sort(compareNodes);
  nodes.sort(compareNodes);
  const lastNode = existing[existing.length - 1];
  if (lastNode === undefined || nodes.length === 0 || compareNodes(lastNode, nodes[0] as GraphNode) <= 0) {
    // A BFS layer's nodes are one deeper than every node before them: appended to the map, they stay in order.
    if (!inOrder) graph.nodes = new Map(existing.map((n) => [n.address, n]));
    for (const node of nodes) graph.nodes.set(node.address, node);
  } else {
    graph.nodes = new Map(merge(existing, nodes, compareNodes).map((n) => [n.address, n]));
  }
  graph.frontier = [...new Set(frontier)].sort(byAddress);
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
  if (facts.inferred) node.inferred = true;
  if (facts.bridged) node.bridged = true;
  return node;
}

/**
 * What the layer learns of a counterparty the graph does not hold yet. Most are seen on one row with one frontier
 * address, so the common case allocates nothing beyond this record.
 */
interface NewCounterparty {
  /** its first row: its facts, and its first transfer */
  first: LayerRow;
  /** its other transfers, when it has more than one */
  more: LayerRow[] | undefined;
  type: NodeType;
  depth: number;
  /** USD of its transfers with the frontier */
  usd: number;
  /** the frontier address (index) of its first row, and its transfers with that one: USD and how many */
  fi: number;
  fiUsd: number;
  fiRows: number;
  /** frontier address (index) -> its transfers with it, for the other frontier addresses it transferred with */
  otherFlows: Map<number, Flow> | undefined;
  /** followed to the next layer (if admitted) */
  followed: boolean;
}

/** A new counterparty's transfers with one frontier address. */
interface Flow {
  usd: number;
  rows: number;
}

/** The ledger's USD value of a row (usdValue), with the chain's native decimals for the native coin. */
function usdOf(row: LayerRow, native: { decimals: number }): number | null {
  return usdValue(row.value, row.token === "native" ? native.decimals : row.decimals, row.price_usd);
}

const edgeId = (row: LayerRow) => `${row.tx_hash}:${row.log_index}`;

function toEdge(row: LayerRow, frontier: string, native: { symbol: string; decimals: number }): GraphEdge {
  const isNative = row.token === "native";
  const decimals = isNative ? native.decimals : row.decimals;
  return {
    id: edgeId(row),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    from: row.out ? frontier : row.cp,
    to: row.out ? row.cp : frontier,
    token: row.token,
    symbol: isNative ? native.symbol : (row.symbol ?? "UNKNOWN"),
    decimals: decimals ?? 0,
    value: BigInt(row.value),
    usd: usdOf(row, native),
    at: Number(row.at),
    blockNumber: Number(row.block_number),
  };
}

const factsOf = (row: LayerRow): AddressFacts =>
  toFacts({
    known: row.cp_known,
    is_contract: row.cp_is_contract,
    first_seen_at: row.cp_first_seen_at,
    label: row.cp_label,
    category: row.cp_category,
    inferred: row.cp_inferred,
    transfers: row.cp_transfers,
    bridged: row.cp_bridged,
  });

/**
 * Expands `graph.frontier` by one hop, in place. A frontier that bridge crossings spread over several chains is
 * expanded one chain after another (the graph's own first), each part read on its own chain, within the same
 * budgets and deadline; a part cut by a budget ends the layer as a cut layer does.
 */
export async function expandLayer(
  db: Kysely<DB>,
  graph: ExpandingGraph,
  layerOptions: LayerOptions = {},
): Promise<LayerReport> {
  const home = graph.chainId;
  const parts = new Map<number, string[]>();
  for (const key of new Set(graph.frontier)) {
    const { chainId } = splitChainKey(key, home);
    const part = parts.get(chainId);
    if (part) part.push(key);
    else parts.set(chainId, [key]);
  }
  if (parts.size <= 1) return expandChainLayer(db, graph, parts.keys().next().value ?? home, layerOptions);
  const options = resolveOptions(layerOptions);
  const deadline = layerOptions.deadline ?? options.now() + options.budget.maxMillis;
  const ordered = [...parts].sort(([a], [b]) => (a === home ? -1 : b === home ? 1 : a - b));
  const shares = graph.frontierShares;
  const next: string[] = [];
  const nextShares: Record<string, number> = {};
  const reports: LayerReport[] = [];
  for (const [i, [chainId, keys]] of ordered.entries()) {
    graph.frontier = keys;
    graph.frontierShares = shares;
    const report = await expandChainLayer(db, graph, chainId, { ...layerOptions, deadline });
    reports.push(report);
    next.push(...graph.frontier);
    Object.assign(nextShares, graph.frontierShares ?? {});
    if (report.stop === "nodes" || report.stop === "edges") {
      next.length = 0;
      break;
    }
    if (report.stop === "time") {
      // The parts not reached go on as they were, with their path shares.
      for (const [, rest] of ordered.slice(i + 1)) {
        next.push(...rest);
        for (const key of rest) if (shares?.[key] !== undefined) nextShares[key] = shares[key];
      }
      break;
    }
  }
  graph.frontier = [...new Set(next)].sort(byAddress);
  graph.frontierShares = nextShares;
  return mergeReports(reports, graph.frontier.length);
}

/** The report of a layer expanded one chain at a time: the parts' figures added up. */
function mergeReports(reports: LayerReport[], next: number): LayerReport {
  const [first, ...rest] = reports as [LayerReport, ...LayerReport[]];
  const merged: LayerReport = { ...first, history: { ...first.history } };
  for (const r of rest) {
    merged.depth = Math.min(merged.depth, r.depth);
    merged.frontier += r.frontier;
    merged.statements += r.statements;
    merged.transfersRead += r.transfersRead;
    merged.cap = Math.max(merged.cap, r.cap);
    merged.newNodes += r.newNodes;
    merged.newEdges += r.newEdges;
    merged.degreeLimited = [...merged.degreeLimited, ...r.degreeLimited].sort(byAddress);
    merged.capped = [...merged.capped, ...r.capped].sort(byAddress);
    merged.busy = [...merged.busy, ...r.busy].sort(byAddress);
    merged.diluted += r.diluted;
    merged.crowded = [...merged.crowded, ...r.crowded].sort(byAddress);
    merged.history = {
      ensured: merged.history.ensured + r.history.ensured,
      incomplete: [...merged.history.incomplete, ...r.history.incomplete],
      failed: [...merged.history.failed, ...r.history.failed],
      skipped: [...merged.history.skipped, ...r.history.skipped],
      records: [...merged.history.records, ...r.history.records],
    };
    if (r.conversions) merged.conversions ??= r.conversions;
    if (r.bridges) {
      merged.bridges = merged.bridges
        ? {
            statements: merged.bridges.statements + r.bridges.statements,
            crossings: merged.bridges.crossings + r.bridges.crossings,
            gaps: merged.bridges.gaps + r.bridges.gaps,
          }
        : r.bridges;
    }
    merged.ms += r.ms;
    merged.readMs += r.readMs;
  }
  merged.next = next;
  const cut = reports.find((r) => r.stop === "nodes" || r.stop === "edges" || r.stop === "time")?.stop;
  if (cut) merged.stop = cut;
  else if (next > 0) delete merged.stop;
  else merged.stop = reports.some((r) => r.stop === "depth") ? "depth" : "done";
  return merged;
}

/** Expands the part of the frontier on one chain (`chainId`: the graph's own, or one a bridge reached). */
async function expandChainLayer(
  db: Kysely<DB>,
  graph: ExpandingGraph,
  chainId: number,
  layerOptions: LayerOptions,
): Promise<LayerReport> {
  const options = resolveOptions(layerOptions);
  const foreign = chainId !== graph.chainId;
  const { budget, now, signal } = options;
  signal?.throwIfAborted();
  const started = now();
  const deadline = layerOptions.deadline ?? started + budget.maxMillis;
  const frontier = [...new Set(graph.frontier)].sort(byAddress);
  // The store knows the addresses of another chain by their own address (chain-keys.ts).
  const addresses = foreign ? frontier.map((key) => splitChainKey(key, graph.chainId).address) : frontier;
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
    cap: 0,
    newNodes: 0,
    newEdges: 0,
    next: 0,
    degreeLimited: [],
    capped: [],
    busy: [],
    diluted: 0,
    crowded: [],
    history: emptyHistoryReport(),
    ms: 0,
    readMs: 0,
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
  if (options.history?.hasExplorer(chainId)) {
    const history = await ensureHistories(options.history, chainId, addresses, graph.window ?? {}, {
      concurrency: options.historyConcurrency,
      deadline,
      now,
      signal,
    });
    signal?.throwIfAborted();
    const { timedOut, ...historyReport } = history;
    report.history = historyReport;
    if (timedOut) timeCut = true;
  }

  // 3. The layer's one statement.
  const edgeRoom = Math.max(0, budget.maxEdges - graph.edges.length);
  // The cap also keeps a whole layer within maxLayerRows (both directions of every frontier address); the
  // statement's own LIMIT is the hard bound behind it, for ties at the cut or a frontier too wide for a cap of 1.
  const cap = Math.min(
    options.maxTransfersPerAddress,
    Math.max(MIN_TRANSFERS_PER_ADDRESS, Math.ceil((READ_AHEAD * edgeRoom) / frontier.length)),
    Math.max(1, Math.floor(options.maxLayerRows / (2 * frontier.length))),
  );
  const readStarted = now();
  const read = await readLayer(
    db,
    {
      chainId,
      frontier: addresses,
      window: graph.window ?? {},
      cap,
      rowLimit: options.maxLayerRows,
      // A DEX pool the store does not know as a contract is still busy: asked whether its transfer is a swap's leg.
      probeTransfers: options.maxConversionTxs > 0 ? options.crowdedTransfers : undefined,
    },
    { coalescing: options.coalescing, asJson: options.jsonRows },
  );
  report.readMs = now() - readStarted;
  signal?.throwIfAborted();
  // Copies: a coalesced read hands the same rows to every concurrent caller (ledger ReadCoalescing).
  const rows = foreign
    ? read.rows.map((row) => ({ ...row, cp: chainKey(row.cp, chainId, graph.chainId) }))
    : read.rows;
  report.statements = 1;
  report.transfersRead = rows.length;
  report.cap = cap;
  // Rows the limit left out are missing from some frontier addresses' flows: the graph is cut here, as when the
  // edge budget is spent (what is read is kept; nothing is expanded further).
  const rowCut = rows.length >= options.maxLayerRows;
  if (rowCut) graph.truncated.edges = true;

  // 4. What the rows say, per frontier address and per counterparty, in one pass. (readLayer keeps the order of
  //    the frontier it is given, deduplicated and sorted here: row.i - 1 indexes `frontier`.)
  const native = foreign ? (options.natives[chainId] ?? options.native) : options.native;
  const outCount = new Array<number>(frontier.length).fill(0);
  const inCount = new Array<number>(frontier.length).fill(0);
  /** USD of every transfer read of each frontier address (the denominators of the path shares) */
  const usdTotal = new Array<number>(frontier.length).fill(0);
  /** transfers between nodes the graph holds already (a self-transfer, or with a node of an earlier layer) */
  const knownRows: LayerRow[] = [];
  // Only those can be in the graph already, or come back twice (once per side): a transfer with a new
  // counterparty is neither, so only these rows need their id.
  let existing: Set<string> | undefined;
  const seen = new Set<string>();
  const fresh = new Map<string, NewCounterparty>();
  /** transactions with more transfers than the one read, of transfers with contracts and defi addresses */
  const multiTx = new Set<string>();
  for (const row of rows) {
    if (row.tx_more) multiTx.add(row.tx_hash);
    const fi = row.i - 1;
    if (row.out) outCount[fi] = (outCount[fi] as number) + 1;
    else inCount[fi] = (inCount[fi] as number) + 1;
    const cp = row.cp;
    if (graph.nodes.has(cp)) {
      usdTotal[fi] = (usdTotal[fi] as number) + (usdOf(row, native) ?? 0);
      if (!existing) {
        existing = new Set();
        const inFrontier = new Set(frontier);
        for (const e of graph.edges) if (inFrontier.has(e.from) || inFrontier.has(e.to)) existing.add(e.id);
      }
      const id = edgeId(row);
      if (!existing.has(id) && !seen.has(id)) {
        seen.add(id);
        knownRows.push(row);
      }
      continue;
    }
    const usd = usdOf(row, native) ?? 0;
    usdTotal[fi] = (usdTotal[fi] as number) + usd;
    const entry = fresh.get(cp);
    if (!entry) {
      const type = nodeTypeOf({
        known: row.cp_known,
        isContract: row.cp_is_contract,
        firstSeenAt: undefined,
        label: undefined,
        category: row.cp_category ?? undefined,
        inferred: false,
        transfers: 0,
        bridged: false,
      });
      fresh.set(cp, {
        first: row,
        more: undefined,
        type,
        depth: (frontierNodes[fi] as GraphNode).depth + 1,
        usd,
        fi,
        fiUsd: usd,
        fiRows: 1,
        otherFlows: undefined,
        followed: false,
      });
      continue;
    }
    if (entry.more) entry.more.push(row);
    else entry.more = [row];
    entry.usd += usd;
    if (entry.fi === fi) {
      entry.fiUsd += usd;
      entry.fiRows++;
    } else {
      entry.otherFlows ??= new Map();
      const flow = entry.otherFlows.get(fi);
      if (flow) {
        flow.usd += usd;
        flow.rows++;
      } else entry.otherFlows.set(fi, { usd, rows: 1 });
      entry.depth = Math.min(entry.depth, (frontierNodes[fi] as GraphNode).depth + 1);
    }
  }
  for (const [fi, address] of frontier.entries()) {
    if ((outCount[fi] as number) < cap && (inCount[fi] as number) < cap) continue;
    report.capped.push(address);
    if (cap < options.maxTransfersPerAddress) graph.truncated.edges = true;
    else graph.truncated.degree = true;
  }
  report.capped.sort(byAddress);

  // 5. Which new counterparties are followed to the next layer: per frontier address, those whose type does not
  //    end a path, and beyond the degree limit only the top ones by the USD of their transfers with it.
  const expandable: ([NewCounterparty, string, number][] | undefined)[] = new Array(frontier.length);
  const offer = (fi: number, entry: NewCounterparty, cp: string, usd: number) => {
    const list = expandable[fi];
    if (list) list.push([entry, cp, usd]);
    else expandable[fi] = [[entry, cp, usd]];
  };
  // The share of a path: at most what a counterparty's transfers with a frontier address are of all that
  // address's transfers read (by USD or by count, whichever is larger: unpriced tokens still count), times the
  // frontier address's own share (1 for a root). Any value traced from the counterparty to the roots along that
  // path is at most that share of it.
  const frontierShares = frontier.map((address) => graph.frontierShares?.[address] ?? 1);
  const linkShare = (fi: number, usd: number, rows: number) => {
    const total = usdTotal[fi] as number;
    const byUsd = total > 0 ? usd / total : 0;
    const byCount = rows / ((outCount[fi] as number) + (inCount[fi] as number));
    return (frontierShares[fi] as number) * Math.max(byUsd, byCount);
  };
  const shares = new Map<NewCounterparty, number>();
  for (const [cp, entry] of fresh) {
    if (options.terminalTypes.has(entry.type)) continue;
    // A busy address dilutes any share traced through it below what exposure counts (docs/decisions/0019): it is
    // reached, with its transfers with the frontier, and its own history is never read.
    if (entry.first.cp_transfers >= options.busyTransfers) {
      report.busy.push(cp);
      continue;
    }
    let share = linkShare(entry.fi, entry.fiUsd, entry.fiRows);
    if (entry.otherFlows)
      for (const [fi, flow] of entry.otherFlows) share = Math.max(share, linkShare(fi, flow.usd, flow.rows));
    // Diluted along the way: nothing it passes on could reach the roots as a share exposure counts.
    if (share < options.minPathShare) {
      report.diluted++;
      continue;
    }
    // Crowded: its own counterparties would share what of it reaches the roots with hundreds of others
    // (docs/decisions/0031). Reached, with its transfers with the frontier, not expanded.
    const transfers = entry.first.cp_transfers;
    if (transfers >= options.crowdedTransfers && share * options.busyTransfers < transfers) {
      report.crowded.push(cp);
      continue;
    }
    shares.set(entry, share);
    offer(entry.fi, entry, cp, entry.fiUsd);
    if (entry.otherFlows) for (const [fi, flow] of entry.otherFlows) offer(fi, entry, cp, flow.usd);
  }
  report.busy.sort(byAddress);
  report.crowded.sort(byAddress);
  for (const [fi, address] of frontier.entries()) {
    const list = expandable[fi];
    if (!list) continue;
    if (list.length > options.degreeLimit) {
      list.sort(([, a, usdA], [, b, usdB]) => usdB - usdA || byAddress(a, b));
      list.length = options.degreeLimit;
      report.degreeLimited.push(address);
      graph.truncated.degree = true;
    }
    for (const [entry] of list) entry.followed = true;
  }

  // 4 (cont.). Within the budgets: edges between known nodes first, then new nodes in priority order, each
  // with all its edges, until the next one no longer fits.
  const edgeOf = (row: LayerRow) => toEdge(row, frontier[row.i - 1] as string, native);
  let nodeRoom = Math.max(0, budget.maxNodes - graph.nodes.size);
  let room = edgeRoom;
  const addedEdges: GraphEdge[] = [];
  const addedNodes: GraphNode[] = [];
  const added: NewCounterparty[] = [];
  let budgetCut = false;
  let known = knownRows.map(edgeOf);
  if (known.length > room) {
    known = known.sort(compareEdges).slice(0, room);
    graph.truncated.edges = true;
    budgetCut = true;
  }
  for (const edge of known) addedEdges.push(edge);
  room -= known.length;
  report.newEdges += known.length;
  if (!budgetCut) {
    let freshEdges = 0;
    for (const entry of fresh.values()) freshEdges += 1 + (entry.more?.length ?? 0);
    // The order only matters when not every new node fits.
    let ordered = [...fresh];
    if (fresh.size > nodeRoom || freshEdges > room) {
      const rank = ([, entry]: [string, NewCounterparty]) =>
        (isRiskRelevant(entry.first.cp_category ?? undefined) ? 0 : 2) + (entry.followed ? 0 : 1);
      ordered = ordered
        .map((item) => ({ item, rank: rank(item) }))
        .sort((a, b) => a.rank - b.rank || b.item[1].usd - a.item[1].usd || byAddress(a.item[0], b.item[0]))
        .map(({ item }) => item);
    }
    for (const [address, entry] of ordered) {
      const edges = 1 + (entry.more?.length ?? 0);
      if (nodeRoom === 0) {
        graph.truncated.nodes = true;
        budgetCut = true;
        break;
      }
      if (edges > room) {
        graph.truncated.edges = true;
        budgetCut = true;
        break;
      }
      addedNodes.push(newNode(address, entry.depth, factsOf(entry.first)));
      addedEdges.push(edgeOf(entry.first));
      if (entry.more) for (const row of entry.more) addedEdges.push(edgeOf(row));
      nodeRoom--;
      room -= edges;
      report.newEdges += edges;
      added.push(entry);
    }
  }
  report.newNodes = added.length;
  for (const node of frontierNodes) node.expanded = true;

  // The next frontier.
  let stop: StopReason | undefined;
  const next: string[] = [];
  /** the path shares of the next frontier (1, the default, is left out) */
  const nextShares: Record<string, number> = {};
  if (budgetCut || rowCut) {
    stop = budgetCut && graph.truncated.nodes ? "nodes" : "edges";
  } else {
    for (const entry of added) {
      if (!entry.followed || entry.depth >= graph.maxDepth) continue;
      next.push(entry.first.cp);
      const share = shares.get(entry) as number; // set for every followed counterparty
      if (share < 1) nextShares[entry.first.cp] = share;
    }
    // Swaps through contracts: their other legs, and the other party of each conversion as a counterparty. (On
    // a chain a bridge reached, transfers are followed and swaps are not read whole.)
    const conversionStarted = now();
    if (!foreign) {
      report.conversions = await readLayerConversions(
        db,
        graph,
        { frontier, nodes: addedNodes, edges: addedEdges, next, busy: report.busy, multiTx },
        options,
        newNode,
      );
      report.statements += report.conversions.statements;
    }
    // Bridge crossings: the other end of each, on its own chain, as a counterparty.
    const position = new Map(frontier.map((key, fi) => [key, fi]));
    report.bridges = await readLayerBridges(
      db,
      graph,
      {
        chainId,
        frontier,
        nodes: addedNodes,
        edges: addedEdges,
        next,
        nextShares,
        frontierShare: (key) => frontierShares[position.get(key) ?? -1] ?? 1,
        frontierUsd: (key) => usdTotal[position.get(key) ?? -1] ?? 0,
      },
      options,
      newNode,
    );
    report.statements += report.bridges.statements;
    report.readMs += now() - conversionStarted;
    report.newNodes = addedNodes.length;
    report.newEdges = addedEdges.length;
    if (next.length === 0) stop = added.some((entry) => entry.followed) ? "depth" : "done";
  }
  graph.frontierShares = nextShares;
  if (timeCut) {
    graph.truncated.time = true;
    stop ??= "time";
  }
  addSorted(graph, addedNodes, addedEdges, next);
  report.next = graph.frontier.length;
  return finish(stop);
}
