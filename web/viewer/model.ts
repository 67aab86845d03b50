// What the viewer knows of an investigation's analysis, built up one layer result at a time: the nodes, the
// transfers aggregated per direction between two addresses (one drawn edge per pair, weighted by the sum of their
// value), and per layer the provisional score and the pattern changes. No DOM here, so it is unit-tested in Node
// (test/viewer/model.test.ts).
//
// Each completed layer is synced from its `cumulativeGraph`, not by appending `newNodes`/`newEdges`: a layer that
// was skipped (the page opened mid-analysis, a poll missed) or fetched out of order then still leaves the drawn
// graph equal to the server's, which is what the officer must be able to trust.
import { formatAmount } from "./format.ts";
import { formatUsd, t } from "./i18n.ts";
import {
  type CompletedLayer,
  type ExposurePath,
  type LayerPattern,
  NODE_TYPES,
  type NodeType,
  type WireBridge,
  type WireConversion,
  type WireGraph,
} from "./types.ts";

export interface NodeState {
  address: string;
  type: NodeType;
  label: string | undefined;
  /** the label set its label comes from, when the server says */
  labelSource: string | undefined;
  category: string | undefined;
  /** its label and type are the service's inference (an exchange deposit address), not a label set's */
  inferred: boolean;
  /** hop distance from the root (the layer that found it when the server gives no depth) */
  depth: number;
  /** the layer at which the viewer first saw it */
  layer: number;
  isRoot: boolean;
}

export interface EdgeState {
  /** `${from}->${to}` */
  id: string;
  from: string;
  to: string;
  /** transfers aggregated into this edge */
  count: number;
  /** sum of the transfers' USD values that have one */
  usd: number;
  /** transfers with a USD value */
  pricedCount: number;
  /** raw amounts summed per token symbol, for transfers without a USD value */
  rawBySymbol: Map<string, bigint>;
  /** a few transaction hashes, for the details panel */
  txHashes: string[];
  /** every transfer aggregated into this edge, in the server's order (the details panel lists them) */
  transfers: Transfer[];
  layer: number;
  /** the edge stands for conversions (swaps paid by `from` to `to`): their protocols and legs */
  conversion?: WireConversion;
  /** the edge stands for bridge crossings (value deposited by `from` on one chain, delivered to `to` on another) */
  bridge?: WireBridge;
}

/** One transfer as the details panel shows it. */
export interface Transfer {
  txHash: string | undefined;
  from: string;
  to: string;
  /** raw amount in the token's smallest unit */
  value: bigint;
  /** the token's decimals, when the server says */
  decimals: number | undefined;
  symbol: string;
  usd: number | null;
  /** ISO 8601, when the server says */
  timestamp: string | undefined;
}

export interface LayerSummary {
  layer: number;
  /** null: the layer withheld its verdict for want of current data (its riskReason says why) */
  riskScore: number | null;
  /** the API's level of the score; undefined from a server that does not send it or when withheld */
  riskLevel: string | undefined;
  riskReason: string;
  /** the root's exposure as paths (empty from a server that does not send it) */
  exposure: ExposurePath[];
  isProvisional: boolean;
  detectedPatterns: LayerPattern[];
  newPatterns: LayerPattern[];
  removedPatterns: LayerPattern[];
  totalNodes: number;
  totalEdges: number;
}

export interface LayerChange {
  addedNodes: NodeState[];
  /** earlier nodes whose type or label changed (a service recognised at a later layer) */
  updatedNodes: NodeState[];
  addedEdges: EdgeState[];
  /** edges that existed and gained transfers */
  changedEdges: EdgeState[];
}

const MAX_TX_HASHES = 5;

export const normaliseType = (type: unknown): NodeType =>
  NODE_TYPES.includes(type as NodeType) ? (type as NodeType) : "unknown";

const parseRaw = (value: unknown): bigint => {
  try {
    return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : 0n;
  } catch {
    return 0n;
  }
};

export class InvestigationGraph {
  readonly nodes = new Map<string, NodeState>();
  readonly edges = new Map<string, EdgeState>();
  readonly layers: LayerSummary[] = [];
  rootAddress: string | undefined;
  /** the transfers behind the drawn edges (the cumulative graph's edge count) */
  transferCount = 0;

  /** Layer indices below `completedLayers` not applied yet, lowest first. */
  missingLayers(completedLayers: number): number[] {
    const have = new Set(this.layers.map((l) => l.layer));
    const missing: number[] = [];
    for (let i = 0; i < completedLayers; i++) if (!have.has(i)) missing.push(i);
    return missing;
  }

  hasLayer(layer: number): boolean {
    return this.layers.some((l) => l.layer === layer);
  }

