// Processes the next unfinished layer of a layered analysis: read the expansion state the last layer left (or
// the root alone), expand one hop (src/analysis/graph expandLayer, one statement), run the risk core over the
// cumulative graph, and commit the layer result with the next state (store.ts commitLayer). Every caller — the
// layer job, a standard investigation waiting for its graph — goes through here; a layer two callers computed at
// once is stored once, and the loser's copy is dropped.
import { analyseGraph, conversionsOf, toLayerPatterns } from "../../risk/index.ts";
import { clusterRootsOf } from "../cluster-roots.ts";
import type { AnalysisContext } from "../context.ts";
import { coverageOfRoots, NO_DATA, noDataReason, withBridgeGaps, withheld } from "../coverage.ts";
import { currenciesOf } from "../currencies.ts";
import { createGraph, expandLayer, graphFromJson, graphToJson } from "../graph/index.ts";
import { failedResult, scanResultOf } from "../result.ts";
import { riskConfigFor } from "../thresholds.ts";
import { tellVerdict } from "../verdicts.ts";
import { layerExposure } from "./exposure-paths.ts";
import { readLabelSources } from "./label-sources.ts";
import { buildLayer } from "./layer-result.ts";
import {
  commitLayer,
  getLayeredAnalysis,
  type LayerCommit,
  type LayerState,
  markStarted,
  readState,
} from "./store.ts";

export type AdvanceOutcome =
  /**
   * a layer was processed and more remain; `committed`: by this call (false when another caller stored the same
   * layer first, and so is the one to carry on)
   */
  | { state: "more"; completedLayers: number; committed: boolean }
  | { state: "done" }
  /** the analysis does not exist, or failed */
  | { state: "gone" };

