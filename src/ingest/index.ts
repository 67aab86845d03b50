// Getting data into the store from files and feeds: ethereum-etl exports (etl/), address labels (labels/), prices
// and exchange rates (prices/) and the OFAC sanctions list (sanctions/), each as a `vigia import` subcommand.
export type { WithDatabase } from "./cli.ts";
export { registerImportEtlCommand } from "./etl/command.ts";
export { registerTagsCommand } from "./labels/cli.ts";
export { issuerFreezeLabels } from "./labels/index.ts";
export { registerRateCommands } from "./prices/cli.ts";
export { registerSanctionsCommand } from "./sanctions/cli.ts";
