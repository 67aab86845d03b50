// The chains room in a running service: the chains' tokens recorded, their market data and statistics, and the
// routes that list them (with each chain's address form where chains of other kinds than EVM are served).
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { presentAddressesPerChain } from "./address-edges.ts";
import { ChainStatsService } from "./chain-stats.ts";
import { recordChainTokens } from "./chain-tokens.ts";
import { indexStats } from "./indexer/index.ts";
import type { ChainRegistry } from "./registry.ts";
import { registerChainRoutes } from "./routes.ts";

export interface ChainsNeeds {
  registry: ChainRegistry;
  /** For tests: a fetch for Blockscout's statistics. */
  fetchStats?: ConstructorParameters<typeof ChainStatsService>[1]["fetchStats"];
}

export async function wireChains(base: Base<DB>, needs: ChainsNeeds): Promise<ChainStatsService> {
  const { config } = base;
  await recordChainTokens(base.db, needs.registry.enabled());
  const stats = new ChainStatsService(base.db, {
    ttlMs: config.chainStatsTtlSeconds * 1000,
    timeoutMs: config.upstreamTimeoutMs,
    ownStats: indexStats(base.db),
    outbound: base.outbound,
    ...(needs.fetchStats ? { fetchStats: needs.fetchStats } : {}),
  });
  base.assembly.routes((v1) => {
    // First: every later route's addresses are written in their chain's form.
    presentAddressesPerChain(v1, needs.registry);
    registerChainRoutes(v1, needs.registry, stats);
  });
  return stats;
}
