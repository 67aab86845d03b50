// A layer's bridge crossings: when a frontier address (one the store marks as bridged) deposited into a bridge (Across, Circle CCTP, LayerZero OFT)
// or received a delivery from one, the value went on, or came from, an address on another chain. This step reads
// the frontier's bridge legs with their other sides (ledger readBridgeCrossings, one statement), adds one edge per
// crossing from the depositor to the recipient (its `bridge` says which protocol and chains; the legs' own
// transfers give way to it in the graph index), adds the address at the other end as a node keyed by its chain
// (risk chain-keys.ts), and follows it like any counterparty: the next layer reads it on its own chain. A crossing
// whose other side is not in the store is kept in `graph.bridgeGaps`, with why, for the verdict's coverage.
import type { Kysely } from "kysely";
import { BRIDGE_PROTOCOL_NAMES, type BridgeProtocol } from "../../chains/index.ts";
import {
  type AddressFacts,
  type BridgeCrossingRead,
  type BridgeLegRead,
  readAddressFacts,
  readBridgeCrossings,
  UNKNOWN_FACTS,
  usdValue,
} from "../../ledger/index.ts";
import { chainKey, type GraphEdge, type GraphNode, splitChainKey } from "../../risk/index.ts";
import type { DB } from "../../schema.ts";
import type { BridgeGap, ExpandingGraph, ExpansionOptions } from "./options.ts";

export interface BridgeLayer {
  /** the chain of this part of the frontier */
  chainId: number;
  /** the frontier's keys on that chain */
  frontier: readonly string[];
  /** the layer's new nodes and edges so far; this step adds to them */
  nodes: GraphNode[];
  edges: GraphEdge[];
  /** the next frontier so far; this step adds the other ends of crossings to follow */
  next: string[];
  /** the next frontier's path shares so far (1 is left out); this step adds those of the ends it follows */
  nextShares: Record<string, number>;
  /** the path share of a frontier address (1 for a root) and the USD of its transfers the layer read */
  frontierShare(key: string): number;
  frontierUsd(key: string): number;
}

export interface BridgeReport {
  /** statements run: 0, 1 (the crossings) or more (the facts of the other ends, one per chain) */
  statements: number;
  /** crossings added as edges */
  crossings: number;
  /** legs whose other side could not be followed (graph.bridgeGaps) */
  gaps: number;
}

const protocolName = (protocol: string) => BRIDGE_PROTOCOL_NAMES[protocol as BridgeProtocol] ?? protocol;

