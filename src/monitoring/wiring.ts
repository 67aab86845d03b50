// The monitoring room in a running service: the routes of registered addresses and wallets, the alerts of an
// analysis that reaches a monitored address at its project's level, and in processes with workers the check of
// the monitored addresses' transfers against the laws (each project within its own limit of users at once; a
// project whose outbox is full waits). The chain followers tell it of transfers through its watcher.
import { alertOnVerdict } from "../alerts/index.ts";
import type { AnalysisWiring } from "../analysis/index.ts";
import type { ChainRegistry } from "../chains/index.ts";
import type { ProfileReader } from "../integrator/index.ts";
import type { Profile } from "../jurisdictions/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { DB } from "../schema.ts";
import { type CheckedClient, type CheckerOptions, TransferChecker } from "./check.ts";
import { registerMonitoringRoutes } from "./routes.ts";
import { findMonitored } from "./store.ts";
import { registerWalletRoutes } from "./wallet-routes.ts";
import { watcherForChains } from "./watch.ts";

export interface MonitoringNeeds {
  registry: ChainRegistry;
  analysis: AnalysisWiring;
  integrator: { profiles: ProfileReader; outboxFull: (projectId: number) => Promise<boolean>; wake(): void };
  screening: {
    /** Screens a client at its first checked transfer, reading its profile when it never was. */
    screenClient(client: CheckedClient, readProfile: ReadProfile, now: Date): ReturnType<ClientListings>;
    /** Screens a client again when its profile changed. */
    profileChanged(client: CheckedClient, profile: Profile, now: Date): Promise<void>;
  };
  /** A client's operations inside the exchange, added to its accumulations. */
  exchangeHistory: NonNullable<CheckerOptions["exchangeHistory"]>;
  metrics: {
    ruleUnjudged(book: string): void;
    loopFailure(loop: string): void;
    transferChecked: NonNullable<CheckerOptions["onChecked"]>;
    clientUnscreened(): void;
  };
}

type ClientListings = NonNullable<CheckerOptions["clientListings"]>;
type ReadProfile = Parameters<ClientListings>[1];

export interface MonitoringWiring {
  /** What the chain followers tell of the transfers they write and unwind. */
  watcherFor: typeof watcherForChains;
}

export function wireMonitoring(base: Base<DB>, needs: MonitoringNeeds): MonitoringWiring {
  const { config } = base;
  const { analysis, integrator, metrics } = needs;
  const clock = () => new Date(base.now());
  // An analysis of a monitored address at the project's alert level raises an alert.
  analysis.onVerdict(async (verdict) => {
    const findClient = (projectId: number, chainId: number, address: string) =>
      findMonitored(base.db, projectId, chainId, address);
    await alertOnVerdict(base.db, verdict, findClient, config.alertLevel, clock());
  });
  base.assembly.routes((v1) => {
    registerMonitoringRoutes(v1, analysis.context, {
      monitoredAddresses: config.maxMonitoredAddressesPerProject,
    });
    registerWalletRoutes(v1, analysis.context);
  });
  base.assembly.loop(() => {
    const checker = new TransferChecker({
      db: base.db,
      registry: needs.registry,
      profiles: integrator.profiles,
      slots: config.checksPerProcess,
      perProject: config.checksPerProject,
      held: integrator.outboxFull,
      onMessages: () => integrator.wake(),
      log: base.log("monitoring"),
      countUnjudged: metrics.ruleUnjudged,
      countLoopFailure: metrics.loopFailure,
      onChecked: metrics.transferChecked,
      // Each client is screened against the lists of persons at its first checked transfer.
      clientListings: (client, readProfile) => needs.screening.screenClient(client, readProfile, clock()),
      countUnscreened: metrics.clientUnscreened,
      // A client's operations inside the exchange add to its accumulations.
      exchangeHistory: needs.exchangeHistory,
      onProfile: (client, profile) => needs.screening.profileChanged(client, profile, clock()),
    });
    checker.start();
    return checker;
  });
  return { watcherFor: watcherForChains };
}
