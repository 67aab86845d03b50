// Bounded breadth-first graph expansion over the chain data store (DESIGN.md, Performance notes): one statement
// per layer, never recursive SQL; node, edge and time budgets; services, sanctioned and illicit addresses end a
// path; beyond a degree limit only the top counterparties by USD value are followed.

export { ReadCoalescing } from "../../ledger/index.ts";
export { createGraph, type ExpansionRequest, type ExpansionResult, expandGraph } from "./expand.ts";
export type { HistoryProvider, HistoryReport } from "./history.ts";
export { expandLayer, type LayerOptions, type LayerReport, type StopReason, sortGraph } from "./layer.ts";
export { nodeTypeOf } from "./node-types.ts";
export {
  type BridgeGap,
  DEFAULT_EXPANSION_OPTIONS,
  type ExpandingGraph,
  type ExpansionBudget,
  type ExpansionOptions,
  type ExpansionOverrides,
} from "./options.ts";
export { type GraphJson, graphFromJson, graphToJson } from "./serialize.ts";
