// The eval's measures beyond precision and recall, on hand-made figures: false alerts on ordinary users by their
// distance to the risky side and on dusted users (and their targets), the pairwise ordering of scores by hops down to clean users, and
// the deposit-address inference against the truth.
import { describe, expect, it } from "vitest";
import { scoreDeposits } from "../../eval/scoring/deposits.ts";
import { bucketOf, falseAlerts } from "../../eval/scoring/false-alerts.ts";
import { pairwiseOrdering } from "../../eval/scoring/ordering.ts";
import type { RiskLevel } from "../../src/risk/scoring/levels.ts";

describe("false alerts by distance", () => {
  const users = (distance: number | undefined, levels: RiskLevel[]) =>
    levels.map((level, i) => ({ id: `u${distance}-${i}`, distance, level }));

  it("buckets distances, counts medium-or-above and critical, and applies each distance's target", () => {
    expect([bucketOf(1), bucketOf(2), bucketOf(3), bucketOf(4), bucketOf(undefined)]).toEqual([
      "1",
      "2",
      "3",
      ">3",
      ">3",
    ]);
    const ten = (alerts: RiskLevel[]) => [...alerts, ...Array(10 - alerts.length).fill("low")] as RiskLevel[];
    const rows = falseAlerts([
      ...users(1, ["critical", "critical"]),
      ...users(2, ten(["medium"])), // 10 %: at the target
      ...users(3, ten(["medium"])), // 10 %: over 2 %
      ...users(undefined, ["minimal", "low"]),
    ]);
    expect(rows.map((r) => [r.distance, r.users, r.mediumOrAbove, r.critical, r.passed])).toEqual([
      ["1", 2, 2, 2, true],
      ["2", 10, 1, 0, true],
      ["3", 10, 1, 0, false],
      [">3", 2, 0, 0, true],
    ]);
    expect(falseAlerts(users(2, ten(["critical"])))[1]?.passed).toBe(false); // 10 % critical: over 2 %
    expect(falseAlerts(users(7, ["medium"]))[3]).toMatchObject({ passed: false, alerted: ["u7-0"] });
  });

  it("adds a row for dusted users when there are any, where none may be medium or above", () => {
    const background = users(undefined, ["minimal"]);
    expect(falseAlerts(background).map((r) => r.distance)).toEqual(["1", "2", "3", ">3"]);
    const dusted = (levels: RiskLevel[]) => levels.map((level, i) => ({ id: `dusted-${i}`, level }));
    const ok = falseAlerts(background, dusted(["low", "low", "minimal"])).at(-1);
    expect(ok).toMatchObject({ distance: "dusted", users: 3, mediumOrAbove: 0, passed: true });
    const one = falseAlerts(background, dusted(["low", "medium", ...Array(98).fill("minimal")])).at(-1);
    expect(one).toMatchObject({ distance: "dusted", users: 100, mediumOrAbove: 1, passed: false });
    expect(one?.alerted).toEqual(["dusted-1"]);
  });
});

describe("pairwise ordering", () => {
  const at = (scores: number[], level: RiskLevel = "high") => scores.map((score) => ({ score, level }));

  it("counts the pairs in the right order at each step, and wants every case one hop away critical", () => {
    const o = pairwiseOrdering([at([100, 90], "critical"), at([85, 70]), at([60, 50])], [10, 20, 55]);
    expect(o.steps).toEqual([
      { step: "1 > 2", pairs: 4, share: 1 },
      { step: "2 > 3", pairs: 4, share: 1 },
      { step: "3 > clean", pairs: 6, share: 5 / 6 }, // 50 is not above 55
    ]);
    expect(o.passed).toBe(false);
    expect(pairwiseOrdering([at([100], "critical"), at([70]), at([50])], [10]).passed).toBe(true);
    const notCritical = pairwiseOrdering([at([79], "high"), at([70]), at([50])], [10]);
    expect(notCritical).toMatchObject({ oneHop: 1, oneHopCritical: 0, passed: false });
  });
});

describe("deposit inference", () => {
  it("counts an address right only with its exchange, and says which were no deposit address at all", () => {
    const truth = [
      { address: "0xa", exchange: "Binance" },
      { address: "0xb", exchange: "Bitso" },
      { address: "0xc", exchange: "Bitso" },
      { address: "0xd", exchange: "Buda" },
    ];
    const d = scoreDeposits(truth, [
      { address: "0xA", exchange: "binance" },
      { address: "0xb", exchange: "Binance" },
      { address: "0xc", exchange: "Bitso" },
      { address: "0xe", exchange: "Bitso" },
    ]);
    expect(d).toMatchObject({ truth: 4, inferred: 4, right: 2, wrongExchange: 1, notDeposits: ["0xe"] });
    expect([d.precision, d.recall, d.passed]).toEqual([0.5, 0.5, false]);
    expect(scoreDeposits(truth, truth).passed).toBe(true);
  });
});
