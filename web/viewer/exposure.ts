// The root's exposure (docs/api.md, "Exposure paths") as elements of the drawn graph and as words. No DOM here, so
// it is unit-tested in Node (test/viewer/exposure.test.ts).
//
// The API gives each exposure as the labelled addresses at its far end, the intermediaries and the transactions
// on the paths; the drawn graph has one edge per direction between two addresses. An edge is on a path when both
// its ends are path addresses and one of its transfers is a path transaction: a transaction can carry several
// transfers (a token and the native value), and only the ones between path addresses are the path's.

import { currentLang, formatNumber, t, tOptional } from "./i18n.ts";
import { type EdgeState, formatUsd, type NodeState } from "./model.ts";
import type { ExposurePath } from "./types.ts";

/**
 * Categories whose addresses are a risky source (or destination) of funds: their paths are drawn emphasised
 * whether or not the score rests on them, so a weaker second exposure is still visible. Exposure to an
 * exchange or a bridge is listed but not emphasised: it is where ordinary funds go.
 */
export const RISKY_EXPOSURE: ReadonlySet<string> = new Set([
  "sanctioned",
  "illicit",
  "blocklisted",
  "sanctioned_historical",
  "mixer",
]);

/** Whether a path is drawn emphasised: the score rests on it, or it leads to a risky address. */
export const isEmphasised = (path: ExposurePath) => path.drivesScore || RISKY_EXPOSURE.has(path.category);

export interface PathElements {
  /** node ids (lowercase addresses) */
  nodes: Set<string>;
  /** edge ids (`${from}->${to}`) */
  edges: Set<string>;
}

/** The nodes and drawn edges of some exposure paths. */
export function pathElements(
  paths: readonly ExposurePath[],
  root: string,
  edges: Iterable<EdgeState>,
): PathElements {
  const nodes = new Set<string>();
  const txs = new Set<string>();
  for (const path of paths) {
    nodes.add(root.toLowerCase());
    for (const a of path.via) nodes.add(a.toLowerCase());
    for (const c of path.counterparties) nodes.add(c.address.toLowerCase());
    for (const t of path.txHashes) txs.add(t.toLowerCase());
  }
  const onPath = new Set<string>();
  if (txs.size > 0) {
    for (const e of edges) {
      if (!nodes.has(e.from) || !nodes.has(e.to)) continue;
      if (e.transfers.some((t) => t.txHash !== undefined && txs.has(t.txHash.toLowerCase())))
        onPath.add(e.id);
    }
  }
  return { nodes, edges: onPath };
}

/**
 * The path's addresses in the direction the money moved: for funds received, from the labelled source through
 * the intermediaries (farthest from the root first) to the root; for funds sent, the other way. Several paths of
 * one entry share this one line: an officer reads "from whom, through how many, to whom", and the graph shows
 * each edge.
 */
export function pathInOrder(
  path: ExposurePath,
  root: string,
  nodes: ReadonlyMap<string, NodeState>,
): string[] {
  const depth = (a: string) => nodes.get(a)?.depth ?? 0;
  const via = path.via.map((a) => a.toLowerCase());
  const far = path.counterparties.map((c) => c.address.toLowerCase());
  const self = root.toLowerCase();
  if (path.direction === "self") return [self];
  if (path.direction === "incoming") return [...far, ...[...via].sort((a, b) => depth(b) - depth(a)), self];
  return [self, ...[...via].sort((a, b) => depth(a) - depth(b)), ...far];
}

const pct = (share: number) => `${formatNumber(Math.round(share * 1000) / 10)}%`;
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");

/** "a sanctioned address" in English as ever; in another language the catalog's phrase for the category. */
function addressKind(category: string): string {
  const spaced = category.replace(/_/g, " ");
  if (currentLang() === "en") return `${article(spaced)} ${spaced} address`;
  return tOptional(`address.${category}`) ?? t("address.other", { category: spaced });
}

/** "Received $14,886.60 (100% of its incoming funds) from a sanctioned address 3 hops away". */
export function describeExposure(path: ExposurePath): string {
  const category =
    currentLang() === "en"
      ? path.category.replace(/_/g, " ")
      : (tOptional(`category.${path.category}`) ?? path.category.replace(/_/g, " "));
  if (path.direction === "self") return t("viewer.exposure.self", { category });
  const where = path.hops <= 1 ? t("viewer.directly") : t("viewer.hops_away", { hops: path.hops });
  const params = {
    usd: formatUsd(path.usd),
    share: pct(path.share),
    kind: addressKind(path.category),
    where,
  };
  return path.direction === "incoming"
    ? t("viewer.exposure.received", params)
    : t("viewer.exposure.sent", params);
}
