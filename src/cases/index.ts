// The case per client: one client's profile, screening, alerts, addresses with their risk, avisos, report files and
// timeline in words, composed from the rooms that own each (docs/api.md, "Case per client").
export { type CasesContext, registerCaseRoutes } from "./routes.ts";
export type { ClientCase, TimelineEntry } from "./schemas.ts";
export { wireCases } from "./wiring.ts";
