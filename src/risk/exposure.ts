// Exposure of an address to labelled categories (sanctioned, illicit, mixer, blocklisted, sanctioned_historical,
// exchange, bridge, ...): for each category, hop distance and direction, how much of the address's funds can be
// traced to (outgoing) or from (incoming) such addresses, as USD and as a share of its volume in that direction,
// with the labelled counterparties, the intermediaries and the transactions as evidence (docs/decisions/0011).
//
// Which addresses, how far and through whom: time-respecting paths through addresses that are neither services nor
// tainted (graph/trace.ts), the shortest ones as evidence. How much: haircut taint (graph/taint.ts): an intermediary
// passes on only the share of its own flows, within `windowDays` of the transfer, that came from (or went to) the
// risky side, so an address that forwards what it received passes it on whole and one that pools many sources
// passes on a fraction. An entry's USD is what the address's own transfers carry in traced funds, at most what the
// labelled addresses moved on those paths; the share at each hop count is the increment over the fewer hops.

import { round } from "./format.ts";
import { addressKey } from "./graph/address-key.ts";
import { sumUsd } from "./graph/amounts.ts";
import { categoryOf, categoryRank, endsTrace } from "./graph/classify.ts";
import { cmp, type GraphIndex, indexGraph } from "./graph/graph-index.ts";
import { HaircutTaint } from "./graph/taint.ts";
import { type ReachLayers, reachLayers, stepsToTargets, trace } from "./graph/trace.ts";
import type { GraphEdge, TxGraph } from "./graph/types.ts";

export type ExposureDirection = "incoming" | "outgoing" | "self";

/** The cluster address whose exposure an entry is (a UTXO chain's common-input cluster of the root). */
export interface SameOwner {
  address: string;
  clusterId: string;
  clusterSize: number;
  joinedBy: string[];
}

export interface ExposureParams {
  /** hops to trace; null: the graph's depth */
  maxHops: number | null;
  timeRespecting: boolean;
  /** categories to report; null: every category but `other` */
  categories: string[] | null;
  /** how long before (incoming) or after (outgoing) a transfer an intermediary's flows count, days */
  windowDays: number;
  /**
   * a conversion (graph/conversions.ts) carries value across when what was given and what was received agree in
   * USD within this fraction of the larger (fees, slippage, the day's price against the moment's)
   */
  conversionSlippage: number;
}

export const DEFAULT_EXPOSURE_PARAMS: ExposureParams = {
  maxHops: null,
  timeRespecting: true,
  categories: null,
  windowDays: 30,
  conversionSlippage: 0.1,
};

export interface ExposureCounterparty {
  address: string;
  label?: string;
  category: string;
}

export interface ExposureEntry {
  category: string;
  direction: ExposureDirection;
  /** 0 for the address's own label, 1 for direct counterparties, ... */
  hops: number;
  /** USD of the address's funds traced to (outgoing) or from (incoming) the category at this hop count (header) */
  usd: number;
  /** usd as a fraction of the address's USD volume in that direction, 0..1 */
  share: number;
  /** USD the address moved on the paths (its own transfers) */
  rootUsd: number;
  /** USD the labelled counterparties moved on the paths (their transfers) */
  counterpartyUsd: number;
  counterparties: ExposureCounterparty[];
  /** intermediaries between the address and the counterparties, sorted */
  via: string[];
  /** transaction hashes on the paths, sorted */
  txs: string[];
  /**
   * the protocols of the conversions on the paths (graph/conversions.ts), e.g. "Uniswap V2": the value changed
   * form on the way; set only when some path went through one
   */
  conversions?: string[];
  /**
   * the bridge crossings on the paths (types.ts BridgeVia), e.g. "Across, chain 1 to 8453": the value changed chain
   * on the way; set only when some path crossed one
   */
  bridges?: string[];
  /** the address's own transfers on the paths */
  transfers: number;
  /** of those, how many have no USD value (set only when some have none) */
  unpriced?: number;
  /**
   * set when the exposure is another address's of the root's cluster (scoring/cluster-exposure.ts): the address,
   * the cluster, and the transactions whose common inputs make them one owner's; the figures are that address's
   */
  sameOwner?: SameOwner;
  /**
   * received dust (docs/decisions/0030): a small, negligible receipt from a risky category that the address did not
   * spend onward; set by the scoring (scoring/dust.ts), only when true
   */
  unsolicited?: true;
}

export interface Exposure {
  root: string;
  maxHops: number;
  incomingUsd: number;
  outgoingUsd: number;
  incomingTransfers: number;
  outgoingTransfers: number;
  /** distinct direct counterparties */
  counterparties: number;
  /** category rank (riskiest first), then hops, then direction */
  entries: ExposureEntry[];
}

