// What the laws of the project's jurisdictions (MX, CO, SV, GT) say that the service applies: for now, the
// reporting thresholds the structuring detector measures transfers against (thresholds.ts).
export {
  currenciesNeeded,
  type DailyThreshold,
  type FxRates,
  JURISDICTION_CODES,
  type JurisdictionCode,
  reportingThresholds,
} from "./thresholds.ts";
export { umaOn } from "./uma.ts";
