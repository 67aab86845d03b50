// The scoring model's parameters and version. Every result records SCORING_MODEL_VERSION and a fingerprint of the
// configuration it was computed with, so that a stored score can always be explained and reproduced.
import type { Severity } from "../findings.ts";

/**
 * Bump when a rule, a default or a weight changes. 1.1.0 (found by the detection benchmark, docs/eval.md): no
 * points for a finding the address has no part in (nearbyPatternFactor 0); round tripping searches the roots' loops
 * first with a per-origin budget, and never through DeFi addresses. 1.2.0 (docs/decisions/0011): indirect exposure
 * counts the funds haircut taint traces through the intermediaries, funds sent at half the weight of funds
 * received; critical is reserved for direct exposure to sanctioned or illicit addresses and for received funds
 * traced from them at criticalTracedShare or more; mixing is a pattern only where the address's own traced funds
 * reach a mixer or come out of one, a weaker link is mixer exposure; exchange deposit addresses are inferred.
 * 1.3.0 (docs/decisions/0019): the graph a result is computed on no longer runs through busy addresses (1,000
 * transfers or more in the store, roots excepted): they are reached but not expanded.
 * 1.4.0 (docs/decisions/0030): incidental exposure is not a verdict: small receipts from a risky category that are
 * a negligible share of what the address received and that it did not spend onward (dust) are shown as
 * unsolicited exposure and score at most dustMaxPoints (low); anything sent to a risky address, and material
 * receipts, keep their weight; dust never lifts an address above low. exchange_hopping also follows the funds
 * through up to three of the user's own fresh wallets (docs/risk-model.md). The graph no longer runs through
 * crowded addresses (100 to 999 transfers) beyond what their path share carries (docs/decisions/0031).
 * 1.5.0 (docs/decisions/0049): value is followed across conversions: a transaction through a protocol's contracts
 * that reads as one payer and one recipient (a swap, an aggregator route) is one transfer of value between them,
 * in USD, not a hop through a router (graph/conversions.ts, the registry of graph/protocols.ts); structuring is
 * also judged over an owner's freshly funded single-purpose wallets (detectors/owner-wallets.ts); a receipt on a path
 * along which nothing of a category is traced no longer counts as dust passed on (scoring/dust.ts).
 * 1.6.0 (docs/decisions/0050): value is followed over bridge crossings (Across, Circle CCTP, LayerZero OFT) to the
 * other chain: a crossing is one edge from the depositor to the recipient, and addresses of another chain are keyed
 * "address@chainId".
 */
export const SCORING_MODEL_VERSION = "vigia-risk-1.6.0";