/** `signal`: the work was taken away (a job's claim lost, a request's deadline); throws its reason, stores nothing. */
export async function advanceAnalysis(
  ctx: AnalysisContext,
  analysisId: string,
  signal?: AbortSignal,
): Promise<AdvanceOutcome> {
  const analysis = await getLayeredAnalysis(ctx.db, undefined, analysisId);
  if (!analysis || analysis.status === "failed") return { state: "gone" };
  if (analysis.status === "completed" || analysis.completedLayers >= analysis.maxDepth)
    return { state: "done" };
  if (analysis.status === "queued") await markStarted(ctx.db, analysisId);

  const layer = analysis.completedLayers;
  const started = performance.now();
  const previous: LayerState | undefined = layer === 0 ? undefined : await readState(ctx.db, analysisId);
  if (layer > 0 && !previous) throw new Error(`the state after layer ${layer - 1} is missing`);
  // A Bitcoin root's cluster (cluster-roots.ts), read at every layer: at the first, some of its other addresses join
  // the frontier beside the root, only to be read (the root stays the one root); at each, the risk core lends the
  // root the exposure of those the graph holds.
  const cluster = await clusterRootsOf(ctx, analysis.chainId, [analysis.address]);
  const graph = previous
    ? graphFromJson(previous.graph)
    : await createGraph(
        ctx.db,
        {
          chainId: analysis.chainId,
          roots: [analysis.address, ...cluster.added],
          maxDepth: analysis.maxDepth,
        },
        ctx.expansion?.coalescing,
      );
  if (cluster.added.length > 0) graph.roots = graph.roots.filter((r) => r === analysis.address);
  if (cluster.clusters.size > 0) graph.clusters = cluster.clusters;
  const previousNodes = new Set(layer === 0 ? [] : graph.nodes.keys());
  const previousEdges = new Set(layer === 0 ? [] : graph.edges.map((e) => e.id));
  const previousConversions = new Set(
    layer === 0 ? [] : conversionsOf(graph).flatMap((c) => (c.edgeId ? [c.edgeId] : [])),
  );

  // Each layer has the whole time budget (a depth-7 analysis may take several); node and edge budgets hold for
  // the whole graph. Once a budget ends the expansion, the remaining layers add nothing and are quick.
  const report = await expandLayer(ctx.db, graph, {
    ...ctx.expansion,
    ...currenciesOf(ctx.registry, analysis.chainId),
    ...(signal ? { signal } : {}),
  });

  const final = layer === analysis.maxDepth - 1;
  // A layer that added nothing (the expansion ended at an earlier layer, by depth or budget) has the previous
  // layer's findings and score: the risk core is pure, and its graph is the same. The final layer always runs it,
  // for the analysis's stored result.
  const unchanged = previous !== undefined && report.newNodes === 0 && report.newEdges === 0;
  const detectionStarted = performance.now();
  const risk =
    unchanged && !final
      ? undefined
      : analyseGraph(graph, analysis.address, await riskConfigFor(ctx, analysis.projectId, graph));
  signal?.throwIfAborted();
  const patterns = risk ? toLayerPatterns(risk.findings) : (previous?.patterns ?? []);
  const summary = risk
    ? {
        score: risk.score,
        level: risk.level,
        reason: risk.reason,
        exposure: layerExposure(risk.exposure, risk.contributions),
      }
    : previous!.risk;
  const patternDetectionTimeMs = performance.now() - detectionStarted;

  // What the verdict rests on: the root's data (layer 0 fetched its explorer history, when the chain has one).
  const rootCoverage = (
    await coverageOfRoots(ctx, analysis.chainId, [analysis.address], {
      layers: layer === 0 ? [report] : [],
      transfersRead: new Map([[analysis.address, graph.edges.length]]),
    })
  ).get(analysis.address);
  if (!rootCoverage) throw new Error("no coverage for the root");
  const coverage = withBridgeGaps(rootCoverage, graph.bridgeGaps ?? []);
  const withhold = withheld(coverage, summary.level);
  signal?.throwIfAborted();

  const nodes = [...graph.nodes.values()];
  const labelSources = await readLabelSources(ctx.db, analysis.chainId, nodes);
  signal?.throwIfAborted();
  const result = buildLayer({
    analysisId,
    layer,
    totalLayers: analysis.maxDepth,
    root: analysis.address,
    nodes,
    edges: graph.edges,
    conversions: conversionsOf(graph),
    truncated: graph.truncated,
    previousNodes,
    previousEdges,
    previousConversions,
    previousPatterns: previous?.patterns ?? [],
    analysis: summary,
    exposure: summary.exposure ?? [],
    labelSources,
    patterns,
    errorCount: report.history.failed.length,
    processingTimeMs: performance.now() - started,
    patternDetectionTimeMs,
    timestamp: new Date(),
  });
  // Never an all-clear on data that is not current: the layer keeps its graph and findings, not its score.
  const body = withhold
    ? {
        ...result,
        riskScore: null,
        riskLevel: null,
        riskReason: noDataReason(coverage),
        errorCode: NO_DATA,
        coverage,
      }
    : { ...result, coverage };
  // The analysis as a whole, stored like any other (kind 'investigation'), when its last layer completes.
  function finalResult(): NonNullable<LayerCommit["final"]> {
    if (!risk || !coverage) throw new Error("the final layer runs the risk core");
    const durationMs = Date.now() - (analysis?.startedAt ?? analysis?.createdAt ?? new Date()).getTime();
    if (withhold) {
      const error = noDataReason(coverage);
      const failed = failedResult(root, String(chainId), maxDepth, analysisId, error, {
        errorCode: NO_DATA,
        coverage,
      });
      return { error, failed, durationMs };
    }
    const metrics = { nodes: nodes.length, edges: graph.edges.length, durationMs };
    return { result: scanResultOf(analysisId, chainId, maxDepth, risk, metrics, coverage), durationMs };
  }
  const { chainId, maxDepth, address: root } = analysis;
  const finalCommit = final ? finalResult() : undefined;
  const committed = await commitLayer(ctx.db, {
    id: analysisId,
    layer,
    body: JSON.stringify(body),
    state: { graph: graphToJson(graph), patterns, risk: summary },
    riskScore: withhold ? null : summary.score,
    patternsDetected: patterns.length,
    final: finalCommit,
  });
  if (committed && finalCommit && "result" in finalCommit)
    await tellVerdict(ctx, {
      projectId: analysis.projectId,
      chainId,
      address: root,
      kind: "investigation",
      result: finalCommit.result,
    });
  ctx.observeDuration?.("layer", (performance.now() - started) / 1000);
  return final ? { state: "done" } : { state: "more", completedLayers: layer + 1, committed };
}
