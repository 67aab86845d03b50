// The scoring model's parameters and version. Every result records SCORING_MODEL_VERSION and a fingerprint of the
// configuration it was computed with, so that a stored score can always be explained and reproduced.
import type { Severity } from "../findings.ts";

/**
 * Bump when a rule, a default or a weight changes. 1.1.0 (found by the detection benchmark, docs/eval.md): no
 * points for a finding the address has no part in (nearbyPatternFactor 0); round tripping searches the roots' loops
 * first with a per-origin budget, and never through DeFi addresses.
 */
export const SCORING_MODEL_VERSION = "vigia-risk-1.1.0";

export interface ScoringParams {
  /** points of an exposure to a category at 1 hop and 100% share (indirect ones decay from there) */
  categoryWeights: Record<string, number>;
  /** direct (1 hop) exposure to these makes the score at least `directFloor` (patterns.md: sanctioned, illicit) */
  floorCategories: string[];
  directFloor: number;
  /** an indirect exposure's points are multiplied by this for every hop beyond the first */
  hopDecay: number;
  /** share factor = minShareFactor + (1 - minShareFactor) * share: a small share still counts, a full one fully */
  minShareFactor: number;
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
}

export const DEFAULT_SCORING_PARAMS: ScoringParams = {
  categoryWeights: {
    sanctioned: 100,
    illicit: 100,
    blocklisted: 70,
    sanctioned_historical: 45,
    gambling: 10,
    // Mixer exposure is priced by the mixing pattern (critical severity), not twice.
    mixer: 0,
  },
  floorCategories: ["sanctioned", "illicit"],
  directFloor: 80,
  hopDecay: 0.7,
  minShareFactor: 0.5,
  severityPoints: { critical: 85, high: 65, medium: 50, low: 30 },
  nextPatternWeight: 0.5,
  indirectPatternFactor: 0.3,
  nearbyPatternFactor: 0,
  exchangeDiscount: 0.8,
  suspiciousFrom: 40,
};
