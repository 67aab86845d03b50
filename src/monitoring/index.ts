// Monitoring of registered addresses: a project registers its users' addresses (routes.ts, store.ts), and their
// new transfers are recorded by the indexer in its own transaction (watch.ts), exactly once, to be checked against
// the laws of the project's jurisdictions (src/regulation).

export { TransferChecker } from "./check.ts";
export { mexicanGap, type Profile, ProfileReader, type ProfileResult } from "./profile.ts";
export { registerMonitoringRoutes } from "./routes.ts";
export { FOREIGN_USER_ID_PATTERN } from "./schemas.ts";
export { registerWalletRoutes } from "./wallet-routes.ts";
export { monitoringWatcher, pendingTransfers } from "./watch.ts";
