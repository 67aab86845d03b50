// The Bitcoin clustering eval (eval/clusters) on a small world: every implementation's rounds are generated and
// found, the gated clustering merges far fewer owners together than the baseline rule and common input alone, and
// the same seed gives the same report.
import { describe, expect, it } from "vitest";
import { scoreClusters } from "../../eval/clusters/score.ts";
import { clusterWorld } from "../../eval/clusters/world.ts";

describe("Bitcoin clustering eval", () => {
  const report = scoreClusters(clusterWorld({ seed: 5, owners: 150, rounds: 8 }));

  it("generates rounds of every implementation and finds them", () => {
    for (const kind of report.kinds) {
      expect(kind.rounds, kind.kind).toBeGreaterThan(0);
      expect(kind.recall, kind.kind).toBeGreaterThanOrEqual(0.75);
    }
  });

  it("merges owners together far less than the baseline and common input alone", () => {
    const [ours, baseline, none] = report.clustering;
    expect(baseline?.crossOwner).toBeGreaterThan(5);
    expect(none?.crossOwner).toBeGreaterThanOrEqual(baseline?.crossOwner ?? 0);
    expect(ours?.crossOwner).toBeLessThanOrEqual(1);
    expect(ours?.worstOwners).toBeLessThan(baseline?.worstOwners ?? 0);
  });

  it("is deterministic", () => {
    expect(scoreClusters(clusterWorld({ seed: 5, owners: 150, rounds: 8 }))).toEqual(report);
  });
});
