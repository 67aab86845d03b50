// The wallet reports in a running service: written by the LLM when one is configured (through the outbound
// client), from the facts the service holds otherwise, and their routes.
import type { AnalysisContext } from "../analysis/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { LlmWriter } from "./llm.ts";
import { WalletReports } from "./report.ts";
import { registerNarrativeRoutes } from "./routes.ts";

export function wireNarratives(
  base: Base<DB>,
  needs: { registry: ChainRegistry; analysis: { context: AnalysisContext } },
): WalletReports {
  const { config } = base;
  const { registry } = needs;
  const reports = new WalletReports({
    db: base.db,
    registry,
    analysis: needs.analysis.context,
    llm: config.llm ? new LlmWriter(config.llm, base.outbound) : undefined,
    now: base.now,
    ttlMs: config.walletReportTtlSeconds * 1000,
    llmPerHour: config.llmReportsPerHour,
    log: base.log("narratives"),
  });
  base.assembly.routes((v1) =>
    registerNarrativeRoutes(
      v1,
      reports,
      (chainId) => registry.get(chainId)?.kind ?? (registry.get(chainId) ? "evm" : undefined),
      { refreshesPerHour: config.walletReportRefreshesPerHour },
      (chainId) => registry.unknownChain(chainId),
      // A Bitcoin testnet or regtest address (the families read mainnet's): as the chain named, or the first
      // Bitcoin chain of the list whose network writes it, stores it.
      (raw, chainId) => {
        const chains =
          chainId === undefined
            ? registry.enabled().filter((c) => c.kind === "bitcoin")
            : [registry.get(chainId)].filter((c) => c?.kind === "bitcoin");
        for (const chain of chains) {
          const parsed = chain ? registry.parseAddress(chain.id, raw) : undefined;
          if (parsed && "address" in parsed) return parsed.address;
        }
        return undefined;
      },
    ),
  );
  return reports;
}
