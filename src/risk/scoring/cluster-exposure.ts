// Exposure by cluster, on UTXO chains: the addresses a transaction spends together are one owner's (common-input
// ownership, src/risk/utxo, CoinJoins and exchanges' spends excluded), so what another address of the root's
// cluster received from or sent to a risky category is the root's owner's exposure too. An officer asking about a
// deposit address wants to know that the same wallet also holds coins a sanctioned address paid.
// The rule: each other address of the cluster the expansion took as a root (graph.clusters) lends its scoring
// entries (not dust) to the root, with the same category, direction, hops and figures, marked `sameOwner` with the
// address and the transactions that joined them; the root's own entries come first where they weigh as much. The
// figures stay the other address's (its USD, its share of its own volume): the cluster's total volume is not
// known to the graph, so no share of it is made up.

import { type Exposure, type ExposureEntry, exposureOrder } from "../exposure.ts";
import type { GraphIndex } from "../graph/graph-index.ts";
import { cmp } from "../graph/graph-index.ts";
import { exposurePoints } from "./contributions.ts";
import type { ScoringParams } from "./params.ts";

/** At most this many entries lent by the cluster's other addresses, the strongest first. */
const MAX_LENT = 10;

export function withClusterExposure(
  index: GraphIndex,
  root: string,
  exposure: Exposure,
  exposureOf: (address: string) => Exposure,
  p: ScoringParams,
): Exposure {
  const cluster = index.graph.clusters?.get(root);
  if (!cluster) return exposure;
  const lent: { entry: ExposureEntry; points: number }[] = [];
  for (const member of cluster.members) {
    if (member === root || !index.graph.nodes.has(member)) continue;
    for (const entry of exposureOf(member).entries) {
      const points = exposurePoints(entry, p);
      if (entry.unsolicited || points <= 0) continue;
      const sameOwner = {
        address: member,
        clusterId: cluster.id,
        clusterSize: cluster.size,
        joinedBy: cluster.joinedBy,
      };
      lent.push({ entry: { ...entry, sameOwner }, points });
    }
  }
  if (lent.length === 0) return exposure;
  const strongest = lent
    .sort(
      (a, b) =>
        b.points - a.points || cmp(a.entry.sameOwner?.address ?? "", b.entry.sameOwner?.address ?? ""),
    )
    .slice(0, MAX_LENT)
    .map((l) => l.entry);
  const entries = [...exposure.entries, ...strongest].sort(
    (a, b) =>
      exposureOrder(a, b) ||
      // The root's own before a lent one.
      Number(a.sameOwner !== undefined) - Number(b.sameOwner !== undefined) ||
      cmp(a.sameOwner?.address ?? "", b.sameOwner?.address ?? ""),
  );
  return { ...exposure, entries };
}
