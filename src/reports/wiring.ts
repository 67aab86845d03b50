// The reports room in a running service: where its files are kept, its context, its monthly jobs and routes, the
// overdue filings for the metrics, and in processes with workers the urgent avisos (Mexico's 24 hours) written as
// soon as the checks find them.
import type { ChainRegistry } from "../chains/index.ts";
import type { ProfileReader } from "../integrator/index.ts";
import type { Base } from "../platform/assembly.ts";
import { chooseFileStore, FilesystemStore } from "../platform/storage/index.ts";
import type { DB } from "../schema.ts";
import { fileAlertFilings, type ReportedAlert } from "./alert-filings.ts";
import { registerAvisoRoutes } from "./aviso-routes.ts";
import { overdueFilings } from "./calendar.ts";
import type { ReportsContext } from "./context.ts";
import { registerFileRoutes } from "./file-routes.ts";
import { registerReportRoutes } from "./routes.ts";
import { registerReportJobs } from "./schedule.ts";
import { UrgentAvisoWriter } from "./urgent.ts";

export interface ReportsNeeds {
  registry: ChainRegistry;
  /** The database's kind and its query builder: the files are kept in it unless a folder is chosen. */
  database: Parameters<typeof chooseFileStore>[1];
  profiles: ProfileReader;
  metrics: {
    reportFailure(countryCode: string, reason: string): void;
    loopFailure(loop: string): void;
    followFilings(overdue: () => Promise<Map<string, number>>): void;
  };
}

export interface ReportsWiring {
  context: ReportsContext;
  /** Files the avisos an officer decided to file for an alert. */
  fileAlertFilings: (
    projectId: number,
    alert: ReportedAlert,
    reference: string,
    actor: string,
  ) => ReturnType<typeof fileAlertFilings>;
}

export async function wireReports(base: Base<DB>, needs: ReportsNeeds): Promise<ReportsWiring> {
  const { config } = base;
  const store = chooseFileStore(config, needs.database);
  const context: ReportsContext = {
    db: base.db,
    serverKeys: base.serverKeys,
    registry: needs.registry,
    store,
    profiles: needs.profiles,
    publicUrl: config.publicUrl,
    now: base.now,
    log: base.log("reports"),
    countFailure: needs.metrics.reportFailure,
    countLoopFailure: needs.metrics.loopFailure,
  };
  needs.metrics.followFilings(() => overdueFilings(context));
  await registerReportJobs(context, base.jobs);
  // Files kept in a folder: /readyz says so when it cannot be written.
  if (store instanceof FilesystemStore) base.assembly.readiness["file store"] = () => store.check();
  base.assembly.routes((v1) => {
    registerReportRoutes(v1, context);
    registerAvisoRoutes(v1, context);
    registerFileRoutes(v1, context);
  });
  base.assembly.loop(() => {
    const writer = new UrgentAvisoWriter(context);
    writer.start();
    return writer;
  });
  return {
    context,
    fileAlertFilings: (projectId, alert, reference, actor) =>
      fileAlertFilings(context, projectId, alert, reference, actor),
  };
}
