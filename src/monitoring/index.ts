// Monitoring of registered addresses: a project registers its users' addresses (routes.ts, store.ts), and their
// new transfers are recorded by the indexer in its own transaction (watch.ts), exactly once, claimed by the workers
// fairly between projects (claim.ts) and checked against the laws of the project's jurisdictions (check.ts,
// src/jurisdictions); the messages are handed to the integrator room's outbox. operations.ts is the one read of clients'
// operations with their valuations, for the checker and the reports.

export { type CheckerOptions, DEFAULT_CHECKER, TransferChecker } from "./check.ts";
export {
  type BookClock,
  type CheckedTransfer,
  lastChecked,
  monitoredTxHashes,
  type OperationQuery,
  RATE_DAYS,
  readClientOperations,
  transfersMeeting,
} from "./operations.ts";
export { registerMonitoringRoutes } from "./routes.ts";
export {
  findMonitored,
  listAddresses,
  type MonitoredAddress,
  monitoredAmong,
  monitoredChains,
} from "./store.ts";
export { registerWalletRoutes } from "./wallet-routes.ts";
export { monitoringWatcher, watcherForChains } from "./watch.ts";
export { type MonitoringNeeds, type MonitoringWiring, wireMonitoring } from "./wiring.ts";
