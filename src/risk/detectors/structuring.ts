// structuring (docs/risk-model.md): at least 3 transfers sent or received by one address within 7 days, each between 85%
// and 100% (exclusive) of a reporting threshold, summing to more than the threshold. Thresholds: USD 1,000 (FATF
// travel rule), 3,000 and 10,000, plus the enabled jurisdictions' thresholds (converted to USD by the caller, at
// each day's rate for those set in a local currency: a transfer is measured against the threshold of its UTC day).
// Sent and received transfers are counted separately (splitting a payment, or "smurfs" paying one beneficiary).
// Services (exchanges, ...) are not subjects: their customers' withdrawals are the customers' behaviour.
// False friends left alone: salaries well below any threshold, one large transfer, two near-threshold transfers.
import type { Detector, Finding } from "../findings.ts";
import { duration, usd, usdRange, utcDay } from "../format.ts";
import { isService } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";

export interface ReportingThreshold {
  /** shown in messages, e.g. "FATF travel rule" or "MX: 210 UMA" */
  name: string;
  /** the threshold in USD (on days `usdByDay` does not list) */
  usd: number;
  /** the threshold in USD by UTC day (YYYY-MM-DD), for one set in a local currency and converted at each day's rate */
  usdByDay?: Readonly<Record<string, number>>;
}

/** The threshold in USD on the UTC day of `at` (unix seconds). */
export function thresholdOn(threshold: ReportingThreshold, at: number): number {
  if (!threshold.usdByDay) return threshold.usd;
  return threshold.usdByDay[utcDay(at)] ?? threshold.usd;
}

export interface StructuringParams {
  thresholds: ReportingThreshold[];
  /** the enabled jurisdictions' thresholds, converted to USD at the day's rate by the caller */
  extraThresholds: ReportingThreshold[];
  minTransfers: number;
  windowDays: number;
  /** a transfer counts when lowerFraction·threshold <= usd < upperFraction·threshold */
  lowerFraction: number;
  upperFraction: number;
  /** the transfers must sum to more than minTotalFraction·threshold */
  minTotalFraction: number;
}

export const DEFAULT_STRUCTURING_PARAMS: StructuringParams = {
  thresholds: [
    { name: "FATF travel rule", usd: 1_000 },
    { name: "US funds-transfer recordkeeping", usd: 3_000 },
    { name: "US currency transaction report", usd: 10_000 },
  ],
  extraThresholds: [],
  minTransfers: 3,
  windowDays: 7,
  lowerFraction: 0.85,
  upperFraction: 1,
  minTotalFraction: 1,
};

export const detectStructuring: Detector<StructuringParams> = (graph, params) =>
  sortFindings(findStructuring(indexGraph(graph), params));

export function findStructuring(index: GraphIndex, params: StructuringParams): Finding[] {
  // Fixed thresholds of the same amount are one (GT's USD 10,000 is the US one's amount); daily ones stay apart.
  const thresholds = [...params.thresholds, ...params.extraThresholds]
    .filter((t) => t.usd > 0)
    .sort((a, b) => a.usd - b.usd || (a.name < b.name ? -1 : 1))
    .filter((t, i, all) => i === 0 || t.usdByDay || all[i - 1]?.usd !== t.usd || all[i - 1]?.usdByDay);
  const findings: Finding[] = [];
  for (const node of index.nodes) {
    if (isService(node)) continue;
    for (const sent of [true, false]) {
      const edges = (sent ? index.outOf(node.address) : index.inOf(node.address)).filter(
        (e) => e.from !== e.to && e.usd !== null,
      );
      for (const threshold of thresholds) {
        for (const group of nearThresholdGroups(edges, threshold, params)) {
          findings.push(toFinding(node.address, sent, group, threshold, params));
        }
      }
    }
  }
  return findings;
}

/** Non-overlapping groups of near-threshold transfers within the window, earliest first. */
function nearThresholdGroups(
  edges: readonly GraphEdge[],
  threshold: ReportingThreshold,
  p: StructuringParams,
) {
  const near = edges.filter((e) => {
    const v = e.usd as number;
    const t = thresholdOn(threshold, e.at);
    return v >= p.lowerFraction * t && v < p.upperFraction * t;
  });
  const groups: GraphEdge[][] = [];
  const window = p.windowDays * 86_400;
  let i = 0;
  while (i < near.length) {
    const start = (near[i] as GraphEdge).at;
    let j = i;
    while (j + 1 < near.length && (near[j + 1] as GraphEdge).at - start <= window) j++;
    const group = near.slice(i, j + 1);
    const total = group.reduce((s, e) => s + (e.usd as number), 0);
    if (group.length >= p.minTransfers && total > p.minTotalFraction * thresholdOn(threshold, start)) {
      groups.push(group);
      i = j + 1;
    } else i++;
  }
  return groups;
}

function toFinding(
  subject: string,
  sent: boolean,
  group: GraphEdge[],
  threshold: ReportingThreshold,
  p: StructuringParams,
): Finding {
  const amounts = group.map((e) => e.usd as number);
  const total = amounts.reduce((s, v) => s + v, 0);
  const lo = Math.min(...amounts);
  const hi = Math.max(...amounts);
  const span = (group.at(-1) as GraphEdge).at - (group[0] as GraphEdge).at;
  const thresholdUsd = thresholdOn(threshold, (group[0] as GraphEdge).at);
  const meanRatio = total / group.length / thresholdUsd;
  const confidence = 0.7 + 0.05 * Math.min(4, group.length - p.minTransfers) + (meanRatio >= 0.93 ? 0.1 : 0);
  const band = `${Math.round(p.lowerFraction * 100)}–${Math.round(p.upperFraction * 100)}%`;
  return makeFinding("structuring", {
    confidence: Math.min(0.95, confidence),
    subject,
    wallets: group.map((e) => (sent ? e.to : e.from)),
    edges: group,
    usdAmount: total,
    thresholds: {
      thresholdUsd,
      thresholdName: threshold.name,
      direction: sent ? "sent" : "received",
      windowDays: p.windowDays,
      minTransfers: p.minTransfers,
      lowerFraction: p.lowerFraction,
      upperFraction: p.upperFraction,
    },
    message:
      `${sent ? "Sent" : "Received"} ${group.length} transfers of ${usdRange(lo, hi)} within ` +
      `${duration(span)}, each ${band} of the ${usd(thresholdUsd)} threshold (${threshold.name}), ` +
      `${usd(total)} in total.`,
  });
}