export interface ScoringParams {
  /** points of an exposure to a category at 1 hop and 100% share (indirect ones decay from there) */
  categoryWeights: Record<string, number>;
  /** direct (1 hop) exposure to these makes the score critical (docs/risk-model.md: sanctioned, illicit) */
  floorCategories: string[];
  /** where critical begins; every other exposure stays below it */
  directFloor: number;
  /**
   * direct exposure to a floor category scores within this band, by its share: above every traced exposure, so
   * that an address that dealt with a sanctioned address itself always ranks above one further away
   */
  directBand: [number, number];
  /**
   * received funds traced from a floor category at criticalTracedShare or more score within these bands, by share:
   * 2 hops, 3 hops, 4 hops, 5 or more. The bands do not overlap (after rounding to whole points), so scores fall
   * with every hop whatever the shares.
   */
  tracedCriticalBands: [number, number][];
  /** an indirect exposure's points are multiplied by this for every hop beyond the first */
  hopDecay: number;
  /**
   * an indirect exposure counts in full once its share of the address's funds (in that direction) reaches this,
   * and as the square root of the fraction of it below: 2 % of the funds count 0.2, 12.5 % count 0.5
   */
  fullShare: number;
  /** indirect exposure through funds the address sent weighs this much of funds it received (source of funds) */
  outgoingWeight: number;
  /**
   * received funds traced (haircut) from a floor category at this share or more make an indirect exposure critical
   * (tracedCriticalBands); below it, an indirect exposure stays under directFloor
   */
  criticalTracedShare: number;
  /**
   * points of a pattern at confidence 1, chosen so that a confident finding lands in the level of its severity's
   * name (a critical pattern found directly is critical; a low one, low)
   */
  severityPoints: Record<Severity, number>;
  /**
   * patterns add, the strongest fully and each next one at this fraction of the previous one's weight (1, 0.5,
   * 0.25, ...), so that two views of one behaviour (a wash-trading pair is also a 2-hop loop) don't stack to
   * critical
   */
  nextPatternWeight: number;
  /** a finding the address is only a counterparty in (the payee of a structurer, a peel's recipient) counts this much */
  indirectPatternFactor: number;
  /**
   * a finding the address has no part in counts this much per hop to its nearest actor (0.3 would be 0.3 at 1 hop,
   * 0.09 at 2). 0 since vigia-risk-1.1.0: the detection benchmark (docs/eval.md) showed that with it every customer
   * of a busy merchant, every employee of a payroll, got the points of the hub's own findings (a merchant receiving
   * three payments of 85-100% of a threshold in a week meets the structuring definition), which raised plain users
   * to "low" and blurred the distance ordering of sanctions exposure; association is what exposure measures
   */
  nearbyPatternFactor: number;
  /** behavioural (pattern) points of an address labelled exchange are reduced by this fraction; exposure never */
  exchangeDiscount: number;
  /** suspiciousActivity from this score on (medium: "requires manual review") */
  suspiciousFrom: number;
  /**
   * Dust (docs/decisions/0030): the received funds of one risky category (a category with a weight above), at every
   * hop count together, are unsolicited when they come to at most dustMaxUsd, at most dustMaxShare of everything the
   * address received, every such transfer has a USD value, and the address did not spend them onward (below).
   * Several receipts add up: ten gifts of USD 2 are USD 20. Funds sent to a risky address are never dust.
   */
  dustMaxUsd: number;
  dustMaxShare: number;
  /**
   * spent onward: the address's later sends that carry a dust receipt as it came (the same token,
   * dustForwardedFractions of its amount, within dustForwardDays) add up to at least this fraction of the dust
   */
  dustOnwardShare: number;
  /** a send carries a dust receipt "as it came" when it is between these fractions of its amount (the same funds) */
  dustForwardedFractions: [number, number];
  /** ... and is sent within this many days of it */
  dustForwardDays: number;
  /** an unsolicited exposure scores at most this: low, never medium (suspiciousFrom) */
  dustMaxPoints: number;
}

export const DEFAULT_SCORING_PARAMS: ScoringParams = {
  categoryWeights: {
    sanctioned: 100,
    illicit: 100,
    blocklisted: 70,
    sanctioned_historical: 45,
    gambling: 10,
    // A link to a mixer too weak to be the mixing pattern (funds not traced there); an address that performs the
    // mixing pattern has its mixer exposure priced by the pattern, not twice.
    mixer: 60,
  },
  floorCategories: ["sanctioned", "illicit"],
  directFloor: 80,
  directBand: [93, 100],
  tracedCriticalBands: [
    [87, 92],
    [84, 86],
    [82, 83],
    [80, 81],
  ],
  hopDecay: 0.7,
  fullShare: 0.5,
  outgoingWeight: 0.5,
  criticalTracedShare: 0.5,
  severityPoints: { critical: 85, high: 65, medium: 50, low: 30 },
  nextPatternWeight: 0.5,
  indirectPatternFactor: 0.3,
  nearbyPatternFactor: 0,
  exchangeDiscount: 0.8,
  suspiciousFrom: 40,
  // "A few dollars" (the Tornado Cash dusting of 2022 sent 0.1 ETH; poisoning sends cents or nothing): below what an
  // ordinary on-chain payment is worth, and small enough that summing a sender's many gifts crosses it quickly.
  dustMaxUsd: 10,
  // 1 %: "negligible" for an address that also receives anything of its own; a mule or a fresh address funded by
  // the dust is never under it (its risky receipts are most of what it has).
  dustMaxShare: 0.01,
  // Half: an address that passed on most of its dust, receipt by receipt, chose to move it.
  dustOnwardShare: 0.5,
  // The "same funds" band the detectors use for a forward (exchange hopping's carried fraction): a receipt passed on
  // whole, less a fee, or topped up a little. An ordinary payment from a balance that happens to hold dust is not
  // in it (USD 120 is 50 times USD 2.39).
  dustForwardedFractions: [0.8, 1.25],
  // A week, the longest a peel chain's hop may rest (peel_chain's window): a launderer passing dust on does so
  // within days; a payment of a similar size weeks later is the user's ordinary life.
  dustForwardDays: 7,
  // 25: in low (20-39), so a dusted address is shown, not alerted on (suspiciousFrom 40), and any real finding
  // about it still outranks the dust.
  dustMaxPoints: 25,
};
