// Label rows of a CSV file: `address,chain_id,label,category,source` (docs/labels.md) or the normalized label files
// of docs/labels.md (`address,chain,chain_id,label,category,source`, `address,chain,label,category,source`),
// columns in any order, with an optional `confidence` (0-100 or a GraphSense level name). Chain names map to ids
// as chains.ts says; when both chain and chain_id are given they must agree. An empty label takes the category.
import { normalizeCategories } from "./categories.ts";
import { isKnownChainId, placeAddress, resolveChainName } from "./chains.ts";
import { parseConfidence } from "./confidence.ts";
import { openCsv } from "./csv-rows.ts";
import type { LabelRow } from "./label-stage.ts";
import { InputError, type RowOutcome } from "./row-problems.ts";

function csvRowToLabel(
  values: Record<string, string>,
  sourceOverride: string | undefined,
): RowOutcome<LabelRow> {
  const address = values.address ?? "";
  if (!address) return { error: "empty address" };
  const rawCategory = values.category ?? "";
  if (!rawCategory) return { error: "empty category" };
  const source = sourceOverride ?? values.source ?? "";
  if (!source) return { error: "empty source" };
  const idText = values.chain_id ?? "";
  const name = values.chain ?? "";
  let placed: ReturnType<typeof placeAddress>;
  if (idText !== "") {
    if (!/^-?\d{1,10}$/.test(idText) || !isKnownChainId(Number(idText))) {
      return { error: `unknown chain_id "${idText}"` };
    }
    placed = placeAddress(Number(idText), address);
    if (name && "chainId" in placed) {
      const byName = resolveChainName(name, address);
      if ("chainId" in byName && byName.chainId !== placed.chainId) {
        return { error: `chain "${name}" is chain id ${byName.chainId}, not ${idText}` };
      }
    }
  } else if (name) {
    placed = resolveChainName(name, address);
  } else {
    return { error: "no chain or chain_id" };
  }
  if (!("chainId" in placed)) return placed;
  const confidence = parseConfidence(values.confidence);
  if (typeof confidence !== "number") return confidence;
  const { category, original } = normalizeCategories([rawCategory]);
  return {
    row: {
      address: placed.address,
      chainId: placed.chainId,
      label: values.label || rawCategory,
      category,
      originalCategory: original,
      source,
      confidence,
    },
  };
}

/** The label rows of a CSV file, with their line numbers; a header without the needed columns is an InputError. */
export async function* csvLabels(
  file: string,
  sourceOverride?: string,
): AsyncGenerator<{ line: number; outcome: RowOutcome<LabelRow> }> {
  const csv = await openCsv(file);
  const missing = ["address", "label", "category"].filter((name) => !csv.columns.includes(name));
  if (!csv.columns.includes("chain_id") && !csv.columns.includes("chain"))
    missing.push("chain_id (or chain)");
  if (!sourceOverride && !csv.columns.includes("source")) missing.push("source");
  if (missing.length > 0) {
    throw new InputError(
      `${file}:1: missing column${missing.length > 1 ? "s" : ""} ${missing.join(", ")} (expected address,chain_id,label,category,source)`,
    );
  }
  for await (const { line, values } of csv.records) {
    yield { line, outcome: csvRowToLabel(values, sourceOverride) };
  }
}
