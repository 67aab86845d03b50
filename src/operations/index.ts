// Running Vigía as an operator (docs/operations.md): the service's metrics, rotating the server secret, and
// moving a whole store from the embedded database to PostgreSQL.

export { registerDumpCommands } from "./dump/cli.ts";
export { type ServiceMetrics, serviceMetrics } from "./metrics.ts";
export { OperationRefused } from "./refused.ts";
export { SEALED_COLUMNS } from "./sealed-columns.ts";
export { registerSecretCommands, type WithKeys } from "./secret-cli.ts";
