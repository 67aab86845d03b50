// Compliance reports (docs/api.md, "Compliance reports"; docs/reports/): monthly files per country built from what
// monitoring saw (Mexico's AVI XML, checked against the official XSD; Colombia, El Salvador and Guatemala in
// documented text layouts), Mexico's 24-hour avisos as they happen, versions that never overwrite a filed file, a
// file store, and signed download URLs valid 30 days.
//
// - generate.ts: the verb (on demand and on schedule); files.ts: writing with versions; schedule.ts: the cron jobs
// - urgent.ts: 24-hour avisos; mx/: the AVI; co/ and threshold-layout.ts: the text layouts
// - routes.ts: the API; file-routes.ts: the signed download
export type { ReportsContext } from "./context.ts";
export { registerFileRoutes } from "./file-routes.ts";
export { generateReports } from "./generate.ts";
export { registerReportRoutes, SIGNED_URL_TTL_MS } from "./routes.ts";
export { MONTHLY_REPORTS_QUEUE, registerReportJobs, runMonthly } from "./schedule.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export { UrgentAvisoWriter, writeUrgentAviso } from "./urgent.ts";