/** Reads the frontier's bridge crossings and adds them, in place. */
export async function readLayerBridges(
  db: Kysely<DB>,
  graph: ExpandingGraph,
  layer: BridgeLayer,
  options: ExpansionOptions,
  newNode: (address: string, depth: number, facts: AddressFacts) => GraphNode,
): Promise<BridgeReport> {
  const report: BridgeReport = { statements: 0, crossings: 0, gaps: 0 };
  // Only addresses the store marks as having bridge legs (address_facts.bridged, read with their other facts):
  // an expansion among addresses that never bridged runs no statement for bridges.
  const bridged = layer.frontier.filter((key) => graph.nodes.get(key)?.bridged);
  if (options.maxBridgeLegs === 0 || bridged.length === 0) return report;
  const home = graph.chainId;
  const raw = bridged.map((key) => splitChainKey(key, home).address);
  const { crossings, capped } = await readBridgeCrossings(
    db,
    layer.chainId,
    raw,
    options.maxBridgeLegs,
    graph.window ?? {},
  );
  report.statements = 1;
  // An address with more crossings than read had its newest read, as the per-address cap of transfers does.
  if (capped.length > 0) graph.truncated.degree = true;
  if (crossings.length === 0) return report;

  const edgeIds = new Set<string>();
  for (const e of graph.edges) if (e.bridge) edgeIds.add(e.id);
  for (const e of layer.edges) if (e.bridge) edgeIds.add(e.id);
  const gapId = (g: BridgeGap) => `${g.protocol}:${g.chainId}:${g.txHash}:${g.direction}:${g.address}`;
  const gapIds = new Set((graph.bridgeGaps ?? []).map(gapId));
  // The layer's new nodes by key, once: a layer may hold thousands, and each crossing asks.
  const layerKeys = new Set(layer.nodes.map((n) => n.address));
  const known = (key: string) => graph.nodes.has(key) || layerKeys.has(key);

  /**
   * other ends to add, by key: the chain and address to read facts for, the depth they are reached at, and their
   * path share: what the crossing carried of the frontier address's transfers, times its own share
   */
  const ends = new Map<string, { chainId: number; address: string; depth: number; share: number }>();
  let room = Math.max(0, options.budget.maxNodes - graph.nodes.size - layer.nodes.length);
  let edgeRoom = Math.max(0, options.budget.maxEdges - graph.edges.length - layer.edges.length);
  for (const crossing of crossings) {
    const mine = crossing.direction === "out" ? crossing.leg.sender : crossing.leg.recipient;
    const myKey = chainKey(mine, layer.chainId, home);
    const other = crossing.other;
    if (!other) {
      const gap = gapOf(crossing, myKey, layer.chainId);
      const id = gapId(gap);
      if (!gapIds.has(id)) {
        gapIds.add(id);
        graph.bridgeGaps = [...(graph.bridgeGaps ?? []), gap];
        report.gaps++;
      }
      continue;
    }
    const deposit = crossing.direction === "out" ? crossing.leg : other;
    const delivery = crossing.direction === "out" ? other : crossing.leg;
    const id = `bridge:${crossing.protocol}:${crossing.pairKey}`;
    if (edgeIds.has(id)) continue;
    const from = chainKey(deposit.sender, deposit.chainId, home);
    const to = chainKey(delivery.recipient, delivery.chainId, home);
    const end = crossing.direction === "out" ? to : from;
    const isNew = !known(end) && !ends.has(end);
    // Within the expansion's budgets, as the layer's own nodes and edges are.
    if (edgeRoom === 0 || (isNew && room === 0)) {
      graph.truncated[edgeRoom === 0 ? "edges" : "nodes"] = true;
      break;
    }
    edgeIds.add(id);
    const edge = crossingEdge(id, crossing.protocol, deposit, delivery, from, to);
    layer.edges.push(edge);
    edgeRoom--;
    report.crossings++;
    const endChain = crossing.direction === "out" ? delivery.chainId : deposit.chainId;
    const endAddress = crossing.direction === "out" ? delivery.recipient : deposit.sender;
    const total = layer.frontierUsd(myKey);
    const carried = edge.usd !== null && total > 0 ? Math.min(1, edge.usd / total) : 1;
    const share = layer.frontierShare(myKey) * carried;
    const depth = (graph.nodes.get(myKey)?.depth ?? 0) + 1;
    const seen = ends.get(end);
    if (seen) {
      seen.depth = Math.min(seen.depth, depth);
      seen.share = Math.max(seen.share, share);
    } else if (isNew) {
      ends.set(end, { chainId: endChain, address: endAddress, depth, share });
      room--;
    }
  }

  // The other ends' facts, one statement per chain, then their nodes; followed like any counterparty.
  const byChain = new Map<number, string[]>();
  for (const end of ends.values()) {
    const list = byChain.get(end.chainId);
    if (list) list.push(end.address);
    else byChain.set(end.chainId, [end.address]);
  }
  const facts = new Map<string, AddressFacts>();
  for (const [chainId, addresses] of byChain) {
    const read = await readAddressFacts(db, chainId, addresses);
    report.statements++;
    for (const [address, f] of read) facts.set(chainKey(address, chainId, home), f);
  }
  for (const [key, end] of ends) {
    const f = facts.get(key) ?? UNKNOWN_FACTS;
    const node = newNode(key, end.depth, f);
    layer.nodes.push(node);
    // Followed as the layer follows a counterparty: not a path's end, not busy, not diluted, not crowded for its
    // share (layer.ts), and within the depth.
    const follow =
      !options.terminalTypes.has(node.type) &&
      f.transfers < options.busyTransfers &&
      end.share >= options.minPathShare &&
      !(f.transfers >= options.crowdedTransfers && end.share * options.busyTransfers < f.transfers) &&
      end.depth < graph.maxDepth;
    if (!follow) continue;
    layer.next.push(key);
    if (end.share < 1) layer.nextShares[key] = end.share;
  }
  return report;
}

function gapOf(crossing: BridgeCrossingRead, address: string, chainId: number): BridgeGap {
  return {
    protocol: protocolName(crossing.protocol),
    direction: crossing.direction,
    address,
    chainId,
    txHash: crossing.leg.txHash,
    otherRef: crossing.otherRef,
    otherChainId: crossing.otherChainId,
    reason: crossing.ambiguous
      ? "ambiguous"
      : crossing.otherChainHeld
        ? "other-leg-not-found"
        : "chain-not-indexed",
  };
}

/**
 * The edge of one crossing: the delivery's amount and time, from the depositor to the recipient. Valued at the
 * delivery's price, else the deposit's (an asset unpriced on one chain, priced on the other).
 */
function crossingEdge(
  id: string,
  protocol: string,
  deposit: BridgeLegRead,
  delivery: BridgeLegRead,
  from: string,
  to: string,
): GraphEdge {
  const asset = (leg: BridgeLegRead) => ({
    token: leg.token,
    symbol: leg.symbol ?? "UNKNOWN",
    decimals: leg.decimals ?? 0,
    value: BigInt(leg.amount),
    usd: usdValue(leg.amount, leg.decimals, leg.priceUsd),
  });
  const received = asset(delivery);
  const given = asset(deposit);
  return {
    id,
    txHash: delivery.txHash,
    logIndex: delivery.logIndex,
    from,
    to,
    ...received,
    usd: received.usd ?? given.usd,
    at: delivery.at,
    blockNumber: delivery.blockNumber,
    bridge: {
      protocol: protocolName(protocol),
      fromChainId: deposit.chainId,
      toChainId: delivery.chainId,
      depositTx: deposit.txHash,
      given,
    },
  };
}
