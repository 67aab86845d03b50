// The root's exposure as a layer result carries it (docs/api.md, "Investigations and layered analyses"): each
// entry of the risk core's exposure (src/risk/exposure.ts) as a path a person can follow in the graph, from the
// labelled addresses at its far end through the intermediaries to the root, with the transactions on it, and
// whether the score's exposure points come from it. Pure, so a layer recomputed after a crash carries the same.
//
// The stored scan result keeps the exposure for itself (result.ts publicResult leaves it out); a layer shows it
// because the viewer must draw *why*: a score that rests on funds from a sanctioned address three hops away is
// only checkable when those three hops are visible.
import type { Exposure, ScoreContribution } from "../../risk/index.ts";
import { exposurePaths } from "../exposure-entries.ts";
import type { LayerExposure } from "./schemas.ts";

export function layerExposure(
  exposure: Exposure,
  contributions: readonly ScoreContribution[],
): LayerExposure[] {
  // The layer's API names the transactions txHashes; the rest is the wallet verdict's mapping.
  return exposurePaths(exposure, contributions).map(({ txs, ...path }) => ({ ...path, txHashes: txs }));
}
