// Address labels: the importers (TagPacks, CSV, the built-in seed) and the staging table they merge through,
// which the scenario worlds use to write their own labels.

export { chainNameOf, NON_EVM_CHAIN_IDS } from "./chains.ts";
export { type LabelRow, LabelStage, type MergeCounts } from "./label-stage.ts";
