// The law engine every jurisdiction shares (src/jurisdictions holds the countries): what a law rule is (dated
// versions with their sources, rules.ts), a client's operation with its valuations (operation.ts), the one loop
// that judges an operation against a rule book (evaluate.ts), and the conversion of reporting thresholds for the
// structuring detector (thresholds.ts). It knows no country.
export {
  type Accumulation,
  type AccumulationInput,
  type AccumulationResult,
  type BookUnits,
  bookUnits,
  type Evaluation,
  evaluate,
  type InflictedLaw,
  type RuleBook,
} from "./evaluate.ts";
export {
  accumulates,
  actOf,
  byTime,
  byUser,
  type ClientOperation,
  type Counterparty,
  type ExchangeDetail,
  localIn,
  type OperationAct,
  operationIdOfHash,
  operationTxHash,
  sameOperation,
  usdIn,
  type Valuation,
  wholeTokens,
} from "./operation.ts";
export {
  type Acts,
  type Comparison,
  cents,
  type LawRisk,
  type LawRule,
  meets,
  type RuleAmount,
  type RuleCheck,
  type RuleVersion,
  VIRTUAL_ASSET_ACTS,
  versionOn,
} from "./rules.ts";
export {
  currenciesNeeded,
  type DailyThreshold,
  type FxRates,
  reportingThresholds,
  type ThresholdSpec,
} from "./thresholds.ts";
