// wash_trading (docs/risk-model.md): two or more addresses send the same token back and forth at least 3 times each way
// within 7 days, amounts within 10% of each other, net flow under 10% of the gross.
// As implemented, per pair of addresses (neither a service) and token: the 7-day window holding the most
// transfers whose amounts (token units) lie within 10% of the window's median; reported when at least 3 of them
// go each way and the net flow is under 10% of the gross. Pairs only: longer rings show up as round tripping.
import type { Detector, Finding } from "../findings.ts";
import { duration, pct, usd, usdRange } from "../format.ts";
import { median, tokenAmount } from "../graph/amounts.ts";
import { isService, shortAddress } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface WashTradingParams {
  minTransfersEachWay: number;
  windowDays: number;
  /** every amount within this fraction of the median amount */
  maxAmountDeviation: number;
  /** |net flow| below this fraction of the gross */
  maxNetFraction: number;
}

export const DEFAULT_WASH_TRADING_PARAMS: WashTradingParams = {
  minTransfersEachWay: 3,
  windowDays: 7,
  maxAmountDeviation: 0.1,
  maxNetFraction: 0.1,
};

export const detectWashTrading: Detector<WashTradingParams> = (graph, params) =>
  sortFindings(findWashTrading(indexGraph(graph), params));

export function findWashTrading(index: GraphIndex, params: WashTradingParams): Finding[] {
  const pairs = new Map<string, GraphEdge[]>();
  for (const e of index.edges) {
    if (e.from === e.to || isService(index.node(e.from)) || isService(index.node(e.to))) continue;
    const [a, b] = e.from < e.to ? [e.from, e.to] : [e.to, e.from];
    const key = `${a}|${b}|${e.token}`;
    const list = pairs.get(key);
    if (list) list.push(e);
    else pairs.set(key, [e]);
  }
  const findings: Finding[] = [];
  for (const [key, edges] of [...pairs].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    if (edges.length < 2 * params.minTransfersEachWay) continue;
    const [a = "", b = ""] = key.split("|");
    const best = bestWindow(edges, a, params);
    if (best) findings.push(toFinding(best, a, b, params));
  }
  return findings;
}

interface Window {
  edges: GraphEdge[];
  ab: bigint;
  ba: bigint;
}

function bestWindow(edges: GraphEdge[], a: string, p: WashTradingParams): Window | undefined {
  const span = p.windowDays * 86_400;
  let best: Window | undefined;
  let j = 0;
  for (let i = 0; i < edges.length; i++) {
    const start = (edges[i] as GraphEdge).at;
    j = Math.max(j, i);
    while (j + 1 < edges.length && (edges[j + 1] as GraphEdge).at - start <= span) j++;
    const inWindow = edges.slice(i, j + 1);
    if (inWindow.length < 2 * p.minTransfersEachWay) continue;
    const med = median(inWindow.map(tokenAmount));
    const kept = inWindow.filter((e) => Math.abs(tokenAmount(e) - med) <= p.maxAmountDeviation * med);
    const fromA = kept.filter((e) => e.from === a);
    const fromB = kept.filter((e) => e.from !== a);
    if (fromA.length < p.minTransfersEachWay || fromB.length < p.minTransfersEachWay) continue;
    const ab = fromA.reduce((s, e) => s + e.value, 0n);
    const ba = fromB.reduce((s, e) => s + e.value, 0n);
    const gross = ab + ba;
    const net = ab > ba ? ab - ba : ba - ab;
    if (gross === 0n || Number((net * 1_000_000n) / gross) / 1_000_000 >= p.maxNetFraction) continue;
    if (!best || kept.length > best.edges.length) best = { edges: kept, ab, ba };
  }
  return best;
}

function toFinding(w: Window, a: string, b: string, p: WashTradingParams): Finding {
  const first = w.edges[0] as GraphEdge;
  const last = w.edges.at(-1) as GraphEdge;
  const subject = first.from;
  const other = subject === a ? b : a;
  const gross = w.ab + w.ba;
  const net = w.ab > w.ba ? w.ab - w.ba : w.ba - w.ab;
  const netFraction = Number((net * 1_000_000n) / gross) / 1_000_000;
  const eachWay = Math.min(
    w.edges.filter((e) => e.from === a).length,
    w.edges.filter((e) => e.from === b).length,
  );
  const amounts = w.edges.map((e) => e.usd ?? 0);
  const grossUsd = amounts.reduce((s, v) => s + v, 0);
  const counts = `${w.edges.filter((e) => e.from === subject).length} and ${w.edges.filter((e) => e.from === other).length}`;
  return makeFinding("wash_trading", {
    confidence:
      Math.min(0.9, 0.7 + 0.05 * (eachWay - p.minTransfersEachWay)) + (netFraction < 0.03 ? 0.05 : 0),
    subject,
    wallets: [subject, other],
    actors: [subject, other],
    edges: w.edges,
    usdAmount: grossUsd,
    thresholds: {
      token: first.symbol,
      minTransfersEachWay: p.minTransfersEachWay,
      windowDays: p.windowDays,
      maxAmountDeviation: p.maxAmountDeviation,
      maxNetFraction: p.maxNetFraction,
      netFraction: Math.round(netFraction * 1000) / 1000,
    },
    message:
      `Sent ${first.symbol} back and forth with ${shortAddress(other)} (${counts} transfers each way) within ` +
      `${duration(last.at - first.at)}, ${usdRange(Math.min(...amounts), Math.max(...amounts))} per transfer, ` +
      `net flow ${pct(netFraction)} of the ${usd(grossUsd)} gross.`,
  });
}
