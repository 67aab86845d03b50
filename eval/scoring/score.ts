// How `npm run eval` (eval/run.ts) scores the scan results of the detection benchmark's cases (cases.json of
// eval/world/etl.ts). Pure: cases and results in, figures out.
//
// A case is one scanned address (its subject) and the truth about one pattern there:
//  - a positive of pattern P: P was injected there; P reported for the subject is a true positive (TP), not
//    reported a false negative (FN);
//  - a near miss of P (positive: false): a false friend just outside P's definition; P reported is a false
//    positive (FP), not reported a true negative (TN);
//  - a background user (pattern "background"): a plain user of the population; it is a negative for EVERY
//    pattern: any pattern reported for it is a false positive of that pattern, each one not reported a TN;
//  - a look-alike (pattern "lookalike"): a legitimate life shaped like a case (payroll staff, airdrop recipients,
//    DEX traders); scored like a background user, and its level too (it must stay at most low).
// Precision = TP / (TP + FP), recall = TP / (TP + FN), F1 their harmonic mean (1 when a denominator is 0).
// Reports of P on other patterns' cases (positives or near misses of Q) are not scored: a case of Q may legitimately
// also be an instance of P (two transfers back and forth are a wash trade and a 2-hop round trip); they are
// counted in `crossReports` so that confusions stay visible.
// Sanctions-exposure cases (1, 2 and 3 hops from a sanctioned address) are not pattern cases: their scores must
// fall with the distance, pairwise across cases down to clean ordinary users (ordering.ts), and every case one hop
// away must be critical. Ordinary users (the background sample) are also scored for false alerts by their distance
// to the risky side (false-alerts.ts); and the inferred exchange deposit addresses against the world's (deposits.ts).
// Dusted users (pattern "dusted": ordinary users sent dust by sanctioned and mixer addresses) are scored for false
// alerts in a row of their own; the patterns reported on them are listed (`dustedPatterns`), not counted.
import { PATTERNS, type PatternName, RISK_LEVELS, type RiskLevel } from "../../src/risk/index.ts";
import type { DepositTruth, ExportCase } from "../world/etl.ts";
import { type DepositInference, scoreDeposits } from "./deposits.ts";
import { type FalseAlertRow, falseAlerts } from "./false-alerts.ts";
import { type Ordering, pairwiseOrdering } from "./ordering.ts";

export const TARGET = { precision: 0.95, recall: 0.9 };

export interface ScanOutcome {
  status: "completed" | "skipped" | "failed";
  riskScore: number;
  riskLevel: RiskLevel;
  patterns: string[];
  truncated?: boolean;
  error?: string;
}

export interface Quality {
  positives: number;
  nearMisses: number;
  background: number;
  tp: number;
  fn: number;
  /** false positives on near misses of the pattern */
  fpNearMiss: number;
  /** false positives on background users */
  fpBackground: number;
  fp: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
  passed: boolean;
}

/** One generator variant: how many cases, and for how many the pattern was reported. */
export interface VariantRow {
  pattern: string;
  positive: boolean;
  variant: string;
  cases: number;
  /** cases the pattern was reported for; for conversion_exposure, cases scored high or critical */
  reported: number;
  /** cases scored medium or above (a legitimate look-alike must stay at most low) */
  aboveLow: number;
}

export interface Distance {
  hops: number;
  cases: number;
  meanScore: number;
  levels: Record<RiskLevel, number>;
}

export interface EvalReport {
  quality: Record<PatternName, Quality>;
  variants: VariantRow[];
  /** `${case pattern} ${positive|near-miss}` -> reported pattern -> cases (other patterns' cases only) */
  crossReports: Record<string, Partial<Record<PatternName, number>>>;
  missed: string[];
  falseAlarms: string[];
  distances: Distance[];
  chains: number;
  /** chains whose scores fall strictly at 1, 2, 3 hops; and whose levels do */
  strictScores: number;
  strictLevels: number;
  /** pairwise: 1 hop > 2 hops > 3 hops > clean users, and 1 hop always critical (ordering.ts) */
  ordering: Ordering;
  orderingPassed: boolean;
  /** ordinary users scored medium or above, and critical, by distance to the risky side; and the dusted users */
  falseAlerts: FalseAlertRow[];
  /** patterns reported on dusted users -> how many */
  dustedPatterns: Record<string, number>;
  /** the inferred deposit addresses against the world's, when given */
  deposits?: DepositInference;
  failed: { id: string; error: string }[];
  /** cases whose graph a budget cut short, by case pattern */
  truncated: Record<string, number>;
  passed: boolean;
}

