// The alerts room in a running service: its part of a project's settings (the alert level), the open alerts for
// the metrics, and its routes, with the filings an alert closes (the reports' room) and a person match's view
// (the screening room) handed in.
import type { ChainRegistry } from "../chains/index.ts";
import type { Base } from "../platform/assembly.ts";
import type { ProjectsWiring } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { type AlertCount, countOpenAlerts } from "./counts.ts";
import { type AlertsContext, registerAlertRoutes } from "./routes.ts";
import { alertSettings } from "./settings.ts";

export interface AlertsNeeds {
  registry: ChainRegistry;
  projects: ProjectsWiring;
  reports: { fileAlertFilings: NonNullable<AlertsContext["fileReported"]> };
  screening: { matchOf: NonNullable<AlertsContext["matchOf"]> };
  metrics: { followAlerts(count: () => Promise<AlertCount[]>): void };
}

export function wireAlerts(base: Base<DB>, needs: AlertsNeeds): void {
  needs.projects.addPart(alertSettings(base.config.alertLevel));
  needs.metrics.followAlerts(() => countOpenAlerts(base.db, new Date(base.now())));
  base.assembly.routes((v1) =>
    registerAlertRoutes(v1, {
      db: base.db,
      now: base.now,
      codecOf: (id) => needs.registry.codec(id),
      fileReported: needs.reports.fileAlertFilings,
      matchOf: needs.screening.matchOf,
    }),
  );
}
