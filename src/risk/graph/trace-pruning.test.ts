// Shared reach layers pruned to what can lead to a target (trace.ts stepsToTargets) give exactly the traces of
// unpruned ones: on random graphs, for every root, direction, hop limit and random set of targets that end traces.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { Rng } from "../../platform/rng.ts";
import { indexGraph } from "./graph-index.ts";
import { reachLayers, stepsToTargets, trace } from "./trace.ts";

function randomCase(seed: number) {
  const rng = new Rng(seed);
  const g = new GraphBuilder(3);
  const names = Array.from({ length: 50 }, (_, i) => `n${i}`); // the builder takes names
  // Random times, so that time-respecting paths are sometimes cut.
  for (let k = 0; k < 110; k++)
    g.send(rng.pick(names), rng.pick(names), rng.int(1, 1000), T0 + rng.int(0, 30) * DAY);
  const graph = g.build(names.slice(0, 4));
  const targets = new Set(names.filter(() => rng.next() < 0.1).map(addr));
  return { graph, targets };
}

describe("pruned reach layers", () => {
  it("trace exactly as unpruned ones", () => {
    let groups = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const { graph, targets } = randomCase(seed);
      const index = indexGraph(graph);
      for (const maxHops of [1, 2, 3, 4]) {
        for (const timeRespecting of [true, false]) {
          // Targets end traces, as labelled addresses do in an exposure (the case the shared layers serve).
          const options = { maxHops, timeRespecting, passable: (a: string) => !targets.has(a) };
          for (const direction of ["incoming", "outgoing"] as const) {
            const toTargets = stepsToTargets(index, targets, direction, maxHops);
            for (const root of index.roots) {
              const full = reachLayers(index, root, direction, options);
              const pruned = reachLayers(index, root, direction, options, undefined, toTargets);
              const expected = trace(index, root, targets, direction, options, full);
              expect(trace(index, root, targets, direction, options, pruned)).toEqual(expected);
              expect(trace(index, root, targets, direction, options)).toEqual(expected);
              groups += expected.length;
            }
          }
        }
      }
    }
    expect(groups).toBeGreaterThan(100); // the cases do reach targets
  });
});
