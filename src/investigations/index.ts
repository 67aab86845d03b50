// Investigations: a name, a wallet and a chain tied to the layered analysis that follows the money
// from it (src/analysis/layered). Standard or incremental; an earlier analysis of the same wallet is reused.
export { type CreateInvestigation, createInvestigation } from "./create.ts";
export { registerInvestigationRoutes } from "./routes.ts";
export { getInvestigation, type Investigation, listInvestigations } from "./store.ts";
export {
  type DemoDevnet,
  type InvestigationsNeeds,
  type InvestigationsWiring,
  wireInvestigations,
} from "./wiring.ts";
