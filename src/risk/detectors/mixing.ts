// mixing (docs/risk-model.md): funds of the analysed address reach or come from an address labelled `mixer` (e.g. Tornado
// Cash pools and routers) within the analysed depth; also deposits of the fixed denominations of a known pool;
// confidence falls with each hop.
// As implemented, for each root of the graph and each direction: the fewest hops at which its funds reach a mixer
// (outgoing) or come from one (incoming) along time-respecting paths (each transfer no earlier than the previous
// one) through addresses that are neither services nor tainted (graph/trace.ts). A direct deposit or withdrawal is
// the pattern. Beyond one hop it is the pattern only when the address's own funds are traced there: of what it sent
// into (or received from) the addresses on those paths, at least minTracedFraction must reach (or come from) the
// mixers by haircut taint (graph/taint.ts, docs/decisions/0011), so a payment to someone who later mixed their own
// money, pooled with many others', is not mixing; that weaker link is the exposure's, with its share and hops.
// Confidence: 0.9 at 1 hop, 1.0 when the deposits into the mixer are exactly a pool's fixed denominations, times
// 0.6 per further hop and the traced fraction. An address merely active at the same time as a mixer deposit has no
// such path and is left alone.

import type { Detector, Finding } from "../findings.ts";
import { hops, pct, tokens, usd } from "../format.ts";
import { addressKey } from "../graph/address-key.ts";
import { sumUsd } from "../graph/amounts.ts";
import { displayName, endsTrace, isMixer, shortAddress } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import { HaircutTaint } from "../graph/taint.ts";
import { type Direction, type TraceGroup, trace } from "../graph/trace.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface KnownPool {
  /** lowercase address */
  address: string;
  label: string;
}

export interface MixingParams {
  /** hops to trace; null: the graph's depth */
  maxHops: number | null;
  directConfidence: number;
  /** confidence of deposits of exactly a pool's fixed denominations */
  denominationConfidence: number;
  /** confidence is multiplied by this for every hop beyond the first */
  hopDecay: number;
  timeRespecting: boolean;
  /** beyond one hop: the share of the address's funds on the paths that must be traced to or from the mixers */
  minTracedFraction: number;
  /** how long before or after a transfer an intermediary's flows count when tracing, days */
  windowDays: number;
  /** mixer addresses known even when the graph's node carries no label */
  knownPools: KnownPool[];
  /** fixed pool denominations by token ("native" or the token's address), in the token's smallest unit */
  denominations: Record<string, bigint[]>;
}

const ETH = 10n ** 18n;

export const DEFAULT_MIXING_PARAMS: MixingParams = {
  maxHops: null,
  directConfidence: 0.9,
  denominationConfidence: 1,
  hopDecay: 0.6,
  timeRespecting: true,
  minTracedFraction: 0.5,
  windowDays: 30,
  knownPools: [],
  // Tornado Cash's ETH pools: 0.1, 1, 10 and 100 ETH.
  denominations: { native: [ETH / 10n, ETH, 10n * ETH, 100n * ETH] },
};

export const detectMixing: Detector<MixingParams> = (graph, params) =>
  sortFindings(findMixing(indexGraph(graph), params));

export function findMixing(index: GraphIndex, params: MixingParams): Finding[] {
  const pools = new Map(params.knownPools.map((p) => [addressKey(p.address), p.label]));
  const mixers = new Set(index.nodes.filter((n) => isMixer(n) || pools.has(n.address)).map((n) => n.address));
  if (mixers.size === 0) return [];
  const maxHops = Math.max(1, params.maxHops ?? index.graph.maxDepth);
  const name = (a: string) => pools.get(a) ?? displayName(index.node(a));
  const findings: Finding[] = [];
  const passable = (a: string) => !endsTrace(index.node(a)) && !pools.has(a);
  const taints = new Map<Direction, HaircutTaint>();
  const taintFor = (direction: Direction) => {
    let taint = taints.get(direction);
    if (!taint) {
      taint = new HaircutTaint(index, mixers, direction, {
        windowSeconds: params.windowDays * 86_400,
        timeRespecting: params.timeRespecting,
        passable,
      });
      taints.set(direction, taint);
    }
    return taint;
  };
  for (const root of index.roots) {
    if (mixers.has(root)) continue;
    const targets = new Set([...mixers].filter((m) => m !== root));
    for (const direction of ["outgoing", "incoming"] as const) {
      const [nearest] = trace(index, root, targets, direction, {
        maxHops,
        timeRespecting: params.timeRespecting,
        passable,
      });
      if (!nearest) continue;
      if (nearest.hops === 1) {
        findings.push(toFinding(root, direction, nearest, name, params, maxHops));
        continue;
      }
      const traced = tracedShare(index, root, direction, taintFor(direction), maxHops);
      if (traced && traced.fraction >= params.minTracedFraction) {
        findings.push(toFinding(root, direction, nearest, name, params, maxHops, traced));
      }
    }
  }
  return findings;
}

