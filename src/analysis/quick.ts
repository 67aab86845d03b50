// GET /risk/quick (decisions.md "Risk"): one EVM address on one chain, a depth-1 expansion (the address and its
// direct counterparties) and the risk core's quickCheck: direct exposure and the patterns visible within one
// hop. Not stored: it is the cheap, high-rate check.
import { type QuickRiskResult, quickCheck } from "../risk/index.ts";
import type { AnalysisContext } from "./context.ts";
import { expandGraph } from "./graph/index.ts";

export async function quickRisk(
  ctx: AnalysisContext,
  address: string,
  chainId: number,
): Promise<QuickRiskResult> {
  const chain = ctx.registry.get(chainId);
  const { graph } = await expandGraph(
    ctx.db,
    { chainId, roots: [address], maxDepth: 1 },
    {
      ...ctx.expansion,
      ...(chain ? { native: { symbol: chain.currency_symbol, decimals: chain.currency_decimals } } : {}),
    },
  );
  return quickCheck(graph, address, ctx.risk ?? {});
}
