// Test fixtures: a small builder of TxGraphs with readable names, USD amounts and deterministic transaction
// hashes, and a shuffle that reorders a graph's nodes and edges (for the determinism tests). Pure.
import type { GraphEdge, GraphNode, NodeType, TxGraph } from "../../src/risk/graph/types.ts";
import { NO_TRUNCATION } from "../../src/risk/graph/types.ts";

export const DAY = 86_400;
export const HOUR = 3_600;
/** 2024-03-01T00:00:00Z */
export const T0 = Date.UTC(2024, 2, 1) / 1000;
export const ETH_USD = 2_500;
export const USDV = "0x00000000000000000000000000000000000000d1";

/** A deterministic lowercase address for a readable name. */
export function addr(name: string): string {
  if (/^0x[0-9a-f]{40}$/.test(name)) return name; // an address already
  let hex = "";
  for (let seed = 0; hex.length < 40; seed++) {
    let h = 0x811c9dc5 ^ seed;
    for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
    hex += h.toString(16).padStart(8, "0");
  }
  return `0x${hex.slice(0, 40)}`;
}

export type TxToken = "eth" | "weth" | "usd" | "dai";

const TX_TOKENS: Record<TxToken, { address: string; symbol: string; decimals: number }> = {
  eth: { address: "native", symbol: "ETH", decimals: 18 },
  weth: { address: "0x00000000000000000000000000000000000000e1", symbol: "WETH", decimals: 18 },
  usd: { address: USDV, symbol: "USDV", decimals: 6 },
  dai: { address: "0x00000000000000000000000000000000000000d4", symbol: "DAI", decimals: 18 },
};

export interface SendOptions {
  /** "usd" (a 6-decimal stablecoin, the default) or "eth" (native, at ETH_USD) */
  token?: "usd" | "eth";
  /** exact value in the smallest unit (overrides the one derived from usd) */
  value?: bigint;
  /** USD value; null for an unpriced transfer */
  usd?: number | null;
}

export class GraphBuilder {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges: GraphEdge[] = [];
  #tx = 0;

  constructor(readonly maxDepth = 3) {}

  /** Declares (or updates) a node by name. */
  node(name: string, opts: Partial<Omit<GraphNode, "address">> & { type?: NodeType } = {}): string {
    const address = addr(name);
    const existing = this.nodes.get(address);
    this.nodes.set(address, {
      address,
      depth: 0,
      type: "eoa",
      isContract: false,
      expanded: true,
      ...existing,
      ...opts,
    });
    return address;
  }

  exchange(name: string, label = `${name}: hot wallet`): string {
    return this.node(name, { type: "exchange", category: "exchange", label });
  }

  /** A transfer of `usd` dollars from one named address to another at time `at`. */
  send(from: string, to: string, usd: number, at: number, opts: SendOptions = {}): GraphEdge {
    const eth = opts.token === "eth";
    const value =
      opts.value ??
      (eth ? BigInt(Math.round((usd / ETH_USD) * 1e9)) * 10n ** 9n : BigInt(Math.round(usd * 1e6)));
    const txHash = this.#nextTx();
    const priced = opts.usd === undefined ? usd : opts.usd;
    return this.#edge(txHash, eth ? -1 : 0, from, to, TX_TOKENS[eth ? "eth" : "usd"], value, priced, at);
  }

  /**
   * One transaction of several transfers (a swap through a router and its pools): each leg moves `usd` dollars of
   * a token ("eth" is the transaction's native value, log index -1; "weth", "usd" and "dai" are tokens priced at
   * ETH_USD, 1 and 1), in the order given, as the contracts emit them.
   */
  transaction(at: number, legs: { from: string; to: string; usd: number; token: TxToken }[]): GraphEdge[] {
    const txHash = this.#nextTx();
    let log = 0;
    return legs.map((leg) => {
      const token = TX_TOKENS[leg.token];
      const units = leg.token === "eth" || leg.token === "weth" ? leg.usd / ETH_USD : leg.usd;
      const value = BigInt(Math.round(units * 1e6)) * 10n ** BigInt(token.decimals - 6);
      const logIndex = leg.token === "eth" ? -1 : log++;
      return this.#edge(txHash, logIndex, leg.from, leg.to, token, value, leg.usd, at);
    });
  }

  #nextTx(): string {
    this.#tx++;
    return `0x${this.#tx.toString(16).padStart(64, "0")}`;
  }

  /** One transfer between named addresses (declared as EOAs when new), added to the graph. */
  #edge(
    txHash: string,
    logIndex: number,
    from: string,
    to: string,
    token: { address: string; symbol: string; decimals: number },
    value: bigint,
    usd: number | null,
    at: number,
  ): GraphEdge {
    const edge: GraphEdge = {
      id: `${txHash}:${logIndex}`,
      txHash,
      logIndex,
      from: this.nodes.has(addr(from)) ? addr(from) : this.node(from),
      to: this.nodes.has(addr(to)) ? addr(to) : this.node(to),
      token: token.address,
      symbol: token.symbol,
      decimals: token.decimals,
      value,
      usd,
      at,
      blockNumber: Math.floor((at - T0) / 12) + 19_000_000,
    };
    this.edges.push(edge);
    return edge;
  }

  build(roots: string[]): TxGraph {
    const rootAddresses = roots.map(addr);
    const depth = distances(rootAddresses, this.edges);
    const nodes = new Map<string, GraphNode>();
    for (const [a, n] of this.nodes) nodes.set(a, { ...n, depth: depth.get(a) ?? this.maxDepth });
    return {
      chainId: 1,
      roots: rootAddresses,
      nodes,
      edges: [...this.edges],
      maxDepth: this.maxDepth,
      truncated: NO_TRUNCATION,
    };
  }
}

function distances(roots: string[], edges: readonly GraphEdge[]): Map<string, number> {
  const d = new Map(roots.map((r) => [r, 0]));
  let frontier = roots;
  for (let k = 1; frontier.length > 0; k++) {
    const set = new Set(frontier);
    const next: string[] = [];
    for (const e of edges) {
      for (const [a, b] of [
        [e.from, e.to],
        [e.to, e.from],
      ] as const) {
        if (set.has(a) && !d.has(b)) {
          d.set(b, k);
          next.push(b);
        }
      }
    }
    frontier = next;
  }
  return d;
}

/** The same graph with its nodes and edges in a different (seeded) order, and addresses' case unchanged. */
export function shuffled(graph: TxGraph, seed: number): TxGraph {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const shuffle = <T>(items: T[]): T[] => {
    const a = [...items];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [a[i], a[j]] = [a[j] as T, a[i] as T];
    }
    return a;
  };
  return {
    ...graph,
    nodes: new Map(shuffle([...graph.nodes])),
    edges: shuffle(graph.edges),
    roots: shuffle(graph.roots),
  };
}