export function exposureOf(
  graph: TxGraph,
  root: string,
  params: ExposureParams = DEFAULT_EXPOSURE_PARAMS,
): Exposure {
  return computeExposure(
    indexGraph(graph, { slippageTolerance: params.conversionSlippage }),
    addressKey(root),
    params,
  );
}

/**
 * Per graph index (a multi-root scan computes the exposure of every root over the same index): the labelled
 * addresses by category, and whether funds may be traced through an address.
 */
const labelledMemo = new WeakMap<GraphIndex, Map<string, Map<string, Set<string>>>>();
const passableMemo = new WeakMap<GraphIndex, (address: string) => boolean>();
const toTargetsMemo = new WeakMap<Map<string, Set<string>>, Map<string, Map<string, number>>>();
const taintMemo = new WeakMap<Set<string>, Map<string, HaircutTaint>>();

/** The haircut taint towards one category's addresses, once per target set, direction and window. */
function taintOf(
  index: GraphIndex,
  targets: Set<string>,
  direction: "incoming" | "outgoing",
  params: ExposureParams,
): HaircutTaint {
  return memo(taintMemo, targets, `${direction}:${params.windowDays}:${params.timeRespecting}`, () => {
    const passable = passableIn(index);
    return new HaircutTaint(index, targets, direction, {
      windowSeconds: params.windowDays * 86_400,
      timeRespecting: params.timeRespecting,
      passable,
    });
  });
}

/** Per hop count h (index h - 1), the USD of the root's transfers traced to or from the targets within h hops. */
function tracedByHops(
  edges: readonly GraphEdge[],
  root: string,
  taint: HaircutTaint,
  maxHops: number,
): number[] {
  const out: number[] = [];
  for (let h = 1; h <= maxHops; h++) {
    let total = 0;
    for (const e of edges) {
      if (e.usd === null || e.usd <= 0) continue;
      const other = e.from === root ? e.to : e.from;
      total += e.usd * taint.fraction(other, e.at, h - 1);
    }
    out.push(total);
  }
  return out;
}

/** The value for (owner, key), computed on first use. */
function memo<O extends object, V>(
  memos: WeakMap<O, Map<string, V>>,
  owner: O,
  key: string,
  compute: () => V,
): V {
  let perKey = memos.get(owner);
  if (!perKey) {
    perKey = new Map();
    memos.set(owner, perKey);
  }
  let value = perKey.get(key);
  if (value === undefined) {
    value = compute();
    perKey.set(key, value);
  }
  return value;
}

/** stepsToTargets of every labelled address of the categories, once per graph index, direction and hops. */
function toLabelled(
  index: GraphIndex,
  byCategory: Map<string, Set<string>>,
  direction: "incoming" | "outgoing",
  maxHops: number,
): Map<string, number> {
  return memo(toTargetsMemo, byCategory, `${direction}:${maxHops}`, () =>
    stepsToTargets(
      index,
      [...byCategory.values()].flatMap((set) => [...set]),
      direction,
      maxHops,
    ),
  );
}

function labelledByCategory(index: GraphIndex, categories: string[] | null): Map<string, Set<string>> {
  return memo(labelledMemo, index, categories === null ? "" : JSON.stringify(categories), () => {
    const byCategory = new Map<string, Set<string>>();
    const wanted = (c: string) => (categories ? categories.includes(c) : c !== "other");
    for (const n of index.nodes) {
      const c = categoryOf(n);
      if (c === undefined || !wanted(c)) continue;
      const set = byCategory.get(c) ?? new Set<string>();
      set.add(n.address);
      byCategory.set(c, set);
    }
    return byCategory;
  });
}

function passableIn(index: GraphIndex): (address: string) => boolean {
  let passable = passableMemo.get(index);
  if (!passable) {
    const known = new Map<string, boolean>();
    passable = (a: string) => {
      let p = known.get(a);
      if (p === undefined) {
        p = !endsTrace(index.node(a));
        known.set(a, p);
      }
      return p;
    };
    passableMemo.set(index, passable);
  }
  return passable;
}

