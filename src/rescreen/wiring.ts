// Re-screening in a running service: in processes with workers, label changes re-screen the monitored addresses
// they reach, on every enabled chain.
import type { AnalysisContext } from "../analysis/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { startRescreening } from "./loop.ts";

export function wireRescreening(
  base: Base<DB>,
  needs: {
    registry: ChainRegistry;
    analysis: { context: AnalysisContext };
    metrics: { loopFailure(loop: string): void };
  },
): void {
  base.assembly.loop(() =>
    startRescreening({
      analysis: needs.analysis.context,
      alertLevel: base.config.alertLevel,
      everyChain: () => needs.registry.enabled().map((c) => c.id),
      onError: () => needs.metrics.loopFailure("rescreen"),
    }),
  );
}
