// peel_chain (docs/risk-model.md): a path of at least 3 hops in which each hop forwards at least 80% of what it received
// to a next address and "peels" the rest (at most 20%) to a different address; the forwarding addresses are fresh
// or used once; hops within 7 days of each other.
// As implemented: a hop is an address X that received a transfer, then within 7 days sent >= 80% of it on (the
// largest such transfer) and a peel of (0, 20%] of it to another address; X must be fresh at that inflow or have
// received only once in the graph; X is not a service (exchange hot wallets: their ordinary withdrawals) nor a
// contract. Hops chain when one hop's forward is the next hop's inflow. Amounts compare in token units and in USD
// (graph/amounts.ts ratioBounds: a price move between the inflow's day and the forward's day does not decide).
import type { Detector, Finding } from "../findings.ts";
import { duration, hops, pctRange, usd } from "../format.ts";
import { ratioBounds } from "../graph/amounts.ts";
import { isService, shortAddress } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface PeelChainParams {
  minHops: number;
  minForwardFraction: number;
  maxPeelFraction: number;
  /** the forward and the peel happen within this many days of the hop's inflow */
  maxHopGapDays: number;
  /** a forward may exceed the inflow by this fraction (price moves when amounts compare in USD) */
  forwardTolerance: number;
}

export const DEFAULT_PEEL_CHAIN_PARAMS: PeelChainParams = {
  minHops: 3,
  minForwardFraction: 0.8,
  maxPeelFraction: 0.2,
  maxHopGapDays: 7,
  forwardTolerance: 0.02,
};

interface Hop {
  node: string;
  inflow: GraphEdge;
  forward: GraphEdge;
  peel: GraphEdge;
  forwarded: number;
  peeled: number;
  fresh: boolean;
}

export const detectPeelChain: Detector<PeelChainParams> = (graph, params) =>
  sortFindings(findPeelChains(indexGraph(graph), params));

export function findPeelChains(index: GraphIndex, params: PeelChainParams): Finding[] {
  const hopByInflow = new Map<string, Hop>();
  for (const inflow of index.edges) {
    const hop = hopAt(index, inflow, params);
    if (hop) hopByInflow.set(inflow.id, hop);
  }
  const continued = new Set([...hopByInflow.values()].map((h) => h.forward.id));
  const findings: Finding[] = [];
  for (const first of hopByInflow.values()) {
    if (continued.has(first.inflow.id)) continue;
    const chain: Hop[] = [];
    const seen = new Set<string>();
    for (let h: Hop | undefined = first; h && !seen.has(h.inflow.id); h = hopByInflow.get(h.forward.id)) {
      seen.add(h.inflow.id);
      chain.push(h);
    }
    if (chain.length >= params.minHops) findings.push(toFinding(chain, params));
  }
  return findings;
}

function hopAt(index: GraphIndex, inflow: GraphEdge, p: PeelChainParams): Hop | undefined {
  const x = inflow.to;
  const node = index.node(x);
  if (x === inflow.from || isService(node) || node.isContract) return undefined;
  const fresh = index.isFreshAt(x, inflow);
  if (!fresh && index.inOf(x).length !== 1) return undefined;
  const until = inflow.at + p.maxHopGapDays * 86_400;
  let forward: { e: GraphEdge; r: number } | undefined;
  const outs: { e: GraphEdge; lo: number; r: number }[] = [];
  for (const e of index.outOf(x)) {
    if (e.at < inflow.at || e.at > until || e.to === x) continue;
    const b = ratioBounds(inflow, e);
    if (b === null) continue;
    outs.push({ e, lo: b.lo, r: b.value });
    const forwards = b.hi >= p.minForwardFraction && b.lo <= 1 + p.forwardTolerance;
    if (forwards && (!forward || b.value > forward.r)) forward = { e, r: b.value };
  }
  if (!forward) return undefined;
  const f = forward;
  const peel = outs.find(({ e, lo }) => e !== f.e && e.to !== f.e.to && lo > 0 && lo <= p.maxPeelFraction);
  if (!peel) return undefined;
  return { node: x, inflow, forward: f.e, peel: peel.e, forwarded: f.r, peeled: peel.r, fresh };
}

function toFinding(chain: Hop[], p: PeelChainParams): Finding {
  const first = chain[0] as Hop;
  const last = chain.at(-1) as Hop;
  const entered = first.inflow.usd ?? first.forward.usd ?? 0;
  const peeledUsd = chain.reduce((s, h) => s + (h.peel.usd ?? 0), 0);
  const forwarded = chain.map((h) => h.forwarded);
  const peeled = chain.map((h) => h.peeled);
  let longestGap = 0;
  for (const h of chain)
    longestGap = Math.max(longestGap, h.forward.at - h.inflow.at, h.peel.at - h.inflow.at);
  const span = Math.max(last.forward.at, last.peel.at) - first.inflow.at;
  const allFresh = chain.every((h) => h.fresh);
  const confidence = Math.min(0.9, 0.7 + 0.05 * (chain.length - p.minHops)) + (allFresh ? 0.05 : 0);
  return makeFinding("peel_chain", {
    confidence,
    subject: first.node,
    wallets: chain.flatMap((h) => [h.node, h.forward.to, h.peel.to]),
    actors: chain.map((h) => h.node),
    edges: [first.inflow, ...chain.flatMap((h) => [h.forward, h.peel])],
    usdAmount: entered,
    thresholds: {
      hops: chain.length,
      minHops: p.minHops,
      minForwardFraction: p.minForwardFraction,
      maxPeelFraction: p.maxPeelFraction,
      maxHopGapDays: p.maxHopGapDays,
    },
    message:
      `Peel chain of ${hops(chain.length)} over ${duration(span)} starting at ${shortAddress(first.node)}: ` +
      `${usd(entered)} entered, each hop forwarded ${pctRange(Math.min(...forwarded), Math.max(...forwarded))} ` +
      `to a ${allFresh ? "fresh" : "fresh or single-use"} address and peeled ` +
      `${pctRange(Math.min(...peeled), Math.max(...peeled))} (${usd(peeledUsd)} in total), ` +
      `at most ${duration(longestGap)} per hop.`,
  });
}
