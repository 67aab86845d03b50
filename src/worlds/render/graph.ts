// Turns a scenario World (src/worlds) into the TxGraph the analysis layer would build around an address:
// breadth-first from the subject up to `depth` hops, every transfer of every expanded address, labelled services
// and tainted addresses (the risk core's TERMINAL_TYPES) ending paths instead of being
// expanded (the root is always expanded), and, as the service's expansion does (src/analysis/graph, "Degree
// limit"), a node with more new counterparties to follow than `degreeLimit` has only the top ones by USD followed
// (the others stay in the graph, unexpanded); USD from the scenario's daily prices (priceOn), and each address's
// first-seen time from the whole world, as the store would know it. The world's exchange deposit addresses, which
// carry no label, are the inferred exchange nodes the service's attribution would make of them (the truth stands in
// for the inference here; `npm run eval` measures the inference itself). No node, edge or time budgets. Pure: the
// same world gives the same graphs.

import { DEFAULT_DEPTH } from "../../analysis/index.ts";
import {
  type GraphEdge,
  type GraphNode,
  NO_TRUNCATION,
  NODE_TYPE_OF_CATEGORY,
  type NodeType,
  TERMINAL_TYPES,
  type TxGraph,
} from "../../risk/index.ts";
import {
  type PlannedTransfer,
  priceOn,
  TOKENS,
  type TokenSymbol,
  transactionsOf,
  type World,
} from "../world.ts";

export const TOKEN_ADDRESSES: Record<TokenSymbol, string> = {
  ETH: "native",
  USDV: "0x00000000000000000000000000000000000000d1",
  TKN: "0x00000000000000000000000000000000000000d2",
};

/** 2024-01-01 (SCENARIO_START): block numbers count 12-second slots from there. */
const GENESIS = Date.UTC(2024, 0, 1) / 1000;

export interface WorldIndex {
  world: World;
  /** transfers in timeline order, each with its position (which names its transaction hash) */
  byAddress: Map<string, { t: PlannedTransfer; i: number }[]>;
  firstSeen: Map<string, number>;
  labels: Map<string, { label: string; category: string; inferred?: true }>;
  /** accounts the world marks as contracts (the export's contracts.csv) */
  contracts: Set<string>;
  /** the world's timeline (world.timeline() sorts on each call) */
  timeline: PlannedTransfer[];
  /** per timeline position, its transaction (the position of its first transfer) and log index */
  txOf: { hashIndex: number; logIndex: number }[];
  /** the timeline positions of each transaction of several transfers (a swap), by its hashIndex */
  legs: Map<number, number[]>;
}

export function indexWorld(world: World): WorldIndex {
  const byAddress = new Map<string, { t: PlannedTransfer; i: number }[]>();
  const firstSeen = new Map<string, number>();
  const timeline = world.timeline();
  timeline.forEach((t, i) => {
    for (const a of t.from === t.to ? [t.from] : [t.from, t.to]) {
      const list = byAddress.get(a);
      if (list) list.push({ t, i });
      else byAddress.set(a, [{ t, i }]);
      if (!firstSeen.has(a)) firstSeen.set(a, t.at);
    }
  });
  const txOf = transactionsOf(timeline).map(({ hashIndex, logIndex }) => ({ hashIndex, logIndex }));
  const legs = new Map<number, number[]>();
  txOf.forEach(({ hashIndex }, i) => {
    const list = legs.get(hashIndex);
    if (list) list.push(i);
    else legs.set(hashIndex, [i]);
  });
  for (const [hashIndex, list] of legs) if (list.length === 1) legs.delete(hashIndex);
  const labels = new Map<string, { label: string; category: string; inferred?: true }>();
  const contracts = new Set<string>();
  for (const a of world.accounts.values()) {
    if (a.label) labels.set(a.address, a.label);
    if (a.contract) contracts.add(a.address);
  }
  for (const [address, deposit] of world.deposits) {
    if (labels.has(address)) continue;
    labels.set(address, {
      label: `${deposit.exchange}: deposit address (inferred)`,
      category: "exchange",
      inferred: true,
    });
  }
  return { world, byAddress, firstSeen, labels, contracts, timeline, txOf, legs };
}

