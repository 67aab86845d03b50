// Monitoring of registered addresses: a project registers its users' addresses (routes.ts, store.ts), and their
// new transfers are recorded by the indexer in its own transaction (watch.ts), exactly once, to be checked against
// the laws of the project's jurisdictions (check.ts, src/jurisdictions). operations.ts is the one read of clients'
// operations with their valuations, for the checker and the reports.

export { TransferChecker } from "./check.ts";
export {
  type BookClock,
  type CheckedTransfer,
  lastChecked,
  type OperationQuery,
  readClientOperations,
  transfersMeeting,
} from "./operations.ts";
export { ProfileReader, type ProfileResult } from "./profile-reader.ts";
export { registerMonitoringRoutes } from "./routes.ts";
export { FOREIGN_USER_ID_PATTERN } from "./schemas.ts";
export { registerWalletRoutes } from "./wallet-routes.ts";
export { monitoringWatcher, pendingTransfers } from "./watch.ts";