const isPattern = (p: string): p is PatternName => (PATTERNS as readonly string[]).includes(p);

export function scoreBenchmark(
  cases: readonly ExportCase[],
  results: ReadonlyMap<string, ScanOutcome>,
  deposits?: { truth: readonly DepositTruth[]; inferred: readonly DepositTruth[] },
): EvalReport {
  const counts = Object.fromEntries(
    PATTERNS.map((p) => [
      p,
      { positives: 0, nearMisses: 0, background: 0, tp: 0, fn: 0, fpNearMiss: 0, fpBackground: 0, tn: 0 },
    ]),
  ) as Record<PatternName, Omit<Quality, "fp" | "precision" | "recall" | "f1" | "passed">>;
  const variants = new Map<string, VariantRow>();
  const crossReports: EvalReport["crossReports"] = {};
  const missed: string[] = [];
  const falseAlarms: string[] = [];
  const failed: { id: string; error: string }[] = [];
  const chains = new Map<string, { score: number; level: RiskLevel }[]>();
  const truncated: Record<string, number> = {};
  const ordinary: { id: string; distance: number | undefined; level: RiskLevel; score: number }[] = [];
  const dusted: { id: string; level: RiskLevel }[] = [];
  const dustedPatterns: Record<string, number> = {};

  for (const c of cases) {
    const r = results.get(c.subject.toLowerCase());
    const ok = r !== undefined && r.status !== "failed";
    if (!ok) failed.push({ id: c.id, error: r?.error ?? "no result" });
    if (r?.truncated) truncated[c.pattern] = (truncated[c.pattern] ?? 0) + 1;
    const reported = new Set(ok ? r.patterns : []);
    if (c.pattern === "sanctions_exposure") {
      const [, chain = c.id, hops = "1"] = /^(.*)-d(\d)$/.exec(c.id) ?? [];
      const list = chains.get(chain) ?? [];
      list[Number(hops) - 1] = { score: r?.riskScore ?? 0, level: r?.riskLevel ?? "minimal" };
      chains.set(chain, list);
    }
    const aboveLow = ok && RISK_LEVELS.indexOf(r.riskLevel) >= RISK_LEVELS.indexOf("medium");
    if (c.pattern === "conversion_exposure") {
      // Exposure through a swap (sent by the sanctioned address, or by an intermediary): flagged when high or above.
      const row = variantRow(variants, c.pattern, c.positive, c.variant);
      row.cases++;
      if (aboveLow) row.aboveLow++;
      const flagged = ok && RISK_LEVELS.indexOf(r.riskLevel) >= RISK_LEVELS.indexOf("high");
      if (flagged) row.reported++;
      else if (c.positive) missed.push(c.id);
      continue;
    }
    if (c.pattern === "dusted") {
      if (ok) dusted.push({ id: c.id, level: r.riskLevel });
      for (const p of reported) dustedPatterns[p] = (dustedPatterns[p] ?? 0) + 1;
      const row = variantRow(variants, "dusted", false, c.variant);
      row.cases++;
      if (reported.size > 0) row.reported++;
      continue;
    }
    if (c.pattern === "background" || c.pattern === "lookalike") {
      // A look-alike (a legitimate life shaped like a case: payroll staff, airdrop recipients, DEX traders) is a
      // negative for every pattern like a plain user, but not one of the ordinary users of the false-alert table.
      if (ok && c.pattern === "background")
        ordinary.push({ id: c.id, distance: c.distance, level: r.riskLevel, score: r.riskScore });
      for (const p of PATTERNS) {
        const tally = counts[p];
        tally.background++;
        if (reported.has(p)) {
          tally.fpBackground++;
          falseAlarms.push(`${c.id}:${p}`);
        } else tally.tn++;
      }
      const row = variantRow(variants, c.pattern, false, c.variant);
      row.cases++;
      if (aboveLow) row.aboveLow++;
      if (reported.size > 0) row.reported++;
      continue;
    }
    if (isPattern(c.pattern)) {
      const tally = counts[c.pattern];
      const found = reported.has(c.pattern);
      if (c.positive) {
        tally.positives++;
        if (found) tally.tp++;
        else {
          tally.fn++;
          missed.push(c.id);
        }
      } else {
        tally.nearMisses++;
        if (found) {
          tally.fpNearMiss++;
          falseAlarms.push(c.id);
        } else tally.tn++;
      }
      const row = variantRow(variants, c.pattern, c.positive, c.variant);
      row.cases++;
      if (aboveLow) row.aboveLow++;
      if (found) row.reported++;
    }
    const key = `${c.pattern} ${c.positive ? "positive" : "near-miss"}`;
    for (const p of reported) {
      if (!isPattern(p) || p === c.pattern) continue;
      const cell = crossReports[key] ?? {};
      cell[p] = (cell[p] ?? 0) + 1;
      crossReports[key] = cell;
    }
  }

  const quality = {} as Record<PatternName, Quality>;
  for (const p of PATTERNS) {
    const t = counts[p];
    const fp = t.fpNearMiss + t.fpBackground;
    const precision = t.tp + fp === 0 ? 1 : t.tp / (t.tp + fp);
    const recall = t.tp + t.fn === 0 ? 1 : t.tp / (t.tp + t.fn);
    const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    quality[p] = {
      ...t,
      fp,
      precision,
      recall,
      f1,
      passed: precision >= TARGET.precision && recall >= TARGET.recall,
    };
  }

  const distances: Distance[] = [1, 2, 3].map((hops) => {
    const at = [...chains.values()].map((l) => l[hops - 1]).filter((x) => x !== undefined);
    const levels = Object.fromEntries(RISK_LEVELS.map((l) => [l, 0])) as Record<RiskLevel, number>;
    for (const x of at) levels[x.level]++;
    return {
      hops,
      cases: at.length,
      meanScore: at.length ? at.reduce((s, x) => s + x.score, 0) / at.length : 0,
      levels,
    };
  });
  let strictScores = 0;
  let strictLevels = 0;
  const rank = (l: RiskLevel) => RISK_LEVELS.indexOf(l);
  for (const list of chains.values()) {
    const [a, b, c] = list;
    if (!a || !b || !c) continue;
    if (a.score > b.score && b.score > c.score) strictScores++;
    if (rank(a.level) > rank(b.level) && rank(b.level) > rank(c.level)) strictLevels++;
  }
  const byHops = [0, 1, 2].map((i) =>
    [...chains.values()]
      .map((l) => l[i])
      .filter((x): x is { score: number; level: RiskLevel } => x !== undefined),
  );
  const clean = ordinary.filter((u) => u.distance === undefined || u.distance > 3).map((u) => u.score);
  const ordering = pairwiseOrdering(byHops, clean);
  const orderingPassed = chains.size > 0 && ordering.passed;
  const alerts = falseAlerts(ordinary, cases.some((c) => c.pattern === "dusted") ? dusted : undefined);
  const depositScore = deposits ? scoreDeposits(deposits.truth, deposits.inferred) : undefined;
  return {
    quality,
    variants: [...variants.values()],
    crossReports,
    missed,
    falseAlarms,
    distances,
    chains: chains.size,
    strictScores,
    strictLevels,
    ordering,
    orderingPassed,
    falseAlerts: alerts,
    dustedPatterns,
    ...(depositScore ? { deposits: depositScore } : {}),
    failed,
    truncated,
    passed:
      PATTERNS.every((p) => quality[p].passed) &&
      orderingPassed &&
      alerts.every((row) => row.passed) &&
      (depositScore?.passed ?? true) &&
      failed.length === 0,
  };
}

function variantRow(
  map: Map<string, VariantRow>,
  pattern: string,
  positive: boolean,
  variant: string,
): VariantRow {
  const key = `${pattern}|${positive}|${variant}`;
  let row = map.get(key);
  if (!row) {
    row = { pattern, positive, variant: variant || "(none)", cases: 0, reported: 0, aboveLow: 0 };
    map.set(key, row);
  }
  return row;
}
