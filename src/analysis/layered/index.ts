// Layered (incremental) analyses: breadth-first, one layer per step, each layer stored on its own and
// never changed; run as durable jobs, one per layer; read through the progress and layer routes.
export { type AdvanceOutcome, advanceAnalysis } from "./advance.ts";
export { failureReason, LAYER_QUEUE, queueNextLayer, registerLayerJobs, sweepStalled } from "./jobs.ts";
export type { CompletedLayer, LayerEdge, LayerGraph, LayerNode, ShortLayer } from "./layer-result.ts";
export { type LayeredAnalysisKey, openLayeredAnalysis, runToEnd } from "./open.ts";
export { registerLayeredRoutes } from "./routes.ts";
export { GraphSchema } from "./schemas.ts";
export {
  findReusable,
  getLayeredAnalysis,
  insertLayeredAnalysis,
  type LayeredAnalysis,
  markFailed,
  readFinalGraph,
} from "./store.ts";
export { type AnalysisProgress, progressStatus, readLayer, readProgress } from "./views.ts";
