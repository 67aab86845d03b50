// The investigation viewer: a browser page served by the service that draws an investigation's graph
// growing layer by layer. Server side only: the routes and the build of the browser bundle; the browser code is
// in web/viewer.
export {
  ASSET_PREFIX,
  buildViewerBundle,
  loadViewerBundle,
  readViewerBundle,
  VIEWER_DIST_DIR,
  type ViewerBundle,
  viewerFingerprint,
} from "./bundle.ts";
export { registerViewerRoutes, type ViewerRoutesOptions } from "./routes.ts";
export { wireViewer } from "./wiring.ts";