  /** The latest applied layer (highest index). */
  get latest(): LayerSummary | undefined {
    return this.layers[this.layers.length - 1];
  }

  /** Applies a completed layer; returns what it added to the drawing. */
  applyLayer(result: CompletedLayer): LayerChange {
    const graph = result.cumulativeGraph;
    if (!graph?.nodes) throw new Error(`Layer ${result.layer} has no cumulative graph`);
    const change = this.sync(graph, result.layer);
    if (!this.hasLayer(result.layer)) {
      this.layers.push({
        layer: result.layer,
        riskScore: result.riskScore,
        riskLevel: result.riskLevel ?? undefined,
        riskReason: result.riskReason ?? "",
        exposure: result.exposure ?? [],
        isProvisional: result.isProvisional,
        detectedPatterns: result.detectedPatterns ?? [],
        newPatterns: result.newPatterns ?? [],
        removedPatterns: result.removedPatterns ?? [],
        totalNodes: graph.metadata?.totalNodes ?? Object.keys(graph.nodes).length,
        totalEdges: graph.metadata?.totalEdges ?? graph.edges.length,
      });
      this.layers.sort((a, b) => a.layer - b.layer);
    }
    return change;
  }

  /** A complete graph without layers (a standard-mode investigation): drawn as one layer. */
  applyWholeGraph(graph: WireGraph): LayerChange {
    return this.sync(graph, 0);
  }

  private sync(graph: WireGraph, layer: number): LayerChange {
    if (graph.rootAddress) this.rootAddress = graph.rootAddress.toLowerCase();
    const addedNodes: NodeState[] = [];
    const updatedNodes: NodeState[] = [];
    for (const [key, wire] of Object.entries(graph.nodes ?? {})) {
      const address = (wire?.address ?? key).toLowerCase();
      const known = this.nodes.get(address);
      if (known) {
        // A label can arrive later (e.g. a service recognised at a deeper layer): keep the freshest facts.
        const type = normaliseType(wire.type);
        const label = wire.label ?? known.label;
        const inferred = wire.label ? wire.inferred === true : known.inferred;
        if (wire.label) known.labelSource = wire.labelSource ?? undefined;
        if (type !== known.type || label !== known.label || inferred !== known.inferred)
          updatedNodes.push(known);
        known.type = type;
        known.label = label;
        known.inferred = inferred;
        known.category = wire.category ?? known.category;
        continue;
      }
      const node: NodeState = {
        address,
        type: normaliseType(wire.type),
        label: wire.label ?? undefined,
        labelSource: wire.labelSource ?? undefined,
        category: wire.category ?? undefined,
        inferred: wire.inferred === true,
        depth: typeof wire.depth === "number" ? wire.depth : layer,
        layer,
        isRoot: address === this.rootAddress,
      };
      this.nodes.set(address, node);
      addedNodes.push(node);
    }

    // Rebuilt from the whole cumulative edge list (linear, a few ms for 10,000 transfers), then compared with
    // what is drawn: a transfer is never counted twice, whatever order the layers came in.
    const fresh = new Map<string, EdgeState>();
    for (const wire of graph.edges ?? []) {
      const from = wire.from.toLowerCase();
      const to = wire.to.toLowerCase();
      // A conversion is drawn apart from the pair's transfers: it is value that changed form on the way.
      // So is a bridge crossing: the value changed chain.
      const id = wire.conversion
        ? `${from}->${to}:conversion`
        : wire.bridge
          ? `${from}->${to}:bridge`
          : `${from}->${to}`;
      let edge = fresh.get(id);
      if (!edge) {
        edge = {
          id,
          from,
          to,
          count: 0,
          usd: 0,
          pricedCount: 0,
          rawBySymbol: new Map(),
          txHashes: [],
          transfers: [],
          layer: this.edges.get(id)?.layer ?? layer,
          ...(wire.conversion ? { conversion: wire.conversion } : {}),
          ...(wire.bridge ? { bridge: wire.bridge } : {}),
        };
        fresh.set(id, edge);
      }
      edge.count++;
      edge.transfers.push({
        txHash: wire.txHash,
        from,
        to,
        value: parseRaw(wire.value),
        decimals: typeof wire.decimals === "number" ? wire.decimals : undefined,
        symbol: wire.symbol || "?",
        usd: typeof wire.usd === "number" && Number.isFinite(wire.usd) ? wire.usd : null,
        timestamp: wire.timestamp,
      });
      if (typeof wire.usd === "number" && Number.isFinite(wire.usd)) {
        edge.usd += wire.usd;
        edge.pricedCount++;
      } else {
        const symbol = wire.symbol || "?";
        edge.rawBySymbol.set(symbol, (edge.rawBySymbol.get(symbol) ?? 0n) + parseRaw(wire.value));
      }
      if (wire.txHash && edge.txHashes.length < MAX_TX_HASHES && !edge.txHashes.includes(wire.txHash)) {
        edge.txHashes.push(wire.txHash);
      }
    }
    const addedEdges: EdgeState[] = [];
    const changedEdges: EdgeState[] = [];
    for (const [id, edge] of fresh) {
      // An edge needs both ends drawn; a server sending a dangling edge gets its missing end as `unknown`.
      for (const end of [edge.from, edge.to]) {
        if (!this.nodes.has(end)) {
          const node: NodeState = {
            address: end,
            type: "unknown",
            label: undefined,
            labelSource: undefined,
            category: undefined,
            inferred: false,
            depth: layer,
            layer,
            isRoot: end === this.rootAddress,
          };
          this.nodes.set(end, node);
          addedNodes.push(node);
        }
      }
      const old = this.edges.get(id);
      if (!old) addedEdges.push(edge);
      else if (old.count !== edge.count) changedEdges.push(edge);
      this.edges.set(id, edge);
    }
    this.transferCount = graph.edges?.length ?? 0;
    return { addedNodes, updatedNodes, addedEdges, changedEdges };
  }
}

