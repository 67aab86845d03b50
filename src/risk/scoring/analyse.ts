// The risk core's entry point: a graph and a root in, a score, a level, a reason, the findings, the exposure and
// the breakdown of the score out. Pure and deterministic: the same graph (in any node/edge order) and the same
// configuration always give the same result, which records the scoring model's version and a fingerprint of
// the configuration.

import { runDetectors } from "../detectors/registry.ts";
import { computeExposure, type Exposure } from "../exposure.ts";
import { type Finding, PATTERNS, type PatternName } from "../findings.ts";
import { addressKey } from "../graph/address-key.ts";
import { isExchange } from "../graph/classify.ts";
import { type GraphIndex, indexGraph } from "../graph/graph-index.ts";
import type { TxGraph } from "../graph/types.ts";
import { withClusterExposure } from "./cluster-exposure.ts";
import {
  fingerprintOf,
  NO_OVERRIDES,
  type ResolvedRiskConfig,
  type RiskConfig,
  resolvedFor,
} from "./config.ts";
import { exposureContribution, patternContributions, type ScoreContribution } from "./contributions.ts";
import { markUnsolicited, unsolicitedFindings } from "./dust.ts";
import { LEVEL_FLOORS, levelFor, type RiskLevel } from "./levels.ts";
import { SCORING_MODEL_VERSION } from "./params.ts";
import { riskReason } from "./reason.ts";

export { type ResolvedRiskConfig, type RiskConfig, resolveRiskConfig } from "./config.ts";

export interface RiskAnalysis {
  root: string;
  /** 0..100, an integer */
  score: number;
  level: RiskLevel;
  /** one or two sentences naming the main drivers with figures */
  reason: string;
  suspiciousActivity: boolean;
  /** patterns this address performs (it is among a finding's actors), in PATTERNS order */
  patterns: PatternName[];
  /**
   * every finding in the graph (also those about other addresses), canonical order; a finding that is only
   * unsolicited dust (a mixer's withdrawal into the address: scoring/dust.ts) stays here as evidence but is not
   * among `patterns`
   */
  findings: Finding[];
  /** what adds up to the score, largest first */
  contributions: ScoreContribution[];
  exposure: Exposure;
  modelVersion: string;
  /** fingerprint of the resolved configuration */
  configFingerprint: string;
  graph: { nodes: number; edges: number; maxDepth: number; truncated: boolean };
}

/** Analyses one address of a graph (usually its root). */
export function analyseGraph(graph: TxGraph, root: string, config: RiskConfig = NO_OVERRIDES): RiskAnalysis {
  const resolved = resolvedFor(config);
  const address = addressKey(root);
  // Root-centred detectors (mixing) look at the graph's roots: make sure the analysed address is one.
  const rooted = graph.roots.some((r) => addressKey(r) === address)
    ? graph
    : { ...graph, roots: [...graph.roots, address] };
  const index = indexGraph(rooted, { slippageTolerance: resolved.exposure.conversionSlippage });
  const findings = runDetectors(index, resolved.detectors, resolved.patterns);
  return scoreRoot(index, address, findings, resolved);
}

/** Analyses every root of a multi-root graph, running the detectors once. Roots in sorted order. */
export function analyseRoots(graph: TxGraph, config: RiskConfig = NO_OVERRIDES): RiskAnalysis[] {
  return analyseRootsIndexed(graph, config).analyses;
}

/** analyseRoots, with the index it built (for per-root figures over the same graph without indexing it again). */
export function analyseRootsIndexed(
  graph: TxGraph,
  config: RiskConfig = NO_OVERRIDES,
): { index: GraphIndex; analyses: RiskAnalysis[] } {
  const resolved = resolvedFor(config);
  const index = indexGraph(graph, { slippageTolerance: resolved.exposure.conversionSlippage });
  const findings = runDetectors(index, resolved.detectors, resolved.patterns);
  return { index, analyses: index.roots.map((root) => scoreRoot(index, root, findings, resolved)) };
}

