// Detection quality on the scenario library's benchmark world (seed 7, 30 cases and 30 false friends per
// pattern, 300 users, 3,000 background transfers): precision >= 0.90 and recall >= 0.85 for every pattern
// (attribution rule in evaluate.ts), and strictly falling scores and levels at 1, 2 and 3 hops from a sanctioned
// address. The devnet's demo world: every injected pattern found.
import { beforeAll, describe, expect, it } from "vitest";
import { benchmarkWorld, devnetWorld } from "../../scenarios/index.ts";
import { PATTERNS } from "../findings.ts";
import { compareLevels } from "../scoring/levels.ts";
import { type Evaluation, evaluateWorld } from "./evaluate.ts";

function table(e: Evaluation): string {
  return PATTERNS.map((p) => {
    const q = e.byActors[p];
    const w = e.byWallets[p];
    return `${p.padEnd(21)} P ${q.precision.toFixed(3)} R ${q.recall.toFixed(3)} (tp ${q.tp} fp ${q.fp} fn ${q.fn} tn ${q.tn}; by wallets P ${w.precision.toFixed(3)} R ${w.recall.toFixed(3)})`;
  }).join("\n");
}

describe("scenario benchmark", () => {
  let evaluation: Evaluation;
  let ms = 0;
  beforeAll(() => {
    const started = performance.now();
    evaluation = evaluateWorld(benchmarkWorld({ seed: 7, perPattern: 30, users: 300, transfers: 3000 }));
    ms = performance.now() - started;
  });

  it("finds every pattern with precision >= 0.90 and recall >= 0.85", () => {
    console.info(`scenario benchmark (seed 7) in ${ms.toFixed(0)} ms\n${table(evaluation)}`);
    expect(evaluation.missed.map((c) => c.id)).toEqual([]);
    expect(evaluation.falseAlarms.map((c) => c.id)).toEqual([]);
    for (const p of PATTERNS) {
      for (const rule of [evaluation.byActors, evaluation.byWallets]) {
        expect(rule[p].tp + rule[p].fn, p).toBe(30);
        expect(rule[p].fp + rule[p].tn, p).toBe(30);
        expect(rule[p].precision, p).toBeGreaterThanOrEqual(0.9);
        expect(rule[p].recall, p).toBeGreaterThanOrEqual(0.85);
      }
    }
  });

  it("gives strictly lower scores and levels at 1, 2 and 3 hops from a sanctioned address", () => {
    expect(evaluation.sanctions).toHaveLength(30);
    for (const chain of evaluation.sanctions) {
      const [d1 = 0, d2 = 0, d3 = 0] = chain.scores;
      const [l1, l2, l3] = chain.levels;
      expect(d1, chain.id).toBeGreaterThan(d2);
      expect(d2, chain.id).toBeGreaterThan(d3);
      expect(l1).toBe("critical");
      expect(compareLevels(l1 ?? "minimal", l2 ?? "minimal"), chain.id).toBeGreaterThan(0);
      expect(compareLevels(l2 ?? "minimal", l3 ?? "minimal"), chain.id).toBeGreaterThan(0);
    }
    const levels = new Set(evaluation.sanctions.map((c) => c.levels.join(" > ")));
    console.info(`sanctions ordering: ${[...levels].join("; ")}`);
  });

  it("finds every pattern injected in the devnet's demo world", () => {
    const devnet = evaluateWorld(devnetWorld());
    for (const p of PATTERNS) expect(devnet.byActors[p], p).toMatchObject({ tp: 1, fn: 0 });
    expect(devnet.sanctions.map((c) => c.levels)).toEqual([["critical", "high", "medium"]]);
  });
});
