// The exchange's own operations in a running service: their routes, the operation rules' part of a project's
// settings, the client's operations for the accumulations of the monitoring, and in processes with workers the
// monitor that judges them (the operation rules and the laws), screening a client of operations alone like a
// monitored one.
import { type AnalysisWiring, quickVerdict } from "../analysis/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { IntegratorWiring } from "../integrator/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { exchangeClientOperations, nativeCoins } from "./law-operations.ts";
import { type OperationMonitorOptions, startOperationMonitor } from "./monitor.ts";
import { registerExchangeOperationRoutes } from "./routes.ts";
import { operationRuleSettings } from "./settings.ts";

type ClientListings = NonNullable<OperationMonitorOptions["clientListings"]>;

export interface ExchangeOperationsNeeds {
  registry: ChainRegistry;
  analysis: AnalysisWiring;
  projects: ProjectsWiring;
  integrator: Pick<IntegratorWiring, "profiles" | "wake">;
  screening: {
    screenClient(
      client: Parameters<ClientListings>[0],
      readProfile: Parameters<ClientListings>[1],
      now: Date,
    ): ReturnType<ClientListings>;
  };
  metrics: {
    loopFailure(loop: string): void;
    operationsJudged: NonNullable<OperationMonitorOptions["onJudged"]>;
    ruleUnjudged(book: string): void;
  };
}

export interface ExchangeOperationsWiring {
  /** A client's recorded operations inside the exchange, for the accumulations of its transfers. */
  history: (
    q: Omit<Parameters<typeof exchangeClientOperations>[1], "status">,
  ) => ReturnType<typeof exchangeClientOperations>;
}

export function wireExchangeOperations(
  base: Base<DB>,
  needs: ExchangeOperationsNeeds,
): ExchangeOperationsWiring {
  const { registry, analysis, integrator, metrics } = needs;
  needs.projects.addPart(operationRuleSettings());
  base.assembly.routes((v1) => registerExchangeOperationRoutes(v1, { db: base.db, registry }));
  base.assembly.loop(() =>
    startOperationMonitor({
      db: base.db,
      registry,
      natives: () => nativeCoins(registry),
      readProfile: (projectId, userId) => integrator.profiles.read(projectId, userId),
      destinationVerdict: async (projectId, chainId, address) => {
        const v = await quickVerdict(analysis.context, projectId, address, chainId);
        return v.level === null || v.score === null
          ? null
          : { level: v.level, score: v.score, reason: v.reason };
      },
      log: base.log("exchange-operations"),
      onError: () => metrics.loopFailure("exchange_operations"),
      onJudged: metrics.operationsJudged,
      countUnjudged: metrics.ruleUnjudged,
      onMessages: () => integrator.wake(),
      // The client of operations alone is screened like a monitored one, at its first operations.
      clientListings: (client, readProfile) => needs.screening.screenClient(client, readProfile, new Date()),
    }),
  );
  return {
    history: (q) => exchangeClientOperations(base.db, { ...q, status: "recorded" }, nativeCoins(registry)),
  };
}
