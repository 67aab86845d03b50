// The UTXO pattern eval (eval/utxo-patterns) on one small world: every variant is generated and lands in the store,
// each case's address is scanned, and the figures add up: the positives of each pattern are found, no near miss is
// read as its pattern, salaries are not structuring, and the ordinary users read as a pattern are counted by kind
// (busy spenders at their change address are the peel chain's look-alikes). PGlite, or PostgreSQL with DATABASE_URL.
import { describe, expect, it } from "vitest";
import { scanWorld } from "../../eval/utxo-patterns/run.ts";
import { scoreUtxoPatterns } from "../../eval/utxo-patterns/score.ts";

describe("the UTXO pattern eval", () => {
  it("scans a small world's cases and scores them", async () => {
    const run = await scanWorld(11, 40, 1);
    const report = scoreUtxoPatterns([run]);
    expect(run.scanned.size).toBe(new Set(run.cases.map((c) => c.subject)).size);
    expect(report.variants.map((v) => `${v.pattern}: ${v.variant}`).sort()).toEqual(
      [
        "exchange_hopping: after 4-6 days",
        "exchange_hopping: back at the same exchange",
        "exchange_hopping: direct, 1-60 hours",
        "exchange_hopping: through an own wallet",
        "peel_chain: 3-4 hops",
        "peel_chain: 5-7 hops",
        "peel_chain: 8-10 hops",
        "peel_chain: 8-12 days apart",
        "peel_chain: peels of 25-45 %",
        "peel_chain: two hops",
        "structuring: 60-80 % of the threshold",
        "structuring: over 10-14 days",
        "structuring: received from 3-6 payers",
        "structuring: salaries",
        "structuring: sent from one address",
        "structuring: two payments only",
      ].sort(),
    );
    for (const p of report.patterns) {
      expect(p.found, p.pattern).toBeGreaterThan(0);
      expect(p.nearMissFalseAlarms, p.pattern).toBe(0);
    }
    expect(report.variants.find((v) => v.variant === "salaries")?.hits).toBe(0);
    expect(report.backgroundByKind.map((k) => k.kind).sort()).toEqual(
      ["busy", "busy, at its first change", "ordinary", "reuser"].sort(),
    );
  }, 120_000);
});
