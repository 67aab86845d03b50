// The analysis verb every entry point shares: expand the graph around one or many roots of one chain (one
// statement per layer, src/analysis/graph), run the risk core once (analyseRoots), and give each root its
// scan result with per-root graph figures. Pure of HTTP; the callers store and shape the results.

import type { Coverage } from "../ledger/index.ts";
import {
  analyseRootsIndexed,
  type GraphIndex,
  type RiskAnalysis,
  type UnsupportedConversion,
} from "../risk/index.ts";
import { expandWithClusters } from "./cluster-roots.ts";
import type { AnalysisContext } from "./context.ts";
import { coverageOfRoots, nearestBridgeGaps, withBridgeGaps } from "./coverage.ts";
import { currenciesOf } from "./currencies.ts";
import { type BridgeGap, expandGraph } from "./graph/index.ts";
import type { RootMetrics } from "./result.ts";
import { riskConfigFor } from "./thresholds.ts";

export interface RunRequest {
  /** whose analysis: the project's jurisdictions add their reporting thresholds (thresholds.ts) */
  projectId: number;
  chainId: number;
  /** stored addresses (EVM and Tron in lowercase hex, Bitcoin as its codec stores it) */
  roots: string[];
  maxDepth: number;
  /** unix seconds, inclusive */
  window?: { from?: number | undefined; to?: number | undefined };
  /** Stops the analysis with the signal's reason (a job taken away from its worker, a request's deadline). */
  signal?: AbortSignal | undefined;
}

export interface RootOutcome {
  analysis: RiskAnalysis;
  metrics: RootMetrics;
  /** what the verdict rests on (src/analysis/coverage.ts decides whether it may be given) */
  coverage: Coverage;
}

/** Budgets grow with the number of roots (a multi-root expansion shares them), up to 10x the defaults. */
const PER_ROOT_SCALE_CAP = 10;

export async function runAnalysis(
  ctx: AnalysisContext,
  request: RunRequest,
): Promise<Map<string, RootOutcome>> {
  const started = performance.now();
  const base = ctx.expansion ?? {};
  const expand = (roots: string[]) => {
    const scale = Math.min(PER_ROOT_SCALE_CAP, Math.max(1, roots.length));
    return expandGraph(
      ctx.db,
      {
        chainId: request.chainId,
        roots,
        maxDepth: request.maxDepth,
        ...(request.window ? { window: request.window } : {}),
      },
      {
        ...base,
        ...currenciesOf(ctx.registry, request.chainId),
        ...(request.signal ? { signal: request.signal } : {}),
        budget: {
          maxNodes: (base.budget?.maxNodes ?? 5_000) * scale,
          maxEdges: (base.budget?.maxEdges ?? 20_000) * scale,
          ...(base.budget?.maxMillis !== undefined ? { maxMillis: base.budget.maxMillis } : {}),
        },
      },
    );
  };
  // A Bitcoin root's cluster: some of its other addresses are expanded too, their exposure its owner's; the
  // analysis's roots (the detectors' origins and the verdicts) stay the caller's.
  const { expansion, cluster } = await expandWithClusters(ctx, request.chainId, request.roots, expand);
  const { graph, layers } = expansion;
  const roots = [...request.roots, ...cluster.added];
  const config = await riskConfigFor(ctx, request.projectId, graph);
  request.signal?.throwIfAborted();
  const { index, analyses } = analyseRootsIndexed(graph, config);
  const durationMs = Math.round(performance.now() - started);
  // In a multi-root graph, a root's figures count what lies within maxDepth hops of it.
  const metricsOf = new Map<string, RootMetrics>(
    analyses.map((analysis) => [
      analysis.root,
      roots.length > 1
        ? { ...index.reach(analysis.root, request.maxDepth), durationMs }
        : { nodes: graph.nodes.size, edges: graph.edges.length, durationMs },
    ]),
  );
  const coverage = await coverageOfRoots(ctx, request.chainId, request.roots, {
    layers,
    transfersRead: new Map([...metricsOf].map(([root, m]) => [root, m.edges])),
    windowEnd: request.window?.to === undefined ? undefined : new Date(request.window.to * 1000),
  });
  const out = new Map<string, RootOutcome>();
  for (const analysis of analyses) {
    const rootCoverage = coverage.get(analysis.root) as Coverage;
    out.set(analysis.root, {
      analysis,
      metrics: metricsOf.get(analysis.root) as RootMetrics,
      coverage: withBridgeGaps(
        withUnsupported(rootCoverage, unsupportedNear(index, analysis.root, request.maxDepth, roots.length)),
        gapsNear(graph.bridgeGaps ?? [], index, analysis.root, request.maxDepth, roots.length),
      ),
    });
  }
  return out;
}

/** Reported unsupported conversions per verdict, at most. */
const MAX_UNSUPPORTED = 20;

/**
 * The transactions through protocol contracts that do not read as conversions (src/risk/graph/conversions.ts)
 * and touch the root's part of the graph: in a multi-root graph, those with a party within maxDepth hops of it.
 */
function unsupportedNear(
  index: GraphIndex,
  root: string,
  maxDepth: number,
  roots: number,
): UnsupportedConversion[] {
  if (index.unsupportedConversions.length === 0) return [];
  if (roots === 1) return [...index.unsupportedConversions];
  const distances = index.distancesFrom(root);
  return index.unsupportedConversions.filter((u) =>
    u.parties.some((p) => (distances.get(p) ?? Number.POSITIVE_INFINITY) <= maxDepth),
  );
}

/** The bridge legs not followed (graph/bridge-reads.ts) in the root's part of the graph, nearest first. */
function gapsNear(
  gaps: readonly BridgeGap[],
  index: GraphIndex,
  root: string,
  maxDepth: number,
  roots: number,
): BridgeGap[] {
  if (gaps.length === 0) return [];
  return nearestBridgeGaps(gaps, index.distancesFrom(root), roots === 1 ? undefined : maxDepth);
}

function withUnsupported(coverage: Coverage, unsupported: readonly UnsupportedConversion[]): Coverage {
  if (unsupported.length === 0) return coverage;
  const n = unsupported.length;
  return {
    ...coverage,
    unsupportedConversions: unsupported
      .slice(0, MAX_UNSUPPORTED)
      .map(({ txHash, reason }) => ({ txHash, reason })),
    note:
      `${coverage.note} ${n} transaction${n === 1 ? "" : "s"} through protocol contracts could not be read as ` +
      `conversions; value is not followed across ${n === 1 ? "it" : "them"}.`,
  };
}
