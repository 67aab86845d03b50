// Address labels: the importers (TagPacks, CSV, the built-in seed) and the staging table they merge through,
// which the scenario worlds use to write their own labels.
export { type LabelRow, LabelStage, type MergeCounts } from "./label-stage.ts";
