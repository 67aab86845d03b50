// The risk core's exposure entries (src/risk/exposure.ts) as paths a person can follow: the labelled addresses at the
// far end, the intermediaries, the transactions, whether the score's exposure points come from the entry, and
// whether it is unsolicited dust (docs/decisions/0030). One mapping for every verdict that shows exposure: the
// wallet verdict (verdict.ts) and an investigation's layer (layered/exposure-paths.ts). Pure.
import type { Exposure, ScoreContribution } from "../risk/index.ts";

export interface SameOwnerAs {
  address: string;
  clusterId: string;
  clusterSize: number;
  joinedBy: string[];
}

/** An exposure entry as a path: the labelled addresses at its far end, the intermediaries, the transactions. */
export interface ExposurePath {
  category: string;
  direction: "incoming" | "outgoing" | "self";
  hops: number;
  usd: number;
  share: number;
  counterparties: { address: string; label?: string }[];
  /** intermediaries on the paths, sorted */
  via: string[];
  /** transactions on the paths, sorted */
  txs: string[];
  /** the score's exposure points come from this entry */
  drivesScore: boolean;
  /**
   * on a UTXO chain, the exposure is this address's, of the root's cluster (one owner's by common inputs: the
   * transactions `joinedBy` spent them together); the figures are that address's. Absent: the root's own.
   */
  sameOwnerAs?: SameOwnerAs;
  /**
   * unsolicited dust (docs/decisions/0030): a small, negligible receipt the address did not spend onward, shown
   * as exposure but scoring at most low; present only when true
   */
  unsolicited?: true;
}

export function exposurePaths(
  exposure: Exposure | undefined,
  contributions: readonly ScoreContribution[],
): ExposurePath[] {
  // Only the strongest exposure counts towards the score (scoring/contributions.ts); `ref` indexes the entries.
  const scored = new Set(contributions.filter((c) => c.kind === "exposure").map((c) => c.ref));
  return (exposure?.entries ?? []).map((e, i) => ({
    category: e.category,
    direction: e.direction,
    hops: e.hops,
    usd: e.usd,
    share: e.share,
    counterparties: e.counterparties.map((c) =>
      c.label === undefined ? { address: c.address } : { address: c.address, label: c.label },
    ),
    via: [...e.via],
    txs: [...e.txs],
    drivesScore: scored.has(i),
    ...(e.unsolicited ? { unsolicited: true as const } : {}),
    ...(e.sameOwner ? { sameOwnerAs: { ...e.sameOwner, joinedBy: [...e.sameOwner.joinedBy] } } : {}),
  }));
}
