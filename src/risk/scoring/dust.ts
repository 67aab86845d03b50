// Incidental exposure is not a verdict (docs/decisions/0030): anyone can send anything to a public address, and
// sanctioned addresses and mixers "dust" thousands of bystanders (the Tornado Cash gifts of August 2022). The
// received funds of one risky category are unsolicited (dust) when, at every hop count together:
//   - they come to at most dustMaxUsd, and at most dustMaxShare of everything the address received;
//   - every such transfer has a USD value (a zero-value transfer counts as nothing; an unknown price is unknown);
//   - the address did not pass them on as they came: its own later sends that carry the same funds (the same token,
//     dustForwardedFractions of a dust receipt's amount, within dustForwardDays) stay under dustOnwardShare of the
//     dust. Not the haircut share of every later send: an ordinary user who spends most of a balance that
//     also holds USD 2 of dust has not chosen to move the dust (proportional taint would make every dusted user who
//     pays rent "spend it onward"), while one who sends on USD 2.39 after receiving USD 2.39 has.
// Such entries are marked `unsolicited` and score at most dustMaxPoints (contributions.ts). Sending to a risky
// address is never dust, whatever the amount: it is a choice the address made. A risky category is one with a
// weight in categoryWeights (an exchange withdrawal is not "unsolicited").
import type { Exposure, ExposureEntry } from "../exposure.ts";
import type { Finding } from "../findings.ts";
import { ratioBounds } from "../graph/amounts.ts";
import type { GraphIndex } from "../graph/graph-index.ts";
import type { GraphEdge } from "../graph/types.ts";
import type { ScoringParams } from "./params.ts";

/** The exposure with its dust entries marked `unsolicited: true` (the same object when there are none). */
export function markUnsolicited(index: GraphIndex, exposure: Exposure, p: ScoringParams): Exposure {
  const received = new Map<string, ExposureEntry[]>();
  for (const e of exposure.entries) {
    if (e.direction !== "incoming" || !((p.categoryWeights[e.category] ?? 0) > 0)) continue;
    received.set(e.category, [...(received.get(e.category) ?? []), e]);
  }
  const dust = new Set<string>();
  for (const [category, entries] of received) {
    if (isDust(index, exposure, entries, p)) dust.add(category);
  }
  if (dust.size === 0) return exposure;
  return {
    ...exposure,
    entries: exposure.entries.map((e) =>
      e.direction === "incoming" && dust.has(e.category) ? { ...e, unsolicited: true } : e,
    ),
  };
}

function isDust(
  index: GraphIndex,
  exposure: Exposure,
  entries: readonly ExposureEntry[],
  p: ScoringParams,
): boolean {
  if (entries.some((e) => (e.unpriced ?? 0) > 0)) return false;
  const usd = entries.reduce((s, e) => s + e.usd, 0);
  if (usd > p.dustMaxUsd) return false;
  // Nothing priced received at all: no share can be told, unless the receipts themselves are worth nothing.
  if (usd > 0 && !(exposure.incomingUsd > 0 && usd / exposure.incomingUsd <= p.dustMaxShare)) return false;
  if (usd === 0) return true;
  const onward = Math.min(usd, forwardedUsd(index, exposure.root, entries, p));
  return onward < p.dustOnwardShare * usd;
}

/**
 * USD of the dust receipts the root passed on as they came: each receipt on the entries' paths matched, at most
 * once, with a later send of the root within dustForwardDays of the same token carrying dustForwardedFractions of
 * its amount, earliest first. The same token: a payment of USD 1.69 in a stablecoin after USD 1.40 of ether arrived
 * is the user's own money (the eval's dusted users showed it).
 */
function forwardedUsd(
  index: GraphIndex,
  root: string,
  entries: readonly ExposureEntry[],
  p: ScoringParams,
): number {
  // Only the receipts of entries that carry traced funds: a path along which nothing of the category is traced
  // (an intermediary paid by it long before) ends in a receipt of the address's own money, and passing that on
  // is not passing the dust on.
  const txs = new Set(entries.filter((e) => e.usd > 0).flatMap((e) => e.txs));
  const receipts = index.inOf(root).filter((e) => e.from !== root && txs.has(e.txHash));
  const sends = index.outOf(root).filter((e) => e.to !== root);
  const window = p.dustForwardDays * 86_400;
  const [lo, hi] = p.dustForwardedFractions;
  const used = new Set<GraphEdge>();
  let total = 0;
  for (const r of receipts) {
    const send = sends.find((s) => {
      if (used.has(s) || s.token !== r.token || s.at < r.at || s.at - r.at > window) return false;
      const ratio = ratioBounds(r, s);
      return ratio !== null && ratio.value >= lo && ratio.value <= hi;
    });
    if (!send) continue;
    used.add(send);
    total += r.usd ?? 0;
  }
  return total;
}

/**
 * The mixing findings whose only link to the mixers is unsolicited dust (a withdrawal from a pool into the address
 * that the address never asked for): every transaction of the finding is on an unsolicited entry's paths. They stay
 * in the findings as evidence, but are not the address's pattern and add no points.
 */
export function unsolicitedFindings(
  findings: readonly Finding[],
  root: string,
  exposure: Exposure,
): Set<Finding> {
  const dustTxs = new Set(exposure.entries.filter((e) => e.unsolicited).flatMap((e) => e.txs));
  const out = new Set<Finding>();
  if (dustTxs.size === 0) return out;
  for (const f of findings) {
    if (f.pattern !== "mixing" || f.subject !== root || f.thresholds.direction !== "incoming") continue;
    if (f.txs.length > 0 && f.txs.every((tx) => dustTxs.has(tx))) out.add(f);
  }
  return out;
}