export function computeExposure(index: GraphIndex, root: string, params: ExposureParams): Exposure {
  const maxHops = Math.max(1, params.maxHops ?? index.graph.maxDepth);
  const ins = index.inOf(root).filter((e) => e.from !== root);
  const outs = index.outOf(root).filter((e) => e.to !== root);
  const totals = { incoming: sumUsd(ins), outgoing: sumUsd(outs) };
  const counts = { incoming: ins.length, outgoing: outs.length };
  const wanted = (c: string) => (params.categories ? params.categories.includes(c) : c !== "other");

  // The root is never a target: tracing never arrives back at it (trace.ts), so it may stay in the shared sets.
  const byCategory = labelledByCategory(index, params.categories);

  const entries: ExposureEntry[] = [];
  const self = categoryOf(index.node(root));
  if (self !== undefined && wanted(self)) {
    const node = index.node(root);
    entries.push({
      category: self,
      direction: "self",
      hops: 0,
      usd: round(totals.incoming + totals.outgoing),
      share: 1,
      rootUsd: round(totals.incoming + totals.outgoing),
      counterpartyUsd: 0,
      counterparties: [{ address: root, category: self, ...(node.label ? { label: node.label } : {}) }],
      via: [],
      txs: [],
      transfers: ins.length + outs.length,
    });
  }
  const passable = passableIn(index);
  const options = { maxHops, timeRespecting: params.timeRespecting, passable };
  // Labelled addresses almost always end traces themselves; then every category's trace walks the same layers,
  // computed once per direction (a 50-root scan traces ~10 categories x 2 directions per root), and only as far
  // as they can lead to a labelled address (the distances to them are computed once per graph).
  const shared = new Map<string, ReachLayers>();
  const layersFor = (targets: ReadonlySet<string>, direction: "incoming" | "outgoing") => {
    for (const t of targets) if (passable(t)) return undefined;
    let layers = shared.get(direction);
    if (!layers) {
      const toTargets = toLabelled(index, byCategory, direction, maxHops);
      layers = reachLayers(index, root, direction, options, undefined, toTargets);
      shared.set(direction, layers);
    }
    return layers;
  };
  const rootEdges = { incoming: ins, outgoing: outs };
  for (const [category, targets] of byCategory) {
    for (const direction of ["incoming", "outgoing"] as const) {
      const groups = trace(index, root, targets, direction, options, layersFor(targets, direction));
      if (groups.length === 0) continue;
      const traced = tracedByHops(
        rootEdges[direction],
        root,
        taintOf(index, targets, direction, params),
        maxHops,
      );
      for (const g of groups) {
        const conversions = [...new Set(g.edges.flatMap((e) => e.conversion?.via ?? []))].sort(cmp);
        const bridges = [
          ...new Set(
            g.edges.flatMap((e) =>
              e.bridge
                ? [`${e.bridge.protocol}, chain ${e.bridge.fromChainId} to ${e.bridge.toChainId}`]
                : [],
            ),
          ),
        ].sort(cmp);
        const rootUsd = sumUsd(g.rootEdges);
        // A zero-value transfer (address poisoning) is priced at nothing; any other without a price is unknown.
        const unpriced = g.rootEdges.filter((e) => e.usd === null && e.value !== 0n).length;
        const counterpartyUsd = sumUsd(g.targetEdges);
        const increment = Math.max(
          0,
          (traced[g.hops - 1] ?? 0) - (g.hops > 1 ? (traced[g.hops - 2] ?? 0) : 0),
        );
        const usd = g.hops === 1 ? rootUsd : Math.min(increment, counterpartyUsd, rootUsd);
        const total = totals[direction];
        const share =
          total > 0
            ? Math.min(1, usd / total)
            : counts[direction] > 0 && g.hops === 1
              ? g.rootEdges.length / counts[direction]
              : 0;
        entries.push({
          category,
          direction,
          hops: g.hops,
          usd: round(usd),
          share: round(share, 4),
          rootUsd: round(rootUsd),
          counterpartyUsd: round(counterpartyUsd),
          counterparties: g.targets.map((address) => {
            const node = index.node(address);
            return { address, category, ...(node.label ? { label: node.label } : {}) };
          }),
          via: g.via,
          txs: [...new Set(g.edges.map((e) => e.txHash))].sort(cmp),
          transfers: g.rootEdges.length,
          ...(unpriced > 0 ? { unpriced } : {}),
          ...(conversions.length > 0 ? { conversions } : {}),
          ...(bridges.length > 0 ? { bridges } : {}),
        });
      }
    }
  }
  entries.sort(
    (a, b) =>
      exposureOrder(a, b) || cmp(a.counterparties[0]?.address ?? "", b.counterparties[0]?.address ?? ""),
  );
  const direct = new Set([...ins.map((e) => e.from), ...outs.map((e) => e.to)]);
  return {
    root,
    maxHops,
    incomingUsd: round(totals.incoming),
    outgoingUsd: round(totals.outgoing),
    incomingTransfers: ins.length,
    outgoingTransfers: outs.length,
    counterparties: direct.size,
    entries,
  };
}

/** The order exposure entries are read in: the gravest category first, then the nearest, incoming before outgoing. */
export function exposureOrder(a: ExposureEntry, b: ExposureEntry): number {
  return (
    categoryRank(a.category) - categoryRank(b.category) ||
    cmp(a.category, b.category) ||
    a.hops - b.hops ||
    cmp(a.direction, b.direction)
  );
}