/** Edge widths: log-scaled USD where transfers have a price, log-scaled raw amount otherwise. */
export function edgeWeights(edges: Iterable<EdgeState>): Map<string, number> {
  const list = [...edges];
  let maxUsd = 0;
  let maxRaw = 0;
  const rawLog = new Map<string, number>();
  for (const e of list) {
    if (e.pricedCount > 0) maxUsd = Math.max(maxUsd, e.usd);
    else {
      let largest = 0n;
      for (const v of e.rawBySymbol.values()) if (v > largest) largest = v;
      const digits = largest > 0n ? largest.toString().length : 0;
      rawLog.set(e.id, digits);
      maxRaw = Math.max(maxRaw, digits);
    }
  }
  const weights = new Map<string, number>();
  const usdScale = Math.log10(1 + maxUsd);
  for (const e of list) {
    let w: number;
    if (e.pricedCount > 0) w = usdScale > 0 ? Math.log10(1 + e.usd) / usdScale : 0;
    else w = maxRaw > 0 ? (rawLog.get(e.id) ?? 0) / maxRaw : 0;
    weights.set(e.id, Math.min(1, Math.max(0, w)));
  }
  return weights;
}

/** USD in the reader's locale ("$1,234.56"; the viewer's language chooses it, i18n.ts). */
export { formatUsd };

/** A raw amount in scientific notation past 12 digits: the token's decimals are not in the layer result. */
export function formatRaw(value: bigint): string {
  const s = value.toString();
  if (s.length <= 12) return s;
  return `${s[0]}.${s.slice(1, 4)}e${s.length - 1}`;
}

/** "Converted via Uniswap V2: 2.5 ETH (USD 5,000) into 4,985 USDC (USD 4,985)". */
export function describeConversion(conversion: WireConversion): string {
  const side = (legs: WireConversion["given"]) =>
    legs
      .map((l) => {
        const amount = formatAmount(parseRaw(l.value), l.decimals, l.symbol);
        return l.usd === null ? amount : `${amount} (${formatUsd(l.usd)})`;
      })
      .join(" + ");
  return t("viewer.conversion", {
    via: conversion.via.join(", "),
    given: side(conversion.given),
    received: side(conversion.received),
  });
}

/** "Bridged via Across from chain 1 to chain 8453: 1,000 USDC (USD 1,000) deposited." */
export function describeBridge(bridge: WireBridge): string {
  const { given } = bridge;
  const amount = formatAmount(parseRaw(given.value), given.decimals, given.symbol);
  return t("viewer.bridge", {
    protocol: bridge.protocol,
    from: String(bridge.fromChainId),
    to: String(bridge.toChainId),
    given: given.usd === null ? amount : `${amount} (${formatUsd(given.usd)})`,
    tx: bridge.depositTx,
  });
}

/** "$1,234.56 in 3 transfers" / "4.500e20 raw TKN in 1 transfer". */
export function describeEdge(edge: EdgeState): string {
  const parts: string[] = [];
  if (edge.pricedCount > 0) parts.push(formatUsd(edge.usd));
  for (const [symbol, raw] of edge.rawBySymbol)
    parts.push(t("viewer.raw_units", { amount: `${formatRaw(raw)} ${symbol}` }));
  return t("viewer.edge", { value: parts.join(" + ") || t("viewer.no_value"), count: edge.count });
}