/** A cluster member's exposure, read once per graph index and configuration. */
const memberExposures = new WeakMap<GraphIndex, WeakMap<ResolvedRiskConfig, Map<string, Exposure>>>();
function memberExposure(
  index: GraphIndex,
  resolved: ResolvedRiskConfig,
  read: (address: string) => Exposure,
): (address: string) => Exposure {
  const byConfig = memberExposures.get(index) ?? new WeakMap<ResolvedRiskConfig, Map<string, Exposure>>();
  memberExposures.set(index, byConfig);
  const cache = byConfig.get(resolved) ?? new Map<string, Exposure>();
  byConfig.set(resolved, cache);
  return (address) => {
    const known = cache.get(address);
    if (known) return known;
    const exposure = read(address);
    cache.set(address, exposure);
    return exposure;
  };
}

/** Scores one address from already computed findings (e.g. per layer of an incremental analysis). */
export function scoreRoot(
  index: GraphIndex,
  root: string,
  findings: Finding[],
  resolved: ResolvedRiskConfig,
): RiskAnalysis {
  const p = resolved.scoring;
  // Dust is marked before anything is scored (docs/decisions/0030); a withdrawal from a mixer that is only dust is
  // not the address's mixing.
  const exposureOf = (address: string) =>
    markUnsolicited(index, computeExposure(index, address, resolved.exposure), p);
  // On a UTXO chain, the root's cluster's other addresses lend their exposure (cluster-exposure.ts), each read once
  // per graph however many roots share it.
  const exposure = withClusterExposure(
    index,
    root,
    exposureOf(root),
    memberExposure(index, resolved, exposureOf),
    p,
  );
  const ignore = unsolicitedFindings(findings, root, exposure);
  const node = index.node(root);
  const exchange = isExchange(node);
  // Mixer exposure of an address that performs the mixing pattern is the pattern's, not counted twice.
  const mixes = findings.some((f) => f.pattern === "mixing" && f.actors.includes(root) && !ignore.has(f));
  const fromExposure = exposureContribution(
    mixes
      ? exposure.entries.map((e) => (e.category === "mixer" ? { ...e, share: 0, usd: 0 } : e))
      : exposure.entries,
    p,
  );
  const fromPatterns = patternContributions(findings, root, index.distancesFrom(root), exchange, p, ignore);
  const exposurePart = fromExposure && dustWithinLow(fromExposure, exposure, fromPatterns);
  const contributions = [...(exposurePart ? [exposurePart] : []), ...fromPatterns].sort(
    (a, b) => b.points - a.points || (a.kind === b.kind ? 0 : a.kind === "exposure" ? -1 : 1),
  );
  const total = contributions.reduce((s, c) => s + c.points, 0);
  const score = Math.round(Math.min(100, Math.max(0, total)));
  const level = levelFor(score);
  const patterns = PATTERNS.filter((name) =>
    findings.some((f) => f.pattern === name && f.actors.includes(root) && !ignore.has(f)),
  );
  return {
    root,
    score,
    level,
    reason: riskReason({ contributions, exposure, exchangeDiscount: p.exchangeDiscount }),
    suspiciousActivity: score >= p.suspiciousFrom || patterns.length > 0,
    patterns,
    findings,
    contributions: contributions.map((c) => ({ ...c, points: Math.round(c.points * 100) / 100 })),
    exposure,
    modelVersion: SCORING_MODEL_VERSION,
    configFingerprint: fingerprintOf(resolved),
    graph: {
      nodes: index.nodes.length,
      edges: index.edges.length,
      maxDepth: index.graph.maxDepth,
      truncated: Object.values(index.graph.truncated).some(Boolean),
    },
  };
}

/**
 * Dust never lifts an address above low (docs/decisions/0030): when the exposure the score rests on is unsolicited,
 * its points fill at most the room below medium that the address's patterns leave (an employee of a structuring
 * employer who is dusted stays low), and nothing once the patterns alone reach medium.
 */
function dustWithinLow(
  fromExposure: ScoreContribution,
  exposure: Exposure,
  fromPatterns: readonly ScoreContribution[],
): ScoreContribution {
  if (!exposure.entries[fromExposure.ref]?.unsolicited) return fromExposure;
  const patterns = fromPatterns.reduce((s, c) => s + c.points, 0);
  const room = Math.max(0, LEVEL_FLOORS.medium - 1 - patterns);
  return fromExposure.points <= room ? fromExposure : { ...fromExposure, points: room };
}
