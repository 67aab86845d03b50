// Compliance reports (docs/api.md, "Compliance reports"; docs/reports/): what every jurisdiction shares. The files
// themselves are each jurisdiction's (src/jurisdictions); this room runs them: monthly generations on demand and on
// schedule, urgent avisos as they happen, one versioned writer that never overwrites a filed file, failures that
// are never silent, the filing calendar, a file store and signed download URLs valid 30 days.
//
// - generate.ts: the verb (on demand and on schedule); files.ts: writing with versions; schedule.ts: the cron jobs
// - urgent.ts: urgent avisos; failures.ts: what happens when a file cannot be written; calendar.ts: the filings
// - routes.ts: the API; file-routes.ts: the signed download

export { fileAlertFilings, type ReportedAlert } from "./alert-filings.ts";
export { registerAvisoRoutes } from "./aviso-routes.ts";
export { filingCalendar, overdueFilings } from "./calendar.ts";
export { type ClientFile, filesOfClient } from "./client-files.ts";
export type { ReportsContext } from "./context.ts";
export { registerFileRoutes } from "./file-routes.ts";
export { generateReports } from "./generate.ts";
export { registerReportRoutes, SIGNED_URL_TTL_MS } from "./routes.ts";
export { MONTHLY_REPORTS_QUEUE, registerReportJobs, runMonthly } from "./schedule.ts";
export { SEALED_COLUMNS } from "./sealed.ts";
export { UrgentAvisoWriter, writeUrgentAviso } from "./urgent.ts";
export { type ReportsNeeds, type ReportsWiring, wireReports } from "./wiring.ts";
