// The risk core's results in the shapes of the API (docs/api.md): the quick risk result (GET /risk/quick) and the layer
// patterns of an incremental analysis; and quickCheck, the analysis of a depth-1 graph.
import type { Finding, PatternName, Severity } from "./findings.ts";
import type { TxGraph } from "./graph/types.ts";
import { analyseGraph, type RiskAnalysis, type RiskConfig } from "./scoring/analyse.ts";
import { overridesOf } from "./scoring/config.ts";
import type { RiskLevel } from "./scoring/levels.ts";

export interface QuickRiskPattern {
  name: PatternName;
  severity: Severity;
  involvedWallets: string[];
  involvedTxs: string[];
  usdAmount: number;
  message: string;
}

export interface QuickRiskResult {
  risk: number;
  reason: string;
  patterns: QuickRiskPattern[];
  /** beyond the contract: the level, whether it is suspicious, and the model version */
  level: RiskLevel;
  suspiciousActivity: boolean;
  modelVersion: string;
}

export interface LayerPattern {
  patternType: PatternName;
  confidence: number;
  severity: Severity;
  description: string;
  /** beyond the contract: the finding's identity across layers (findingKey), its subject and its evidence */
  id: string;
  subject: string;
  evidence: {
    wallets: string[];
    txHashes: string[];
    usdAmount: number;
    thresholds: Record<string, number | string>;
  };
}

/**
 * The findings the address performs (it is among their actors), as quick-result patterns; not a pattern the
 * analysis does not count as the address's own (a mixer's unsolicited dust into it: scoring/dust.ts).
 */
export function toQuickRiskResult(analysis: RiskAnalysis): QuickRiskResult {
  return {
    risk: analysis.score,
    reason: analysis.reason,
    patterns: analysis.findings
      .filter((f) => f.actors.includes(analysis.root) && analysis.patterns.includes(f.pattern))
      .map((f) => ({
        name: f.pattern,
        severity: f.severity,
        involvedWallets: f.wallets,
        involvedTxs: f.txs,
        usdAmount: f.usdAmount,
        message: f.message,
      })),
    level: analysis.level,
    suspiciousActivity: analysis.suspiciousActivity,
    modelVersion: analysis.modelVersion,
  };
}

/** Findings as layer patterns, each with its identity (a second finding with the same identity gets `#2`, ...). */
export function toLayerPatterns(findings: readonly Finding[]): LayerPattern[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const key = findingKey(f);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return {
      patternType: f.pattern,
      confidence: f.confidence,
      severity: f.severity,
      description: f.message,
      id: n === 1 ? key : `${key}#${n}`,
      subject: f.subject,
      evidence: { wallets: f.wallets, txHashes: f.txs, usdAmount: f.usdAmount, thresholds: f.thresholds },
    };
  });
}

/**
 * The identity of a finding across the layers of an incremental analysis (newPatterns / removedPatterns): the
 * pattern and its subject. Not the evidence: a peel chain that grows as a deeper layer is read is the same
 * finding with more evidence, not one removed and another new.
 */
export function findingKey(f: Finding): string {
  return `${f.pattern}:${f.subject}`;
}

/**
 * GET /risk/quick: the analysis of a depth-1 graph (the address and its direct counterparties): direct exposure
 * and the patterns visible within one hop, traced no further than 1 hop whatever the graph holds.
 */
export function quickCheck(graph: TxGraph, root: string, config: RiskConfig = NO_OVERRIDES): QuickRiskResult {
  // One quick configuration per set of overrides, whatever the thresholds a project's jurisdictions add to each
  // check (their own for the days of its transfers), so that analyseGraph resolves the rest once (config.ts).
  const base = overridesOf(config);
  let quick = quickConfigs.get(base);
  if (!quick) {
    quick = quickConfigOf(base);
    quickConfigs.set(base, quick);
  }
  const thresholds = config.extraThresholds;
  return toQuickRiskResult(
    analyseGraph(graph, root, thresholds?.length ? { ...quick, extraThresholds: thresholds } : quick),
  );
}

const NO_OVERRIDES: RiskConfig = Object.freeze({});
const quickConfigs = new WeakMap<RiskConfig, RiskConfig>();

function quickConfigOf(config: RiskConfig): RiskConfig {
  return {
    ...config,
    exposure: { ...config.exposure, maxHops: 1 },
    detectors: {
      ...config.detectors,
      mixing: { ...config.detectors?.mixing, maxHops: 1 },
      // The root's own loops are searched first, with their own share (maxStepsPerOrigin); around a busy
      // address every counterparty is an origin whose search walks the root's transfers again, so the check
      // bounds the total work to keep its latency flat (docs/decisions/0006).
      round_tripping: {
        maxStepsTotal: QUICK_ROUND_TRIP_STEPS,
        ...config.detectors?.round_tripping,
      },
    },
  };
}

/** Transfers the quick check's round-tripping search examines in all (a full analysis allows 1,000,000). */
export const QUICK_ROUND_TRIP_STEPS = 50_000;
