// The eval's scoring rules (eval/scoring/score.ts) on hand-made cases and results: a positive reported is a TP and
// missed an FN; the pattern reported on its own near miss is an FP, and so is any pattern reported on a background
// user (a negative for all seven); other patterns reported on a pattern's cases are listed, not scored; failed
// scans and the sanctions ordering decide the overall result.
import { describe, expect, it } from "vitest";
import { type ScanOutcome, scoreBenchmark } from "../../eval/scoring/score.ts";
import type { ExportCase } from "../../eval/world/etl.ts";
import { PATTERNS } from "../../src/risk/findings.ts";

const c = (id: string, pattern: string, positive: boolean, subject: string, variant = "v"): ExportCase => ({
  id,
  pattern,
  positive,
  subject,
  variant,
  note: "",
});
const done = (patterns: string[], riskScore = 10): ScanOutcome => ({
  status: "completed",
  riskScore,
  riskLevel: riskScore >= 80 ? "critical" : riskScore >= 60 ? "high" : riskScore >= 40 ? "medium" : "minimal",
  patterns,
});

const sanctions = (chain: string, subjects: [string, string, string]) =>
  subjects.map((s, i) => c(`${chain}-d${i + 1}`, "sanctions_exposure", true, s));

describe("eval scoring", () => {
  const cases: ExportCase[] = [
    c("mixing-pos-0", "mixing", true, "0xa1", "deposit"),
    c("mixing-pos-1", "mixing", true, "0xa2", "deposit"),
    c("mixing-neg-0", "mixing", false, "0xa3", "same-block"),
    c("wash-pos-0", "wash_trading", true, "0xb1"),
    c("background-0", "background", false, "0xc1", "neighbour"),
    c("background-1", "background", false, "0xc2", "random"),
    ...sanctions("sanctions-0", ["0xd1", "0xd2", "0xd3"]),
  ];
  const results = new Map<string, ScanOutcome>([
    ["0xa1", done(["mixing"])],
    ["0xa2", done([])],
    ["0xa3", done(["mixing", "structuring"])],
    ["0xb1", done(["wash_trading", "round_tripping"])],
    ["0xc1", done(["round_tripping", "structuring"])],
    ["0xc2", done([])],
    ["0xd1", done([], 100)],
    ["0xd2", done([], 70)],
    ["0xd3", done([], 49)],
  ]);
  const r = scoreBenchmark(cases, results);

  it("counts positives, near misses and background users per pattern", () => {
    expect(r.quality.mixing).toMatchObject({
      positives: 2,
      nearMisses: 1,
      background: 2,
      tp: 1,
      fn: 1,
      fpNearMiss: 1,
      fpBackground: 0,
      fp: 1,
      tn: 2,
      precision: 0.5,
      recall: 0.5,
    });
    // background users are negatives of every pattern
    expect(r.quality.round_tripping).toMatchObject({
      tp: 0,
      fn: 0,
      fpBackground: 1,
      fp: 1,
      tn: 1,
      precision: 0,
    });
    expect(r.quality.structuring).toMatchObject({ fpBackground: 1, tn: 1 });
    for (const p of PATTERNS) expect(r.quality[p].background, p).toBe(2);
    expect(r.quality.wash_trading).toMatchObject({ tp: 1, precision: 1, recall: 1, passed: true });
    expect(r.missed).toEqual(["mixing-pos-1"]);
    expect(r.falseAlarms).toEqual([
      "mixing-neg-0",
      "background-0:structuring",
      "background-0:round_tripping",
    ]);
  });

  it("lists other patterns reported on a pattern's cases without scoring them", () => {
    expect(r.crossReports).toEqual({
      "mixing near-miss": { structuring: 1 },
      "wash_trading positive": { round_tripping: 1 },
    });
    // the wash trade's round trip is not a false positive of round_tripping
    expect(r.quality.round_tripping.fpNearMiss).toBe(0);
  });

  it("reports each variant's share", () => {
    expect(r.variants).toContainEqual({
      pattern: "mixing",
      positive: true,
      variant: "deposit",
      cases: 2,
      reported: 1,
      aboveLow: 0,
    });
    expect(r.variants).toContainEqual({
      pattern: "background",
      positive: false,
      variant: "neighbour",
      cases: 1,
      reported: 1,
      aboveLow: 0, // scored 10: minimal, whatever was reported
    });
  });

  it("passes only when every pattern meets its targets, the ordering holds and nothing failed", () => {
    expect(r.orderingPassed).toBe(true);
    expect(r.distances.map((d) => d.meanScore)).toEqual([100, 70, 49]);
    expect(r.passed).toBe(false); // mixing: precision and recall 0.5

    const good = scoreBenchmark(
      cases.filter((x) => x.pattern !== "mixing" && x.id !== "background-0"),
      results,
    );
    expect(good.passed).toBe(true);

    const flat = new Map(results).set("0xd3", done([], 70));
    expect(scoreBenchmark(cases, flat)).toMatchObject({ orderingPassed: false, strictScores: 0 });

    const failed = new Map(results).set("0xc2", {
      ...done([]),
      status: "failed",
      error: "Data source failed",
    });
    const withFailure = scoreBenchmark(
      cases.filter((x) => x.pattern !== "mixing"),
      failed,
    );
    expect(withFailure.failed).toEqual([{ id: "background-1", error: "Data source failed" }]);
    expect(withFailure.passed).toBe(false);
  });

  it("scores dusted users in a false-alert row of their own, listing the patterns reported on them", () => {
    const base = cases.filter((x) => x.pattern !== "mixing" && x.id !== "background-0");
    const dusted = [
      c("dusted-0", "dusted", false, "0xe1", "sanctioned"),
      c("dusted-1", "dusted", false, "0xe2", "mixer"),
    ];
    const quiet = new Map(results).set("0xe1", done([], 25)).set("0xe2", done([], 10));
    const ok = scoreBenchmark([...base, ...dusted], quiet);
    expect(ok.falseAlerts.at(-1)).toMatchObject({
      distance: "dusted",
      users: 2,
      mediumOrAbove: 0,
      passed: true,
    });
    expect(ok.passed).toBe(true);
    // not pattern cases: nothing reported on them counts as a false positive of the pattern
    const loud = new Map(quiet).set("0xe2", done(["mixing"], 76));
    const alerted = scoreBenchmark([...base, ...dusted], loud);
    expect(alerted.falseAlerts.at(-1)).toMatchObject({
      mediumOrAbove: 1,
      alerted: ["dusted-1"],
      passed: false,
    });
    expect(alerted.dustedPatterns).toEqual({ mixing: 1 });
    expect(alerted.quality.mixing.fp).toBe(0);
    expect(alerted.passed).toBe(false);
    // without dusted cases, no such row
    expect(scoreBenchmark(base, quiet).falseAlerts.map((row) => row.distance)).not.toContain("dusted");
  });
});