export function worldGraph(
  w: WorldIndex,
  subject: string,
  opts: { depth?: number; degreeLimit?: number } = {},
): TxGraph {
  const maxDepth = opts.depth ?? DEFAULT_DEPTH;
  const degreeLimit = opts.degreeLimit ?? 50;
  const depth = new Map<string, number>([[subject, 0]]);
  const edges = new Map<string, GraphEdge>();
  const expanded = new Set<string>();
  let frontier = [subject];
  for (let d = 0; d < maxDepth && frontier.length > 0; d++) {
    const next: string[] = [];
    const queued = new Set<string>();
    for (const a of frontier) {
      if (d > 0 && TERMINAL_TYPES.has(typeOf(w, a))) continue;
      expanded.add(a);
      const fresh = new Map<string, number>(); // new counterparties -> USD with them
      for (const { t, i } of w.byAddress.get(a) ?? []) {
        // A swap's other legs come with it, as the service's expansion reads them (conversion-reads.ts): its
        // other parties are the address's counterparties, one hop away.
        const hashIndex = w.txOf[i]?.hashIndex ?? i;
        const positions = w.legs.get(hashIndex) ?? [i];
        for (const k of positions) {
          const leg = k === i ? t : (w.timeline[k] as PlannedTransfer);
          const e = toEdge(leg, k, w.txOf[k]);
          edges.set(e.id, e);
          for (const b of [leg.from, leg.to]) {
            if (b === a) continue;
            if (!depth.has(b)) depth.set(b, d + 1);
            // A swap's pool is reached through another's transfer, not followed (its other swaps are not ours).
            if (k !== i && w.contracts.has(b)) continue;
            if (depth.get(b) === d + 1 && !queued.has(b)) fresh.set(b, (fresh.get(b) ?? 0) + (e.usd ?? 0));
          }
        }
      }
      const followable = [...fresh].filter(([b]) => !TERMINAL_TYPES.has(typeOf(w, b)));
      followable.sort(([x, ux], [y, uy]) => uy - ux || (x < y ? -1 : x > y ? 1 : 0));
      for (const [b] of followable.slice(0, degreeLimit)) {
        queued.add(b);
        next.push(b);
      }
    }
    frontier = next;
  }
  const nodes = new Map<string, GraphNode>();
  for (const [address, d] of depth) {
    const label = w.labels.get(address);
    const type = typeOf(w, address);
    const firstSeenAt = w.firstSeen.get(address);
    nodes.set(address, {
      address,
      depth: d,
      type,
      ...(label ? { label: label.label, category: label.category } : {}),
      ...(label?.inferred ? { inferred: true } : {}),
      isContract: type === "mixer" || w.contracts.has(address),
      ...(firstSeenAt !== undefined ? { firstSeenAt } : {}),
      expanded: expanded.has(address),
    });
  }
  return {
    chainId: 1,
    roots: [subject],
    nodes,
    edges: [...edges.values()],
    maxDepth,
    truncated: NO_TRUNCATION,
  };
}

function typeOf(w: WorldIndex, address: string): NodeType {
  const category = w.labels.get(address)?.category;
  return (category && NODE_TYPE_OF_CATEGORY[category]) || "eoa";
}

function toEdge(t: PlannedTransfer, i: number, tx?: { hashIndex: number; logIndex: number }): GraphEdge {
  const spec = TOKENS[t.token];
  const native = t.token === "ETH";
  const txHash = `0x${(tx?.hashIndex ?? i).toString(16).padStart(64, "0")}`;
  const logIndex = tx?.logIndex ?? (native ? -1 : 0);
  const usd = (Number(t.amount) / 10 ** spec.decimals) * priceOn(t.token, t.at);
  return {
    id: `${txHash}:${logIndex}`,
    txHash,
    logIndex,
    from: t.from,
    to: t.to,
    token: TOKEN_ADDRESSES[t.token],
    symbol: t.token,
    decimals: spec.decimals,
    value: t.amount,
    usd: Math.round(usd * 100) / 100,
    at: t.at,
    blockNumber: Math.max(0, Math.floor((t.at - GENESIS) / 12)),
  };
}
