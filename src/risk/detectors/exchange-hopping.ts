// exchange_hopping (docs/risk-model.md): funds pass through deposit or hot wallets of at least 2 distinct exchanges
// (label `exchange`) within 72 hours, without resting more than 72 hours at any step.
// As implemented, for an address A (not a service, not a contract): a hop is a withdrawal from exchange X to A
// followed within 72 hours by a deposit from A into a different exchange Y carrying 80-125% of it (the same funds;
// token units or USD, graph/amounts.ts ratioBounds). The hops and the deposits into X that preceded them within 72 hours form bursts (no gap over
// 72 hours); a burst touching >= 2 exchanges is reported. Exchanges are told apart by the label's name before ":"
// (a deposit address and a hot wallet of one exchange are one exchange). A single deposit, or deposits into two
// exchanges without funds coming out of one of them, is left alone.
import type { Detector, Finding } from "../findings.ts";
import { duration, usd } from "../format.ts";
import { ratioBounds } from "../graph/amounts.ts";
import { exchangeEntity, exchangeName, isExchange, isService } from "../graph/classify.ts";
import { compareEdges, type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface ExchangeHoppingParams {
  minExchanges: number;
  /** longest rest of the funds at any step, hours */
  maxRestHours: number;
  /** the deposit into the next exchange carries between these fractions of the withdrawal (the same funds) */
  minCarriedFraction: number;
  maxCarriedFraction: number;
}

export const DEFAULT_EXCHANGE_HOPPING_PARAMS: ExchangeHoppingParams = {
  minExchanges: 2,
  maxRestHours: 72,
  minCarriedFraction: 0.8,
  maxCarriedFraction: 1.25,
};

interface Hop {
  withdrawal: GraphEdge;
  deposit: GraphEdge;
  before?: GraphEdge;
}

export const detectExchangeHopping: Detector<ExchangeHoppingParams> = (graph, params) =>
  sortFindings(findExchangeHopping(indexGraph(graph), params));

export function findExchangeHopping(index: GraphIndex, params: ExchangeHoppingParams): Finding[] {
  const rest = params.maxRestHours * 3_600;
  const entity = (address: string) => exchangeEntity(index.node(address));
  const findings: Finding[] = [];
  for (const node of index.nodes) {
    if (isService(node) || node.isContract) continue;
    const a = node.address;
    const deposits = index.outOf(a).filter((e) => e.to !== a && isExchange(index.node(e.to)));
    const withdrawals = index.inOf(a).filter((e) => e.from !== a && isExchange(index.node(e.from)));
    if (deposits.length === 0 || withdrawals.length === 0) continue;
    const hops: Hop[] = [];
    for (const w of withdrawals) {
      const x = entity(w.from);
      const d = deposits.find((d) => {
        if (d.at < w.at || d.at - w.at > rest || entity(d.to) === x) return false;
        const r = ratioBounds(w, d);
        return r !== null && r.hi >= params.minCarriedFraction && r.lo <= params.maxCarriedFraction;
      });
      if (!d) continue;
      const before = deposits.filter((b) => entity(b.to) === x && b.at <= w.at && w.at - b.at <= rest).at(-1);
      hops.push(before ? { withdrawal: w, deposit: d, before } : { withdrawal: w, deposit: d });
    }
    for (const burst of bursts(hops, rest)) {
      const exchanges = new Map<string, string>();
      for (const e of burst.edges) {
        const ex = isExchange(index.node(e.to)) ? e.to : e.from;
        if (!exchanges.has(entity(ex))) exchanges.set(entity(ex), exchangeName(index.node(ex)));
      }
      if (exchanges.size >= params.minExchanges) {
        findings.push(toFinding(a, burst, [...exchanges.values()], params));
      }
    }
  }
  return findings;
}

/** Groups the hops' transfers into bursts with no gap over `rest` seconds. */
function bursts(hops: Hop[], rest: number): { edges: GraphEdge[]; hops: Hop[] }[] {
  const sorted = [...hops].sort((x, y) => compareEdges(x.before ?? x.withdrawal, y.before ?? y.withdrawal));
  const out: { edges: GraphEdge[]; hops: Hop[] }[] = [];
  let current: { edges: GraphEdge[]; hops: Hop[]; end: number } | undefined;
  for (const h of sorted) {
    const start = (h.before ?? h.withdrawal).at;
    if (!current || start - current.end > rest) {
      current = { edges: [], hops: [], end: start };
      out.push(current);
    }
    current.hops.push(h);
    for (const e of [h.before, h.withdrawal, h.deposit])
      if (e && !current.edges.includes(e)) current.edges.push(e);
    current.end = Math.max(current.end, h.deposit.at);
  }
  return out.map(({ edges, hops }) => ({ edges: edges.sort(compareEdges), hops }));
}

function toFinding(
  subject: string,
  burst: { edges: GraphEdge[]; hops: Hop[] },
  names: string[],
  p: ExchangeHoppingParams,
) {
  const first = burst.edges[0] as GraphEdge;
  const last = burst.edges.at(-1) as GraphEdge;
  const moved = Math.max(...burst.hops.map((h) => h.deposit.usd ?? 0));
  const longestRest = Math.max(...burst.hops.map((h) => h.deposit.at - h.withdrawal.at));
  const confirmed = burst.hops.some((h) => h.before);
  const confidence = 0.6 + 0.1 * Math.min(2, names.length - p.minExchanges) + (confirmed ? 0.1 : 0);
  return makeFinding("exchange_hopping", {
    confidence: Math.min(0.9, confidence),
    subject,
    wallets: burst.edges.map((e) => (e.from === subject ? e.to : e.from)),
    edges: burst.edges,
    usdAmount: moved,
    thresholds: {
      exchanges: names.length,
      minExchanges: p.minExchanges,
      maxRestHours: p.maxRestHours,
      minCarriedFraction: p.minCarriedFraction,
      maxCarriedFraction: p.maxCarriedFraction,
    },
    message:
      `Moved ${usd(moved)} through ${names.length} exchanges (${names.join(", ")}) within ` +
      `${duration(last.at - first.at)}, depositing into the next exchange at most ${duration(longestRest)} ` +
      `after withdrawing from the previous one.`,
  });
}
