// mass_wallet_creation (docs/risk-model.md): one address is the first funder of at least 10 fresh addresses within 24
// hours, the amounts within 25% of their median.
// As implemented: for each funder (not a service such as a labelled exchange, not a contract such as a payroll
// contract, not labelled as a faucet, payroll or airdrop distributor), its transfers that were the recipient's
// very first transfer; the 24-hour window with the most such wallets whose amounts lie within 25% of the window's
// median (USD, or token units when a price is missing) is reported when it holds at least 10.
import type { Detector, Finding } from "../findings.ts";
import { duration, usd, usdRange } from "../format.ts";
import { median, tokenAmount } from "../graph/amounts.ts";
import { isKnownDistributor, isService } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface MassWalletCreationParams {
  minWallets: number;
  windowHours: number;
  /** amounts within this fraction of the median */
  maxDeviationFromMedian: number;
}

export const DEFAULT_MASS_WALLET_CREATION_PARAMS: MassWalletCreationParams = {
  minWallets: 10,
  windowHours: 24,
  maxDeviationFromMedian: 0.25,
};

export const detectMassWalletCreation: Detector<MassWalletCreationParams> = (graph, params) =>
  sortFindings(findMassWalletCreation(indexGraph(graph), params));

export function findMassWalletCreation(index: GraphIndex, params: MassWalletCreationParams): Finding[] {
  const findings: Finding[] = [];
  for (const funder of index.nodes) {
    if (isService(funder) || funder.isContract || isKnownDistributor(funder)) continue;
    const funded = firstFundings(index, funder.address);
    if (funded.length < params.minWallets) continue;
    const byUsd = funded.every((e) => e.usd !== null);
    const amount = (e: GraphEdge) => (byUsd ? (e.usd as number) : tokenAmount(e));
    const usable = byUsd ? funded : sameToken(funded);
    const best = bestWindow(usable, amount, params);
    if (best) findings.push(toFinding(funder.address, best.edges, best.median, byUsd, params));
  }
  return findings;
}

/** Transfers of the funder that were the recipient's first transfer, one per recipient. */
function firstFundings(index: GraphIndex, funder: string): GraphEdge[] {
  const seen = new Set<string>();
  const out: GraphEdge[] = [];
  for (const e of index.outOf(funder)) {
    if (e.to === funder || seen.has(e.to)) continue;
    seen.add(e.to);
    const child = index.node(e.to);
    if (isService(child)) continue;
    if (index.isFreshAt(e.to, e)) out.push(e);
  }
  return out;
}

/** Without prices, only the funder's most used token can be compared. */
function sameToken(edges: GraphEdge[]): GraphEdge[] {
  const counts = new Map<string, number>();
  for (const e of edges) counts.set(e.token, (counts.get(e.token) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  return edges.filter((e) => e.token === top);
}

function bestWindow(
  edges: GraphEdge[],
  amount: (e: GraphEdge) => number,
  p: MassWalletCreationParams,
): { edges: GraphEdge[]; median: number } | undefined {
  const window = p.windowHours * 3_600;
  let best: { edges: GraphEdge[]; median: number } | undefined;
  let j = 0;
  for (let i = 0; i < edges.length; i++) {
    const start = (edges[i] as GraphEdge).at;
    j = Math.max(j, i);
    while (j + 1 < edges.length && (edges[j + 1] as GraphEdge).at - start <= window) j++;
    if (j - i + 1 < p.minWallets) continue;
    const inWindow = edges.slice(i, j + 1);
    const med = median(inWindow.map(amount));
    const kept = inWindow.filter((e) => Math.abs(amount(e) - med) <= p.maxDeviationFromMedian * med);
    if (kept.length >= p.minWallets && (!best || kept.length > best.edges.length)) {
      best = { edges: kept, median: med };
    }
  }
  return best;
}

function toFinding(
  funder: string,
  edges: GraphEdge[],
  med: number,
  byUsd: boolean,
  p: MassWalletCreationParams,
): Finding {
  const first = edges[0] as GraphEdge;
  const last = edges.at(-1) as GraphEdge;
  const amounts = edges.map((e) => e.usd ?? 0);
  const total = amounts.reduce((s, v) => s + v, 0);
  const symbol = first.symbol;
  const range = byUsd
    ? `${usdRange(Math.min(...amounts), Math.max(...amounts))} each`
    : `about ${Math.round(med * 1e4) / 1e4} ${symbol} each`;
  const medianText = byUsd ? usd(med) : `${Math.round(med * 1e4) / 1e4} ${symbol}`;
  return makeFinding("mass_wallet_creation", {
    confidence: Math.min(0.9, 0.65 + 0.025 * (edges.length - p.minWallets)),
    subject: funder,
    wallets: edges.map((e) => e.to),
    actors: edges.map((e) => e.to),
    edges,
    usdAmount: total,
    thresholds: {
      wallets: edges.length,
      minWallets: p.minWallets,
      windowHours: p.windowHours,
      maxDeviationFromMedian: p.maxDeviationFromMedian,
    },
    message:
      `First funder of ${edges.length} fresh addresses within ${duration(last.at - first.at)}, ${range} ` +
      `(within ${Math.round(p.maxDeviationFromMedian * 100)}% of the ${medianText} median), ` +
      `${usd(total)} in total.`,
  });
}
