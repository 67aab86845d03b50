// structuring (docs/risk-model.md): at least 3 transfers sent or received by one address within 7 days, each between 85%
// and 100% (exclusive) of a reporting threshold, summing to more than the threshold. Thresholds: USD 1,000 (FATF
// travel rule), 3,000 and 10,000, plus the enabled jurisdictions' thresholds (converted to USD by the caller, at
// each day's rate for those set in a local currency: a transfer is measured against the threshold of its UTC day).
// Sent and received transfers are counted separately (splitting a payment, or "smurfs" paying one beneficiary).
// Services (exchanges, ...) are not subjects: their customers' withdrawals are the customers' behaviour.
// False friends left alone: salaries well below any threshold, one large transfer, two near-threshold transfers.
// Across an owner's wallets (owner-wallets.ts): the near-threshold transfers sent by two or more fresh,
// single-purpose wallets one address funded are judged together, as the owner's series (a smurf who spreads
// 3-7 transfers over days and wallets, at most two from each); the finding names the wallets and why they are
// taken as one owner's.
import type { Detector, Finding } from "../findings.ts";
import { duration, usd, usdRange, utcDay } from "../format.ts";
import { isService, shortAddress } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import { makeFinding, sortFindings } from "./finding.ts";
import { type OwnerWalletRules, ownersWithWallets } from "./owner-wallets.ts";

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
  /** the series is also judged over an owner's wallets (owner-wallets.ts); null: per address only */
  ownerWallets: OwnerWalletRules | null;
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
  ownerWallets: { maxWalletTransfers: 3, minEmptiedFraction: 0.8, maxWallets: 10, dustUsd: 1 },
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
  if (params.ownerWallets) findings.push(...ownerStructuring(index, thresholds, params, params.ownerWallets));
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

/**
 * Structuring over each owner's wallets: their sent transfers (and the owner's own) taken as one address's, and
 * a group kept only when two or more of the wallets sent in it (one address alone is judged above).
 */
function ownerStructuring(
  index: GraphIndex,
  thresholds: readonly ReportingThreshold[],
  params: StructuringParams,
  rules: OwnerWalletRules,
): Finding[] {
  const findings: Finding[] = [];
  for (const { owner, wallets } of ownersWithWallets(index, rules)) {
    const mine = new Set(wallets);
    const edges = [owner, ...wallets]
      .flatMap((a) => index.outOf(a))
      .filter((e) => e.usd !== null && !mine.has(e.to) && e.to !== owner)
      .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    for (const threshold of thresholds) {
      for (const group of nearThresholdGroups(edges, threshold, params)) {
        const senders = new Set(group.map((e) => e.from).filter((a) => mine.has(a)));
        if (senders.size < 2) continue;
        const finding = toFinding(owner, true, group, threshold, params);
        const used = [...senders].sort();
        findings.push({
          ...finding,
          ...rewallet(finding.wallets, finding.actors, owner, used),
          thresholds: { ...finding.thresholds, ownerWallets: used.length },
          message:
            `${finding.message} Sent from ${used.length} wallets of one owner, ${shortAddress(owner)} ` +
            `(${used.map(shortAddress).join(", ")}): each funded only by it, fresh when funded, and emptied in at ` +
            `most ${rules.maxWalletTransfers} transfers.`,
        });
      }
    }
  }
  return findings;
}

/** The finding's wallets and actors with the owner's wallets added (the owner stays the subject, first). */
function rewallet(
  wallets: readonly string[],
  actors: readonly string[],
  owner: string,
  used: readonly string[],
) {
  const sortedRest = (list: Iterable<string>) =>
    [...new Set(list)].filter((a) => a !== owner).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    wallets: [owner, ...sortedRest([...wallets, ...used])],
    actors: [owner, ...sortedRest([...actors, ...used])],
  };
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
