// A read-only, canonically ordered view of a TxGraph: nodes sorted by address, edges in chronological order with
// a total tie-break, and per-address adjacency. Every detector reads the graph through it, which is what makes
// their output independent of the order of the graph's nodes and edges.
import { addressKey } from "./address-key.ts";
import {
  type Conversion,
  type ConversionParams,
  DEFAULT_CONVERSION_PARAMS,
  readConversions,
  type UnsupportedConversion,
} from "./conversions.ts";
import type { GraphEdge, GraphNode, TxGraph } from "./types.ts";

export interface GraphIndex {
  readonly graph: TxGraph;
  /** roots, lowercase, sorted */
  readonly roots: readonly string[];
  /** every node, including the endpoints of edges the graph has no node for, sorted by address */
  readonly nodes: readonly GraphNode[];
  /**
   * edges in canonical order (compareEdges), duplicates by id removed, and each conversion's transfers replaced by
   * the one edge from its payer to its recipient (graph/conversions.ts)
   */
  readonly edges: readonly GraphEdge[];
  /** the conversions read in the graph's transactions, by transaction hash */
  readonly conversions: readonly Conversion[];
  /** transactions through a protocol's contracts that do not read as a conversion, left as transfers */
  readonly unsupportedConversions: readonly UnsupportedConversion[];
  node(address: string): GraphNode;
  /** outgoing edges of an address, canonical order */
  outOf(address: string): readonly GraphEdge[];
  /** incoming edges of an address, canonical order */
  inOf(address: string): readonly GraphEdge[];
  /** "Fresh" (docs/risk-model.md): the address had no transfer before this edge. */
  isFreshAt(address: string, edge: GraphEdge): boolean;
  /** undirected hop distance from an address to every address it connects to in the graph */
  distancesFrom(address: string): ReadonlyMap<string, number>;
  /** the nodes within `maxHops` undirected hops of an address (itself included), and the edges between them */
  reach(address: string, maxHops: number): { nodes: number; edges: number };
}