interface Traced {
  /** USD of the address's funds traced to or from the mixers */
  usd: number;
  /** of the address's transfers on paths that lead there */
  fraction: number;
}

/** How much of what the root sent into (received from) the paths that lead to mixers is traced there. */
function tracedShare(
  index: GraphIndex,
  root: string,
  direction: Direction,
  taint: HaircutTaint,
  maxHops: number,
): Traced | undefined {
  const edges = (direction === "outgoing" ? index.outOf(root) : index.inOf(root)).filter(
    (e) => e.from !== e.to && e.usd !== null && e.usd > 0,
  );
  let traced = 0;
  let onPaths = 0;
  for (const e of edges) {
    const fraction = taint.fraction(direction === "outgoing" ? e.to : e.from, e.at, maxHops - 1);
    if (fraction <= 0) continue;
    traced += (e.usd as number) * fraction;
    onPaths += e.usd as number;
  }
  return onPaths > 0 ? { usd: traced, fraction: traced / onPaths } : undefined;
}

function toFinding(
  root: string,
  direction: Direction,
  g: TraceGroup,
  name: (a: string) => string,
  p: MixingParams,
  maxHops: number,
  traced?: Traced,
): Finding {
  const fixed = direction === "outgoing" && g.targetEdges.every((e) => isDenomination(e, p));
  const base = fixed ? p.denominationConfidence : p.directConfidence;
  const confidence = base * p.hopDecay ** (g.hops - 1) * Math.min(1, traced?.fraction ?? 1);
  const atRoot = sumUsd(g.rootEdges);
  const atMixer = sumUsd(g.targetEdges);
  const amount = g.hops === 1 || !traced ? atRoot : Math.min(traced.usd, atMixer);
  const mixers = g.targets.map(name).join(", ");
  const count = `${g.rootEdges.length} transfer${g.rootEdges.length === 1 ? "" : "s"}`;
  const denomination = fixed ? `, each exactly a fixed pool denomination` : "";
  let message: string;
  if (g.hops === 1) {
    message =
      direction === "outgoing"
        ? `Sent ${amountText(g.rootEdges)} in ${count} directly to ${mixers}${denomination}.`
        : `Received ${amountText(g.rootEdges)} in ${count} directly from ${mixers}.`;
  } else {
    const via = g.via.slice(0, 3).map(shortAddress).join(", ") + (g.via.length > 3 ? ", ..." : "");
    const share = traced ? `${pct(traced.fraction)} of it, ${usd(amount)}, traced` : "funds traced";
    message =
      direction === "outgoing"
        ? `Sent ${amountText(g.rootEdges)} to ${via}, ${share} into ${mixers} ${hops(g.hops)} away ` +
          `(${usd(atMixer)} deposited into the mixer${denomination}).`
        : `Received ${amountText(g.rootEdges)} from ${via}, ${share} from ${mixers} ${hops(g.hops)} ` +
          `away (${usd(atMixer)} withdrawn from the mixer).`;
  }
  return makeFinding("mixing", {
    confidence,
    subject: root,
    wallets: [...g.via, ...g.targets],
    edges: g.edges,
    usdAmount: amount,
    thresholds: {
      direction,
      hops: g.hops,
      maxHops,
      hopDecay: p.hopDecay,
      fixedDenominations: fixed ? "yes" : "no",
      ...(traced
        ? {
            tracedFraction: Math.round(traced.fraction * 1_000) / 1_000,
            minTracedFraction: p.minTracedFraction,
          }
        : {}),
    },
    message,
  });
}

function isDenomination(e: GraphEdge, p: MixingParams): boolean {
  return (p.denominations[e.token] ?? []).includes(e.value);
}

/** "3 ETH (USD 7,500)" when one token is moved, else "USD 7,500". */
function amountText(edges: readonly GraphEdge[]): string {
  const first = edges[0];
  const total = sumUsd(edges);
  if (!first || edges.some((e) => e.token !== first.token)) return usd(total);
  const value = edges.reduce((s, e) => s + e.value, 0n);
  return `${tokens(value, first.decimals, first.symbol)} (${usd(total)})`;
}
