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
  riskReason?: string;
  coverage?: { bridgeGaps?: { address: string; reason: string }[] };
  error?: string;
}

export interface BridgeRow {
  pattern: string;
  variant: string;
  positive: boolean;
  cases: number;
  /** positives: scored high or critical; gaps: reported with the expected reason */
  found: number;
  /** scored medium or above */
  aboveLow: number;
  /** a pattern was reported */
  withPattern: number;
}

/**
 * Targets: recall of exposure over a bridge (over all positives, and a floor for each variant, so that one way of
 * laundering cannot fail whole behind the others), false alerts on clean crossings and near misses and, apart, on
 * plain users (who never touch a bridge and would dilute the first), gaps reported.
 */
export const BRIDGE_TARGETS = {
  recall: 0.85,
  variantRecall: 0.5,
  lookalikeAboveLow: 0.05,
  backgroundAboveLow: 0.05,
  gapsReported: 0.95,
} as const;

export interface BridgeReport {
  rows: BridgeRow[];
  recall: number;
  /** the positive variant with the lowest recall */
  weakest: { variant: string; recall: number };
  /** look-alikes and near misses scored above low, over their number */
  lookalikeAboveLow: number;
  /** plain users scored above low, over their number */
  backgroundAboveLow: number;
  gapsReported: number;
  missed: string[];
  falseAlerts: string[];
  failed: string[];
  passed: boolean;
}

const EXPECTED_GAP: Record<string, string> = {
  "unheld-chain": "chain-not-indexed",
  "leg-missing": "other-leg-not-found",
  "unknown-endpoint": "chain-not-indexed",
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
  const negatives = { lookalike: 0, background: 0 };
  const alerts = { lookalike: 0, background: 0 };
  let gaps = 0;
  let gapsFound = 0;
  for (const c of cases) {
    const key = `${c.pattern}:${c.positive}:${c.variant}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        pattern: c.pattern,
        variant: c.variant,
        positive: c.positive,
        cases: 0,
        found: 0,
        aboveLow: 0,
        withPattern: 0,
      };
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
      const group = c.pattern === "background" ? "background" : "lookalike";
      negatives[group]++;
      if (aboveLow) {
        alerts[group]++;
        falseAlerts.push(`${c.id} (${c.variant}): ${r.riskLevel}${r.riskReason ? `: ${r.riskReason}` : ""}`);
      }
    }
  }
  const recall = share(found, positives);
  const rate = (group: "lookalike" | "background") =>
    negatives[group] === 0 ? 0 : alerts[group] / negatives[group];
  const lookalikeAboveLow = rate("lookalike");
  const backgroundAboveLow = rate("background");
  const gapsReported = share(gapsFound, gaps);
  const weakest = [...rows.values()]
    .filter((row) => row.pattern === "bridge_exposure" && row.positive)
    .map((row) => ({ variant: row.variant, recall: share(row.found, row.cases) }))
    .sort((a, b) => a.recall - b.recall)[0] ?? { variant: "none", recall: 1 };
  return {
    rows: [...rows.values()].sort((a, b) =>
      a.pattern === b.pattern ? (a.variant < b.variant ? -1 : 1) : a.pattern < b.pattern ? -1 : 1,
    ),
    recall,
    weakest,
    lookalikeAboveLow,
    backgroundAboveLow,
    gapsReported,
    missed,
    falseAlerts,
    failed,
    passed:
      failed.length === 0 &&
      recall >= BRIDGE_TARGETS.recall &&
      weakest.recall >= BRIDGE_TARGETS.variantRecall &&
      lookalikeAboveLow <= BRIDGE_TARGETS.lookalikeAboveLow &&
      backgroundAboveLow <= BRIDGE_TARGETS.backgroundAboveLow &&
      gapsReported >= BRIDGE_TARGETS.gapsReported,
  };
}
