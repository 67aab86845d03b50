// Wallet background reports (docs/api.md, "Wallet background report"): facts the service holds about an address
// (facts.ts), written by an LLM (llm.ts, checked by check-answer.ts) or the deterministic writer
// (deterministic.ts), cached per project (report.ts), served by routes.ts.
export { checkAnswer } from "./check-answer.ts";
export { deterministicReport } from "./deterministic.ts";
export { gatherFacts, type WalletFacts } from "./facts.ts";
export { LlmWriter } from "./llm.ts";
export { type NarrativesContext, WalletReports } from "./report.ts";
export { registerNarrativeRoutes } from "./routes.ts";
export { wireNarratives } from "./wiring.ts";
