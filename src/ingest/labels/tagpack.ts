// GraphSense TagPack tags as label rows. Header fields are inherited by every tag (a tag's own field wins). The
// chain comes from `network` (or `currency`): ETH is every EVM chain (chain id 0), other codes their chain
// (chains.ts). The category is the riskiest of the tag's category, abuse and concepts (categories.ts), and the
// confidence level name becomes 0-100 (confidence.ts). The label source is the pack, "tagpack:<file name>".
import path from "node:path";
import { normalizeCategories } from "./categories.ts";
import { resolveCurrency } from "./chains.ts";
import { parseConfidence } from "./confidence.ts";
import type { LabelRow } from "./label-stage.ts";
import type { RowOutcome } from "./row-problems.ts";
import { readTagPackHeader, readTagPackItems } from "./tagpack-scan.ts";

/** The tag fields of the TagPack schema; a header field of one of these names is inherited by the tags. */
const TAG_FIELDS = [
  "label",
  "source",
  "currency",
  "network",
  "context",
  "confidence",
  "is_cluster_definer",
  "lastmod",
  "category",
  "abuse",
  "address",
  "tx_hash",
  "actor",
  "concepts",
  "tag_type",
] as const;

export const tagPackSource = (file: string) => `tagpack:${path.basename(file).replace(/\.ya?ml$/i, "")}`;

const text = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;

const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === "string")
    : (text(value) ?? "").split(",");

export function tagToLabel(tag: Record<string, unknown>, source: string): RowOutcome<LabelRow> {
  const rawAddress = tag.address;
  if (rawAddress !== undefined && typeof rawAddress !== "string") return { error: "address must be text" };
  const address = text(rawAddress);
  if (!address)
    return text(tag.tx_hash) ? { skip: "transaction tag (no address)" } : { error: "tag has no address" };
  const label = text(tag.label);
  if (!label) return { error: "tag has no label" };
  const code = text(tag.network) ?? text(tag.currency);
  if (!code) return { error: "tag has no currency or network" };
  const placed = resolveCurrency(code, address);
  if (!("chainId" in placed)) return placed;
  const confidence = parseConfidence(text(tag.confidence));
  if (typeof confidence !== "number") return confidence;
  const { category, original } = normalizeCategories([
    text(tag.abuse) ?? "",
    text(tag.category) ?? "",
    ...texts(tag.concepts),
  ]);
  return {
    row: {
      address: placed.address,
      chainId: placed.chainId,
      label,
      category,
      originalCategory: original,
      source,
      confidence,
    },
  };
}

/** The label rows of a TagPack file, with the line of each tag. */
export async function* tagPackLabels(
  file: string,
  source: string,
): AsyncGenerator<{ line: number; outcome: RowOutcome<LabelRow> }> {
  const header = await readTagPackHeader(file);
  const inherited: Record<string, unknown> = {};
  for (const field of TAG_FIELDS) if (field in header) inherited[field] = header[field];
  for await (const { line, tag } of readTagPackItems(file)) {
    yield { line, outcome: tagToLabel({ ...inherited, ...tag }, source) };
  }
}
