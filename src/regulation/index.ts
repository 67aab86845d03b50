// What the laws of the project's jurisdictions (MX, CO, SV, GT) say that the service applies: the reporting
// thresholds the structuring detector measures transfers against (thresholds.ts), and the law rules a monitored
// transfer is checked against (law-rules.ts, evaluate.ts; docs/regulation.md).
export { type Evaluation, evaluateTransfer, type InflictedLaw, type TransferFacts } from "./evaluate.ts";
export { LAW_RULES, type LawRisk, type LawRule } from "./law-rules.ts";
export {
  MEXICO_TIME_ZONE,
  MX_ACCUMULATION_RULES,
  MX_MONTHLY_AVISO_RULES,
  MX_REFORM_DAY,
  MX_URGENT_AVISO_RULES,
  mxSingleOperationThresholdMxn,
  REGULATOR_TIME_ZONES,
} from "./mexico.ts";
export {
  currenciesNeeded,
  type DailyThreshold,
  type FxRates,
  JURISDICTION_CODES,
  type JurisdictionCode,
  reportingThresholds,
} from "./thresholds.ts";
export { umaOn } from "./uma.ts";
