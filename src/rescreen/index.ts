// Re-screening: when the service learns a label (an import of tags or sanctions, a new deposit-address attribution),
// the monitored addresses whose neighbourhood it reaches are scored again, and a rise in level raises an alert of
// cause `rescreen` (src/alerts; docs/api.md, "Alerts").
export { DEFAULT_RESCREEN, type RescreenRun, rescreenOnce, startRescreening } from "./loop.ts";
export type { RescreenTables } from "./tables.ts";
export { wireRescreening } from "./wiring.ts";
