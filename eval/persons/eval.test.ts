// A small seeded run of the person-screening eval (eval/persons/eval.ts) holding the targets of run.ts.
import { describe, expect, it } from "vitest";
import { ratio, runEval } from "./eval.ts";
import { failures, TARGETS } from "./run.ts";

describe("person-screening eval (small, seeded)", () => {
  const report = runEval({ seed: 3, persons: 120, decoys: 300 });
  it("meets every target", () => {
    expect(failures(report)).toEqual([]);
  });
  it("finds every exact, re-ordered, accented and upper-case name", () => {
    for (const k of ["exact", "reordered", "caps", "accents"] as const)
      expect(ratio(report.positives[k].reviewOrMatch)).toBe(TARGETS.easyRecall);
  });
  it("rules out every exact namesake with another birthdate", () => {
    const n = report.decoys["namesake-other-dob"];
    expect(n.ruledOut).toBe(n.queries);
  });
});
