// GET /risk/quick (docs/api.md, "Risk analysis"): one address on one chain, a depth-1 expansion (the address and its
// direct counterparties) and the risk core's quickCheck: direct exposure and the patterns visible within one
// hop. Not stored: it is the cheap, high-rate check. Of a busy address it reads the newest
// QUICK_TRANSFERS_PER_DIRECTION transfers each way and says so in its reason; a scan reads further
// (docs/decisions/0006).
import { quickCheck } from "../risk/index.ts";
import { expandWithClusters } from "./cluster-roots.ts";
import type { AnalysisContext } from "./context.ts";
import { coverageOfRoots, NO_DATA, noDataReason, withheld } from "./coverage.ts";
import { currenciesOf } from "./currencies.ts";
import { expandGraph } from "./graph/index.ts";
import type { QuickRiskResponse } from "./schemas.ts";
import { riskConfigFor } from "./thresholds.ts";

/** Transfers read per direction (the newest first); a scan reads up to 10,000. */
export const QUICK_TRANSFERS_PER_DIRECTION = 500;

/**
 * The quick check's graph: the address and its direct counterparties, the newest QUICK_TRANSFERS_PER_DIRECTION
 * transfers each way (fewer when the expansion's options say so), and on Bitcoin the same around a few other
 * addresses of its cluster (cluster-roots.ts). The wallet report's evidence reads the same.
 */
export async function quickExpansion(ctx: AnalysisContext, address: string, chainId: number) {
  const perDirection = Math.min(
    QUICK_TRANSFERS_PER_DIRECTION,
    ctx.expansion?.maxTransfersPerAddress ?? QUICK_TRANSFERS_PER_DIRECTION,
  );
  const expand = (roots: string[]) =>
    expandGraph(
      ctx.db,
      { chainId, roots, maxDepth: 1 },
      {
        ...ctx.expansion,
        maxTransfersPerAddress: perDirection,
        ...currenciesOf(ctx.registry, chainId),
      },
    );
  // A Bitcoin address's cluster: its other addresses' direct counterparties too, their exposure its owner's; the
  // check is of the address alone.
  const { expansion } = await expandWithClusters(ctx, chainId, [address], expand);
  return { ...expansion, perDirection };
}

export async function quickRisk(
  ctx: AnalysisContext,
  projectId: number,
  address: string,
  chainId: number,
): Promise<QuickRiskResponse> {
  const started = performance.now();
  const { graph, layers, perDirection } = await quickExpansion(ctx, address, chainId);
  const checked = quickCheck(graph, address, await riskConfigFor(ctx, projectId, graph));
  const coverage = (
    await coverageOfRoots(ctx, chainId, [address], {
      layers,
      // The address's own transfers (its cluster's other addresses' are read beside them on Bitcoin).
      transfersRead: new Map([
        [address, graph.edges.filter((e) => e.from === address || e.to === address).length],
      ]),
    })
  ).get(address);
  if (!coverage) throw new Error("no coverage for the address");
  // Never an all-clear on data that is not current (src/analysis/coverage.ts).
  const result: QuickRiskResponse = withheld(coverage, checked.level)
    ? { ...checked, risk: null, level: null, reason: noDataReason(coverage), errorCode: NO_DATA, coverage }
    : { ...checked, coverage };
  if (layers[0]?.capped.includes(address)) {
    const note = `Checked the newest ${perDirection.toLocaleString("en-US")} transfers in each direction of this busy address; a scan reads further back.`;
    result.reason = result.reason ? `${result.reason} ${note}` : note;
  }
  ctx.observeDuration?.("quick", (performance.now() - started) / 1000);
  return result;
}
