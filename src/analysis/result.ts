// The scan result (docs/api.md, "Risk analysis") built from a risk analysis of the core (src/risk), and the
// record stored with it: the full result plus the findings with their evidence, the exposure and the breakdown
// of the score, so that a stored result explains itself.
import type { Static } from "@sinclair/typebox";
import type { Coverage } from "../ledger/index.ts";
import type { Finding, RiskAnalysis, RiskLevel } from "../risk/index.ts";
import type { ScanResultSchema } from "./schemas.ts";

/** One address's scan result, as the API sends it (its schema is the one truth: schemas.ts). */
export type ScanResult = Static<typeof ScanResultSchema>;
export type ScanStatus = ScanResult["status"];

/** What is stored in analyses.result: the scan result and the evidence behind it. */
/** A completed analysis always has its score and level (only a failed result has none). */
export interface StoredResult extends Omit<ScanResult, "riskScore" | "riskLevel"> {
  riskScore: number;
  riskLevel: RiskLevel;
  findings: Finding[];
  exposure: RiskAnalysis["exposure"];
  contributions: RiskAnalysis["contributions"];
  configFingerprint: string;
}

export interface RootMetrics {
  nodes: number;
  edges: number;
  durationMs: number;
}

export function scanResultOf(
  analysisId: string,
  chainId: number,
  maxDepth: number,
  analysis: RiskAnalysis,
  metrics: RootMetrics,
  coverage: Coverage,
): StoredResult {
  return {
    address: analysis.root,
    chainId: String(chainId),
    status: "completed",
    analysisId,
    riskScore: analysis.score,
    riskLevel: analysis.level,
    riskReason: analysis.reason,
    suspiciousActivity: analysis.suspiciousActivity,
    patterns: analysis.patterns,
    transactionGraph: {
      rootAddress: analysis.root,
      totalNodes: metrics.nodes,
      totalEdges: metrics.edges,
      maxDepth,
    },
    analysisEvidence: {
      transactionsAnalyzed: metrics.edges,
      uniqueAddressesFound: Math.max(0, metrics.nodes - 1),
      analysisDuration: metrics.durationMs,
    },
    modelVersion: analysis.modelVersion,
    truncated: analysis.graph.truncated,
    coverage,
    findings: analysis.findings.filter((f) => f.wallets.includes(analysis.root)),
    exposure: analysis.exposure,
    contributions: analysis.contributions,
    configFingerprint: analysis.configFingerprint,
  };
}

/** The answer shape of a stored result (the evidence stays in the database). */
export function publicResult(stored: StoredResult | ScanResult, status?: ScanStatus): ScanResult {
  const {
    findings: _f,
    exposure: _e,
    contributions: _c,
    configFingerprint: _p,
    ...rest
  } = stored as StoredResult;
  return status ? { ...rest, status } : rest;
}

/**
 * A failed address: no score and no level (an integrator reading `riskLevel` must not clear an address the service
 * could not judge), the reason, and empty evidence.
 */
export function failedResult(
  address: string,
  chainId: string,
  maxDepth: number,
  analysisId: string,
  error: string,
  extra: Pick<ScanResult, "errorCode" | "coverage"> = {},
): ScanResult {
  return {
    address,
    chainId,
    status: "failed",
    analysisId,
    riskScore: null,
    riskLevel: null,
    riskReason: error,
    suspiciousActivity: false,
    patterns: [],
    transactionGraph: { rootAddress: address, totalNodes: 0, totalEdges: 0, maxDepth },
    analysisEvidence: { transactionsAnalyzed: 0, uniqueAddressesFound: 0, analysisDuration: 0 },
    error,
    ...extra,
  };
}
