// round_tripping (docs/risk-model.md): funds leaving an address return to it within 2 to 6 hops and 30 days, carrying
// at least 70% of the amount that left.
// As implemented: from each transfer out of an address (not a service, not a contract), a depth-first search over
// time-respecting transfers (each no earlier than the previous one, all within 30 days of the first) in which
// every leg carries 70-125% of the amount that left, back to the address; the return must carry >= 70%. The search
// is bounded (at most `maxHops` deep; `maxStepsPerStart`, `maxStepsPerOrigin` and `maxStepsTotal` transfers
// examined) so it never goes exponential. Amounts compare in token units or USD, whichever is higher (a price move
// does not decide).
// Origins are searched nearest to the graph's roots first (depth, then address), each with its own share of the
// work: in a multi-root scan the graph holds hubs (employers paying hundreds of salaries, busy users) whose
// searches would otherwise spend the whole budget before the analysed addresses' own loops are looked at, and
// whether an address's loop was found would depend on which other addresses were scanned with it.
// A loop never passes through a service (an exchange, including the deposit addresses inferred as one, a DEX, a
// bridge, a mixer): they pool everyone's funds, so what one pays an address is that address's own withdrawal or
// swap, never the funds someone else sent it. "A -> router, router -> B" is two swaps, not funds moving from A to
// B (found by the eval's benchmark: two users' unrelated swaps closed "loops" with a payment between them); "A ->
// B -> exchange, exchange -> A" is B's deposit and A's withdrawal (found again when ordinary users pay an
// exchange's wallet directly). A deposit into an exchange and a withdrawal back, the false friend (docs/risk-model.md),
// is left alone by the same rule. So is a loop closed within one transaction: an exchange of assets (a swap through
// a pool the store does not know as a contract, a settlement contract's trade), not funds sent away and brought
// back. A transfer belongs to at most one loop; one finding per address.
import type { Detector, Finding } from "../findings.ts";
import { duration, hops, pct, usd } from "../format.ts";
import { ratioBounds } from "../graph/amounts.ts";
import { isService, shortAddress } from "../graph/classify.ts";
import { firstAtOrAfter, type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface RoundTrippingParams {
  minHops: number;
  maxHops: number;
  windowDays: number;
  /** the transfer that comes back carries at least this fraction of what left */
  minReturnFraction: number;
  /** every leg of the loop carries at least this fraction of what left (unrelated funds don't close a loop) */
  minLegFraction: number;
  /** and at most this fraction (a small payment answered by a large unrelated one is no loop) */
  maxLegFraction: number;
  maxStepsPerStart: number;
  /** transfers examined for one origin, all its starts together (a hub cannot starve the others) */
  maxStepsPerOrigin: number;
  maxStepsTotal: number;
}

export const DEFAULT_ROUND_TRIPPING_PARAMS: RoundTrippingParams = {
  minHops: 2,
  maxHops: 6,
  windowDays: 30,
  minReturnFraction: 0.7,
  minLegFraction: 0.7,
  maxLegFraction: 1.25,
  maxStepsPerStart: 5_000,
  maxStepsPerOrigin: 20_000,
  maxStepsTotal: 1_000_000,
};

interface Loop {
  edges: GraphEdge[];
  returned: number;
}

export const detectRoundTripping: Detector<RoundTrippingParams> = (graph, params) =>
  sortFindings(findRoundTrips(indexGraph(graph), params));

export function findRoundTrips(index: GraphIndex, params: RoundTrippingParams): Finding[] {
  const used = new Set<string>();
  const budget = { total: params.maxStepsTotal, origin: 0 };
  const findings: Finding[] = [];
  // Nearest the roots first: the roots (depth 0), their counterparties, ... (ties by address, as index.nodes).
  const origins = index.nodes
    .map((node, i) => ({
      node,
      i,
      depth: index.graph.roots.length ? depthOf(index, node.address, node.depth) : 0,
    }))
    .sort((a, b) => a.depth - b.depth || a.i - b.i)
    .map((o) => o.node);
  for (const origin of origins) {
    if (budget.total <= 0) break;
    if (isService(origin) || origin.isContract) continue;
    budget.origin = params.maxStepsPerOrigin;
    const loops: Loop[] = [];
    for (const start of index.outOf(origin.address)) {
      if (budget.total <= 0 || budget.origin <= 0) break;
      if (start.to === origin.address || used.has(start.id) || isService(index.node(start.to))) continue;
      const loop = bestLoop(index, origin.address, start, used, params, budget);
      if (!loop) continue;
      for (const e of loop.edges) used.add(e.id);
      loops.push(loop);
    }
    if (loops.length > 0) findings.push(toFinding(index, origin.address, loops, params));
  }
  return findings;
}

/** A node's distance from the nearest root: the graph's own figure, 0 for a root, unknown (placeholder) last. */
function depthOf(index: GraphIndex, address: string, depth: number): number {
  if (index.roots.includes(address)) return 0;
  return Number.isFinite(depth) ? Math.max(1, depth) : Number.MAX_SAFE_INTEGER;
}

/** The best loop from `start` back to `origin`: fewest hops, then the largest return, then the earliest. */
function bestLoop(
  index: GraphIndex,
  origin: string,
  start: GraphEdge,
  used: ReadonlySet<string>,
  p: RoundTrippingParams,
  budget: { total: number; origin: number },
): Loop | undefined {
  const deadline = start.at + p.windowDays * 86_400;
  let steps = p.maxStepsPerStart;
  let best: Loop | undefined;
  const path: GraphEdge[] = [start];
  const onPath = new Set([origin, start.to]);

  const better = (a: Loop, b: Loop | undefined) =>
    !b || a.edges.length < b.edges.length || (a.edges.length === b.edges.length && a.returned > b.returned);

  const dfs = (at: string, after: number): void => {
    const outs = index.outOf(at);
    for (let i = firstAtOrAfter(outs, after); i < outs.length; i++) {
      const e = outs[i] as GraphEdge;
      if (e.at > deadline || steps <= 0 || budget.total <= 0 || budget.origin <= 0) return;
      steps--;
      budget.total--;
      budget.origin--;
      if (used.has(e.id)) continue;
      const b = ratioBounds(start, e);
      if (b === null || b.hi < p.minLegFraction || b.lo > p.maxLegFraction) continue;
      if (e.to === origin) {
        // A loop closed within one transaction is an exchange of assets (a swap through a pool the graph does not
        // know as one, a settlement contract's trade), not funds sent away and brought back.
        if (e.txHash === start.txHash && path.every((x) => x.txHash === start.txHash)) continue;
        const loop = { edges: [...path, e], returned: b.hi };
        if (loop.edges.length >= p.minHops && b.hi >= p.minReturnFraction) {
          if (better(loop, best)) best = loop;
        }
        continue;
      }
      if (onPath.has(e.to) || path.length + 2 > p.maxHops || isService(index.node(e.to))) continue;
      if (best && path.length + 2 > best.edges.length) continue;
      path.push(e);
      onPath.add(e.to);
      dfs(e.to, e.at);
      path.pop();
      onPath.delete(e.to);
    }
  };
  dfs(start.to, start.at);
  return best;
}

function toFinding(index: GraphIndex, origin: string, loops: Loop[], p: RoundTrippingParams): Finding {
  const main = [...loops].sort(
    (a, b) => (b.edges[0]?.usd ?? 0) - (a.edges[0]?.usd ?? 0) || a.edges.length - b.edges.length,
  )[0] as Loop;
  const left = main.edges[0] as GraphEdge;
  const back = main.edges.at(-1) as GraphEdge;
  const sentTotal = loops.reduce((s, l) => s + (l.edges[0]?.usd ?? 0), 0);
  const minHops = Math.min(...loops.map((l) => l.edges.length));
  const minReturned = Math.min(...loops.map((l) => l.returned));
  const confidence =
    0.65 + (minHops >= 3 ? 0.1 : 0) + 0.1 * Math.min(1, (minReturned - p.minReturnFraction) / 0.3);
  const intermediaries = main.edges.length - 1;
  const more = loops.length > 1 ? `; ${loops.length} such loops, ${usd(sentTotal)} sent in total` : "";
  return makeFinding("round_tripping", {
    confidence: Math.min(0.9, confidence),
    subject: origin,
    wallets: loops.flatMap((l) => l.edges.map((e) => e.to)),
    actors: loops.flatMap((l) => l.edges.map((e) => e.to)).filter((a) => !isService(index.node(a))),
    edges: loops.flatMap((l) => l.edges),
    usdAmount: sentTotal,
    thresholds: {
      hops: main.edges.length,
      minHops: p.minHops,
      maxHops: p.maxHops,
      windowDays: p.windowDays,
      minReturnFraction: p.minReturnFraction,
      returned: Math.round(main.returned * 1000) / 1000,
    },
    message:
      `${usd(left.usd ?? 0)} left ${shortAddress(origin)} and ${pct(main.returned)} of it ` +
      `(${usd(back.usd ?? 0)}) came back after ${hops(main.edges.length)} through ${intermediaries} ` +
      `address${intermediaries === 1 ? "" : "es"} in ${duration(back.at - left.at)}${more}.`,
  });
}
