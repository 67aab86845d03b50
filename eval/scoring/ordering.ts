// Whether scores fall with the distance from a sanctioned address: over every pair of a case one hop away and one
// two hops away (then two and three, then three hops and a clean ordinary user, one farther than three hops from
// any risky address), the share of pairs where the nearer one scores strictly higher. Pure. Target: at least 0.95
// for each step, and every case one hop away critical.
import { lowerBound } from "../../src/platform/sorted.ts";
import type { RiskLevel } from "../../src/risk/index.ts";

export const ORDERING_TARGET = 0.95;

export interface OrderingStep {
  /** "1 > 2", "2 > 3", "3 > clean" */
  step: string;
  pairs: number;
  /** share of pairs in the right order */
  share: number;
}

export interface Ordering {
  steps: OrderingStep[];
  /** cases one hop away, and how many of them are critical */
  oneHop: number;
  oneHopCritical: number;
  passed: boolean;
}

export function pairwiseOrdering(
  hops: readonly (readonly { score: number; level: RiskLevel }[])[],
  clean: readonly number[],
): Ordering {
  const groups = [...hops.map((g) => g.map((x) => x.score)), [...clean]];
  const names = ["1", "2", "3", "clean"];
  const steps: OrderingStep[] = [];
  for (let i = 0; i + 1 < groups.length; i++) {
    const near = groups[i] as number[];
    const far = groups[i + 1] as number[];
    const sortedFar = [...far].sort((a, b) => a - b);
    let right = 0;
    // The far values strictly below s: the index of the first one at or above it.
    for (const s of near) right += lowerBound(sortedFar, s);
    const pairs = near.length * far.length;
    steps.push({ step: `${names[i]} > ${names[i + 1]}`, pairs, share: pairs ? right / pairs : 1 });
  }
  const oneHop = hops[0] ?? [];
  const oneHopCritical = oneHop.filter((x) => x.level === "critical").length;
  return {
    steps,
    oneHop: oneHop.length,
    oneHopCritical,
    passed: steps.every((s) => s.pairs > 0 && s.share >= ORDERING_TARGET) && oneHopCritical === oneHop.length,
  };
}
