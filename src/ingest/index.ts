// Getting data into the store from files and feeds: ethereum-etl exports (etl/), address labels (labels/), prices
// and exchange rates (prices/), the OFAC sanctions list (sanctions/), Mexico's UMA of a new year (uma/), each as a
// `vigia import` subcommand, and the lists of persons clients are screened against (person-lists/, `vigia lists`),
// kept fresh by the workers (refresh/).

export { registerImportBtcEtlCommand } from "./btc-etl/command.ts";
export { importCommand, type WithDatabase } from "./cli.ts";
export { registerImportEtlCommand } from "./etl/command.ts";
export { type ImportEtlSummary, importEtl } from "./etl/import.ts";
export { registerTagsCommand } from "./labels/cli.ts";
export { issuerFreezeLabels } from "./labels/index.ts";
export { type ListsNeeds, type ListsWiring, wireLists } from "./lists-wiring.ts";
export { registerListsCommand } from "./person-lists/cli.ts";
export { importPersonListFiles, type PersonListImport } from "./person-lists/import.ts";
export { registerRateCommands } from "./prices/cli.ts";
export {
  AGED_KINDS,
  type ListFreshness,
  ListRefresher,
  listFreshness,
  REFRESHED_KINDS,
  type RefreshedKind,
  type RefreshOutcome,
  refreshUrl,
} from "./refresh/index.ts";
export { registerSanctionsCommand } from "./sanctions/cli.ts";
export { registerUmaCommand } from "./uma/cli.ts";
