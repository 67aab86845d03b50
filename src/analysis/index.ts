// Risk analysis: the bounded graph expansion (./graph), the analyses store, and the verbs and routes of
// GET /risk/quick, scan-risk (POST and stored results), the durable POST /risk jobs and the first scans of
// registered addresses (first-scans.ts); and the layered, incremental analyses that investigations follow
// (./layered). The risk model itself is the pure core in src/risk (docs/risk-model.md). What other features and
// the composition root use, and nothing else:
export type {
  AnalysisContext,
  AnalysisKindObserved,
  CompletedVerdict,
  FirstScanOutcome,
} from "./context.ts";
export { coverageOfRoots } from "./coverage.ts";
export { DEFAULT_DEPTH, MAX_DEPTH, MaxDepthSchema } from "./depth.ts";
export { drainDeferredScans, type FirstScanRequest, startFirstScans } from "./first-scans.ts";
export { ReadCoalescing } from "./graph/index.ts";
export { registerRiskJobs, startRiskJob } from "./jobs.ts";
export {
  type CompletedLayer,
  GraphSchema,
  type LayerGraph,
  openLayeredAnalysis,
  registerLayeredRoutes,
  registerLayerJobs,
  runToEnd,
  sweepStalled,
} from "./layered/index.ts";
export { quickRisk } from "./quick.ts";
export { quickAdmission } from "./quick-admission.ts";
export type { StoredResult } from "./result.ts";
export { pruneAnalyses, startAnalysisPruning } from "./retention.ts";
export { registerAnalysisRoutes } from "./routes.ts";
export { type ScanRequest, scanRisk } from "./scan.ts";
export { ScanBody, ScanResponse, StoredScanSchema } from "./schemas.ts";
export { getAnalysis, latestCompleted, type StoredAnalysis } from "./store.ts";
export { type StoredScanItem, storedScans } from "./stored.ts";
export {
  latestVerdict,
  latestVerdictMark,
  quickVerdict,
  type VerdictDriver,
  type VerdictExposure,
  type VerdictFinding,
  type VerdictMark,
  type VerdictSource,
  type WalletVerdict,
} from "./verdict.ts";
export { type AnalysisNeeds, type AnalysisWiring, wireAnalysis } from "./wiring.ts";
export {
  categoryEs,
  categoryWord,
  causeWord,
  directionEs,
  directionWord,
  exposureEs,
  findingEs,
  labelsOfVerdict,
  levelEs,
  levelWord,
  patternEs,
  patternWord,
  reasonEs,
  severityEs,
  severityWord,
} from "./words.ts";
