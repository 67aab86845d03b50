// Risk analysis (issue 4): the bounded graph expansion (./graph), the analyses store, and the verbs and routes
// of GET /risk/quick, scan-risk (POST and stored results) and the durable POST /risk jobs; and the layered,
// incremental analyses of investigations (./layered, issue 5). The risk model itself
// is the pure core in src/risk.
export type { AnalysisContext } from "./context.ts";
export { ReadCoalescing } from "./graph/index.ts";
export { RISK_QUEUE, readRiskJob, registerRiskJobs, runRiskJob, startRiskJob } from "./jobs.ts";
export {
  advanceAnalysis,
  type CompletedLayer,
  failureReason,
  findReusable,
  GraphSchema,
  getLayeredAnalysis,
  insertLayeredAnalysis,
  LAYER_QUEUE,
  type LayerGraph,
  markFailed,
  queueNextLayer,
  readFinalGraph,
  registerLayeredRoutes,
  registerLayerJobs,
  sweepStalled,
} from "./layered/index.ts";
export { quickRisk } from "./quick.ts";
export { registerAnalysisRoutes } from "./routes.ts";
export { type RunRequest, runAnalysis } from "./run.ts";
export { type ScanRequest, type ScanSummary, scanRisk } from "./scan.ts";
export { storedScans } from "./stored.ts";
