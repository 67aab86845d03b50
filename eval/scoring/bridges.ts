// Scores the bridge benchmark (eval/world/bridges.ts, docs/eval.md "Bridges"): per variant, how many positives were
// flagged (high or critical: the sanctioned address's value came over a bridge), how many look-alikes, near misses and plain
// users were scored above low or had a pattern reported, and how many gaps the verdict's coverage reported with the
// expected reason; the cases' neighbours are counted without a target. Pure: the scan results come in.
import { RISK_LEVELS, type RiskLevel } from "../../src/risk/scoring/levels.ts";
import type { ExportCase } from "../world/etl.ts";

export interface BridgeScan {
  status: "completed" | "skipped" | "failed";
  riskLevel: RiskLevel;
  patterns: string[];
  coverage?: { bridgeGaps?: { address: string; reason: string }[] };
  error?: string;
}

export interface BridgeRow {
  pattern: string;
  variant: string;
  cases: number;
  /** positives: scored high or critical; gaps: reported with the expected reason */
  found: number;
  /** scored medium or above */
  aboveLow: number;
  /** a pattern was reported */
  withPattern: number;
}

/** Targets: recall of exposure over a bridge, false alerts on clean crossings and plain users, gaps reported. */
export const BRIDGE_TARGETS = { recall: 0.85, aboveLowShare: 0.05, gapsReported: 0.95 } as const;

export interface BridgeReport {
  rows: BridgeRow[];
  recall: number;
  /** look-alikes, near misses and plain users scored above low, over their number */
  aboveLowShare: number;
  gapsReported: number;
  missed: string[];
  falseAlerts: string[];
  failed: string[];
  passed: boolean;
}

const EXPECTED_GAP: Record<string, string> = {
  "unheld-chain": "chain-not-indexed",
  "leg-missing": "other-leg-not-found",
};

const share = (n: number, d: number) => (d === 0 ? 1 : n / d);

/** `results` by the case's subject as stored (lowercase hex). */
export function scoreBridges(
  cases: readonly ExportCase[],
  results: ReadonlyMap<string, BridgeScan>,
): BridgeReport {
  const rows = new Map<string, BridgeRow>();
  const missed: string[] = [];
  const falseAlerts: string[] = [];
  const failed: string[] = [];
  let positives = 0;
  let found = 0;
  let negatives = 0;
  let alerts = 0;
  let gaps = 0;
  let gapsFound = 0;
  for (const c of cases) {
    const key = `${c.pattern}:${c.variant}`;
    let row = rows.get(key);
    if (!row) {
      row = { pattern: c.pattern, variant: c.variant, cases: 0, found: 0, aboveLow: 0, withPattern: 0 };
      rows.set(key, row);
    }
    row.cases++;
    const r = results.get(c.subject.toLowerCase());
    if (!r || r.status === "failed") {
      failed.push(`${c.id}: ${r?.error ?? "no result"}`);
      continue;
    }
    const aboveLow = RISK_LEVELS.indexOf(r.riskLevel) >= RISK_LEVELS.indexOf("medium");
    if (aboveLow) row.aboveLow++;
    if (r.patterns.length > 0) row.withPattern++;
    if (c.pattern === "bridge_exposure" && c.positive) {
      positives++;
      if (RISK_LEVELS.indexOf(r.riskLevel) >= RISK_LEVELS.indexOf("high")) {
        found++;
        row.found++;
      } else missed.push(`${c.id} (${c.variant}): ${r.riskLevel}`);
    } else if (c.pattern === "bridge_gap") {
      gaps++;
      const subject = c.subject.toLowerCase();
      const reported = (r.coverage?.bridgeGaps ?? []).some(
        (g) => g.address.toLowerCase() === subject && g.reason === EXPECTED_GAP[c.variant],
      );
      if (reported) {
        gapsFound++;
        row.found++;
      } else
        missed.push(
          `${c.id} (${c.variant}): gap not reported (${(r.coverage?.bridgeGaps ?? []).map((g) => g.reason).join(", ") || "no gaps"}; ${r.status})`,
        );
    } else if (c.pattern === "neighbour") {
      // Reported only: some were paid by a client after a sanctioned crossing, and are exposed for real.
    } else {
      negatives++;
      if (aboveLow) {
        alerts++;
        falseAlerts.push(`${c.id} (${c.variant}): ${r.riskLevel}`);
      }
    }
  }
  const recall = share(found, positives);
  const aboveLowShare = negatives === 0 ? 0 : alerts / negatives;
  const gapsReported = share(gapsFound, gaps);
  return {
    rows: [...rows.values()].sort((a, b) =>
      a.pattern === b.pattern ? (a.variant < b.variant ? -1 : 1) : a.pattern < b.pattern ? -1 : 1,
    ),
    recall,
    aboveLowShare,
    gapsReported,
    missed,
    falseAlerts,
    failed,
    passed:
      failed.length === 0 &&
      recall >= BRIDGE_TARGETS.recall &&
      aboveLowShare <= BRIDGE_TARGETS.aboveLowShare &&
      gapsReported >= BRIDGE_TARGETS.gapsReported,
  };
}
