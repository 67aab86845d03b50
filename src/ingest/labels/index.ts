// Address labels: the importers (TagPacks, CSV, the built-in seed) and the staging table they merge through,
// which the scenario worlds use to write their own labels, and the labels of token issuers' freezes the indexer reads
// (issuer-freezes.ts: the service passes `issuerFreezeLabels` to the indexer's hooks).

export { chainNameOf, NON_EVM_CHAIN_IDS } from "./chains.ts";
export {
  ISSUER_FREEZE_CATEGORY,
  issuerFreezeLabels,
  recordIssuerFreezes,
  unwindIssuerFreezes,
} from "./issuer-freezes.ts";
export { type LabelRow, LabelStage, type MergeCounts } from "./label-stage.ts";