/** Chronological order with a total tie-break, so that sorting never depends on the input order. */
export function compareEdges(a: GraphEdge, b: GraphEdge): number {
  return (
    a.at - b.at ||
    a.blockNumber - b.blockNumber ||
    cmp(a.txHash, b.txHash) ||
    a.logIndex - b.logIndex ||
    cmp(a.id, b.id) ||
    cmp(a.from, b.from) ||
    cmp(a.to, b.to)
  );
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const EMPTY: readonly GraphEdge[] = [];

export function indexGraph(
  graph: TxGraph,
  conversionParams: ConversionParams = DEFAULT_CONVERSION_PARAMS,
): GraphIndex {
  const edgesById = new Map<string, GraphEdge>();
  for (const e of graph.edges) {
    const normal = { ...e, from: addressKey(e.from), to: addressKey(e.to) };
    const seen = edgesById.get(e.id);
    if (!seen || compareEdges(normal, seen) < 0) edgesById.set(e.id, normal);
  }
  const nodeMap = new Map<string, GraphNode>();
  for (const [key, n] of graph.nodes) {
    const address = addressKey(n.address || key);
    nodeMap.set(address, { ...n, address });
  }
  // In canonical order a transaction's transfers are adjacent: conversions are read in one pass, and their edges
  // take their transactions' places, so the order holds.
  const reading = readConversions(
    withoutBridgedTransfers([...edgesById.values()]).sort(compareEdges),
    (address) => nodeMap.get(address),
    graph.chainId,
    conversionParams,
  );
  const edges = reading.edges;
  const out = new Map<string, GraphEdge[]>();
  const inc = new Map<string, GraphEdge[]>();
  const firstAt = new Map<string, number>();
  for (const e of edges) {
    push(out, e.from, e);
    push(inc, e.to, e);
    for (const a of [e.from, e.to]) {
      if (!nodeMap.has(a)) nodeMap.set(a, placeholder(a));
      const f = firstAt.get(a);
      if (f === undefined || e.at < f) firstAt.set(a, e.at);
    }
  }
  const nodes = [...nodeMap.values()].sort((a, b) => cmp(a.address, b.address));
  const distanceCache = new Map<string, Distances>();
  // The undirected adjacency as integer arrays, built on the first distance query: a multi-root scan asks for the
  // distances of every root over the same graph (tens of thousands of edges), and a BFS over typed arrays does
  // not hash an address per edge.
  let adjacency: Adjacency | undefined;
  const distancesOf = (address: string): Distances => {
    let d = distanceCache.get(address);
    if (!d) {
      adjacency ??= undirected(edges);
      d = new Distances(address, adjacency);
      distanceCache.set(address, d);
    }
    return d;
  };

  return {
    graph,
    roots: [...new Set(graph.roots.map(addressKey))].sort(cmp),
    nodes,
    edges,
    conversions: reading.conversions,
    unsupportedConversions: reading.unsupported,
    node: (address) => nodeMap.get(address) ?? placeholder(address),
    outOf: (address) => out.get(address) ?? EMPTY,
    inOf: (address) => inc.get(address) ?? EMPTY,
    isFreshAt(address, edge) {
      const known = nodeMap.get(address)?.firstSeenAt;
      if (known !== undefined) return known >= edge.at;
      return (firstAt.get(address) ?? edge.at) >= edge.at;
    },
    distancesFrom: distancesOf,
    reach: (address, maxHops) => distancesOf(address).reach(maxHops),
  };
}

/**
 * The edges without the transfers a bridge crossing stands for (types.ts BridgeVia): in the deposit's transaction
 * the depositor's payment of the deposited amount (in the token, or in the native coin a bridge wraps), in the
 * delivery's the recipient's receipt of the delivered amount (from a relayer, or a mint). The crossing's edge
 * carries that value from the one to the other; left in, the deposit would read as a payment to the bridge and the
 * delivery as one from its relayer, and the same value would be counted twice. Other transfers of those
 * transactions (a batch that also pays somebody else) stay.
 */
function withoutBridgedTransfers(edges: GraphEdge[]): GraphEdge[] {
  let standsFor: Set<string> | undefined;
  for (const e of edges) {
    if (!e.bridge) continue;
    standsFor ??= new Set();
    standsFor.add(`${e.bridge.depositTx}>${e.from}:${e.bridge.given.value}`);
    standsFor.add(`${e.txHash}<${e.to}:${e.value}`);
  }
  if (!standsFor) return edges;
  const drop = standsFor;
  return edges.filter(
    (e) =>
      e.bridge !== undefined ||
      (!drop.has(`${e.txHash}>${e.from}:${e.value}`) && !drop.has(`${e.txHash}<${e.to}:${e.value}`)),
  );
}

/** The conversions of a graph (graph/conversions.ts) without the rest of an index: what the viewer draws. */
export function conversionsOf(
  graph: TxGraph,
  params: ConversionParams = DEFAULT_CONVERSION_PARAMS,
): readonly Conversion[] {
  const nodes = new Map<string, GraphNode>();
  for (const [key, n] of graph.nodes) nodes.set(addressKey(n.address || key), n);
  const edges = graph.edges.map((e) => ({ ...e, from: addressKey(e.from), to: addressKey(e.to) }));
  return readConversions(
    withoutBridgedTransfers(edges).sort(compareEdges),
    (a) => nodes.get(a),
    graph.chainId,
    params,
  ).conversions;
}

function push(map: Map<string, GraphEdge[]>, key: string, e: GraphEdge): void {
  const list = map.get(key);
  if (list) list.push(e);
  else map.set(key, [e]);
}

function placeholder(address: string): GraphNode {
  return { address, depth: Number.POSITIVE_INFINITY, type: "unknown", isContract: false, expanded: false };
}

/**
 * Compressed sparse rows: the neighbours of address ids[i] are ids[to[k]] for start[i] <= k < start[i + 1]; and
 * each edge's endpoints as ids (edgeFrom, edgeTo), for counting the edges inside a neighbourhood.
 */
interface Adjacency {
  ids: string[];
  idOf: Map<string, number>;
  start: Int32Array;
  to: Int32Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
}

function undirected(edges: readonly GraphEdge[]): Adjacency {
  const idOf = new Map<string, number>();
  const ids: string[] = [];
  const id = (a: string) => {
    let i = idOf.get(a);
    if (i === undefined) {
      i = ids.length;
      idOf.set(a, i);
      ids.push(a);
    }
    return i;
  };
  const from = new Int32Array(edges.length);
  const to = new Int32Array(edges.length);
  const degree: number[] = [];
  edges.forEach((e, k) => {
    const a = id(e.from);
    const b = id(e.to);
    from[k] = a;
    to[k] = b;
    degree[a] = (degree[a] ?? 0) + 1;
    degree[b] = (degree[b] ?? 0) + 1;
  });
  const start = new Int32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) start[i + 1] = (start[i] as number) + (degree[i] ?? 0);
  const fill = start.slice(0, ids.length);
  const list = new Int32Array(start[ids.length] as number);
  for (let k = 0; k < edges.length; k++) {
    const a = from[k] as number;
    const b = to[k] as number;
    list[(fill[a] as number)++] = b;
    list[(fill[b] as number)++] = a;
  }
  return { ids, idOf, start, to: list, edgeFrom: from, edgeTo: to };
}

