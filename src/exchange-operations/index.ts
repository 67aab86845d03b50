// The exchange's own operations: what a client does inside the exchange (buys, sells, swaps, fiat deposits and
// withdrawals by SPEI, Pix and other rails, crypto deposits and withdrawals, fees, custody snapshots), sent by the
// integrator (docs/api.md "Exchange operations"). This room owns their intake (each item checked against its kind
// and rail: a CLABE's check digit, a CPF or CNPJ, a Pix key), their store (idempotent by the integrator's id), and
// the client-level rules that watch them (fan-in, pass-through, fiat structuring, third-party funding, withdrawal to
// risk), whose alerts the alerts room keeps. Not to be confused with src/operations, the operator's tools.
export { registerOperationsImportCommand } from "./cli.ts";
export { type ClientIdentity, identityOf, isClient, isKnownPayer } from "./client-identity.ts";
export {
  brazilianTaxIdProblem,
  clabeCheckDigit,
  clabeProblem,
  isValidCnpj,
  pixKeyProblem,
} from "./identifiers.ts";
export { ImportRefused, type ImportSummary, importOperations } from "./import-file.ts";
export { checkedItems, type ParseAddress } from "./items.ts";
export {
  exchangeClientOperations,
  exchangeOperationsMeeting,
  type LawBook,
  nativeCoins,
} from "./law-operations.ts";
export {
  DEFAULT_MONITOR,
  judgeOperationsOnce,
  type OperationMonitorOptions,
  startOperationMonitor,
} from "./monitor.ts";
export { type ExchangeOperationsContext, registerExchangeOperationRoutes } from "./routes.ts";
export {
  type DestinationVerdict,
  judgeOperations,
  type RuleHit,
  type RuleInput,
  type ValuedOperation,
} from "./rules.ts";
export {
  KIND_SCHEMAS,
  MAX_OPERATIONS,
  OPERATION_KINDS,
  type OperationItem,
  type OperationKind,
  RAILS,
} from "./schemas.ts";
export {
  DEFAULT_RULE_PARAMETERS,
  OPERATION_RULES,
  type OperationRuleId,
  operationRuleSettings,
  type RuleParameters,
  ruleParametersOf,
} from "./settings.ts";
export { clientOperations, hasOperations, type IngestCount, insertOperations } from "./store.ts";
export { type OperationSummary, operationSummary, SUMMARY_MAX } from "./summary.ts";
export type { ExchangeOperationTables } from "./tables.ts";
export {
  type ExchangeOperationsNeeds,
  type ExchangeOperationsWiring,
  wireExchangeOperations,
} from "./wiring.ts";
