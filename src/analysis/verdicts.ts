// Telling the service of a stored verdict (AnalysisContext.onVerdict): the alerts of monitored addresses hang on it.
// A listener's failure is the listener's: it is logged, and the analysis stands.
import type { AnalysisContext, CompletedVerdict } from "./context.ts";

export async function tellVerdict(ctx: AnalysisContext, verdict: CompletedVerdict): Promise<void> {
  if (!ctx.onVerdict) return;
  try {
    await ctx.onVerdict(verdict);
  } catch (error) {
    ctx.log?.warn(
      { err: error, projectId: verdict.projectId, analysisId: verdict.result.analysisId },
      "a stored verdict's listener (alerts) failed",
    );
  }
}