/**
 * The hop distances from one address, as a read-only map over a typed array: a 50-root scan asks for the
 * distances of every root over a graph of 10,000s of nodes, and a Map entry per reached node per root cost more
 * than the breadth-first search itself.
 */
class Distances implements ReadonlyMap<string, number> {
  /** hop distance by address id; -1 where the address is not reached */
  readonly #hops: Int32Array;
  readonly #g: Adjacency;
  readonly #start: string;
  readonly size: number;

  constructor(startAddress: string, g: Adjacency) {
    this.#g = g;
    this.#start = startAddress;
    const hops = new Int32Array(g.ids.length).fill(-1);
    this.#hops = hops;
    const s = g.idOf.get(startAddress);
    if (s === undefined) {
      this.size = 1;
      return;
    }
    hops[s] = 0;
    let reached = 1;
    let frontier = [s];
    for (let d = 1; frontier.length > 0; d++) {
      const next: number[] = [];
      for (const a of frontier) {
        for (let k = g.start[a] as number, end = g.start[a + 1] as number; k < end; k++) {
          const b = g.to[k] as number;
          if (hops[b] !== -1) continue;
          hops[b] = d;
          next.push(b);
          reached++;
        }
      }
      frontier = next;
    }
    this.size = reached;
  }

  get(address: string): number | undefined {
    const i = this.#g.idOf.get(address);
    if (i === undefined) return address === this.#start ? 0 : undefined;
    const d = this.#hops[i] as number;
    return d === -1 ? undefined : d;
  }

  has(address: string): boolean {
    return this.get(address) !== undefined;
  }

  reach(maxHops: number): { nodes: number; edges: number } {
    const hops = this.#hops;
    const within = (i: number) => {
      const d = hops[i] as number;
      return d !== -1 && d <= maxHops;
    };
    let nodes = 0;
    for (let i = 0; i < hops.length; i++) if (within(i)) nodes++;
    let edges = 0;
    const { edgeFrom, edgeTo } = this.#g;
    for (let k = 0; k < edgeFrom.length; k++)
      if (within(edgeFrom[k] as number) && within(edgeTo[k] as number)) edges++;
    return { nodes: Math.max(1, nodes), edges };
  }

  *entries(): MapIterator<[string, number]> {
    if (!this.#g.idOf.has(this.#start)) {
      yield [this.#start, 0];
      return;
    }
    for (let i = 0; i < this.#hops.length; i++) {
      const d = this.#hops[i] as number;
      if (d !== -1) yield [this.#g.ids[i] as string, d];
    }
  }

  *keys(): MapIterator<string> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<number> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(fn: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
}

/** Binary search: index of the first edge of a chronologically sorted list with `at >= t`. */
export function firstAtOrAfter(edges: readonly GraphEdge[], t: number): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((edges[mid] as GraphEdge).at < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
