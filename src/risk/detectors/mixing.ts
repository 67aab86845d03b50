// mixing (patterns.md): funds of the analysed address reach or come from an address labelled `mixer` (e.g. Tornado
// Cash pools and routers) within the analysed depth; also deposits of the fixed denominations of a known pool;
// confidence falls with each hop.
// As implemented, for each root of the graph and each direction: the fewest hops at which its funds reach a mixer
// (outgoing) or come from one (incoming) along time-respecting paths (each transfer no earlier than the previous
// one) through addresses that are neither services nor tainted (graph/trace.ts). Confidence: 0.9 at 1 hop, 1.0
// when the deposits into the mixer are exactly a pool's fixed denominations, times 0.6 per further hop. An
// address merely active at the same time as a mixer deposit has no such path and is left alone.
import type { Detector, Finding } from "../findings.ts";
import { hops, tokens, usd } from "../format.ts";
import { sumUsd } from "../graph/amounts.ts";
import { displayName, endsTrace, isMixer, shortAddress } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
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
  knownPools: [],
  // Tornado Cash's ETH pools: 0.1, 1, 10 and 100 ETH.
  denominations: { native: [ETH / 10n, ETH, 10n * ETH, 100n * ETH] },
};

export const detectMixing: Detector<MixingParams> = (graph, params) =>
  sortFindings(findMixing(indexGraph(graph), params));

export function findMixing(index: GraphIndex, params: MixingParams): Finding[] {
  const pools = new Map(params.knownPools.map((p) => [p.address.toLowerCase(), p.label]));
  const mixers = new Set(index.nodes.filter((n) => isMixer(n) || pools.has(n.address)).map((n) => n.address));
  if (mixers.size === 0) return [];
  const maxHops = Math.max(1, params.maxHops ?? index.graph.maxDepth);
  const name = (a: string) => pools.get(a) ?? displayName(index.node(a));
  const findings: Finding[] = [];
  for (const root of index.roots) {
    if (mixers.has(root)) continue;
    const targets = new Set([...mixers].filter((m) => m !== root));
    for (const direction of ["outgoing", "incoming"] as const) {
      const [nearest] = trace(index, root, targets, direction, {
        maxHops,
        timeRespecting: params.timeRespecting,
        passable: (a) => !endsTrace(index.node(a)) && !pools.has(a),
      });
      if (nearest) findings.push(toFinding(root, direction, nearest, name, params, maxHops));
    }
  }
  return findings;
}

function toFinding(
  root: string,
  direction: Direction,
  g: TraceGroup,
  name: (a: string) => string,
  p: MixingParams,
  maxHops: number,
): Finding {
  const fixed = direction === "outgoing" && g.targetEdges.every((e) => isDenomination(e, p));
  const base = fixed ? p.denominationConfidence : p.directConfidence;
  const confidence = base * p.hopDecay ** (g.hops - 1);
  const atRoot = sumUsd(g.rootEdges);
  const atMixer = sumUsd(g.targetEdges);
  const amount = g.hops === 1 ? atRoot : Math.min(atRoot, atMixer);
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
    message =
      direction === "outgoing"
        ? `Sent ${amountText(g.rootEdges)} to ${via}, from where funds reached ${mixers} ${hops(g.hops)} away ` +
          `(${usd(atMixer)} deposited into the mixer${denomination}).`
        : `Received ${amountText(g.rootEdges)} from ${via}, funds that came from ${mixers} ${hops(g.hops)} ` +
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
