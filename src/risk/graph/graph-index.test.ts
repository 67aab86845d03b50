// The index's hop distances and neighbourhood figures, against a plain Map-based breadth-first search on random
// graphs, and on a hand-made one.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { Rng } from "../../platform/rng.ts";
import { indexGraph } from "./graph-index.ts";
import type { TxGraph } from "./types.ts";

function referenceDistances(graph: TxGraph, start: string): Map<string, number> {
  const neighbours = new Map<string, Set<string>>();
  for (const e of graph.edges) {
    for (const [a, b] of [
      [e.from, e.to],
      [e.to, e.from],
    ] as const) {
      const set = neighbours.get(a) ?? new Set<string>();
      set.add(b);
      neighbours.set(a, set);
    }
  }
  const dist = new Map([[start, 0]]);
  let frontier = [start];
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const a of frontier) {
      for (const b of neighbours.get(a) ?? []) {
        if (dist.has(b)) continue;
        dist.set(b, d);
        next.push(b);
      }
    }
    frontier = next;
  }
  return dist;
}

function randomGraph(seed: number): TxGraph {
  const rng = new Rng(seed);
  const g = new GraphBuilder(3);
  const names = Array.from({ length: 60 }, (_, i) => g.node(`n${i}`));
  for (let k = 0; k < 90; k++) g.send(rng.pick(names), rng.pick(names), rng.int(1, 1000), T0 + k * DAY);
  return g.build([names[0] as string, names[1] as string, g.node("isolated")]);
}

describe("graph index distances", () => {
  it("match a plain breadth-first search, and count each neighbourhood's nodes and edges", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const graph = randomGraph(seed);
      const index = indexGraph(graph);
      for (const root of index.roots) {
        const expected = referenceDistances(graph, root);
        const actual = index.distancesFrom(root);
        expect(new Map(actual)).toEqual(expected);
        expect(actual.size).toBe(expected.size);
        for (const [address, d] of expected) expect(actual.get(address)).toBe(d);
        expect(actual.get(addr("nowhere"))).toBeUndefined();
        for (const hops of [0, 1, 2, 3]) {
          const near = new Set([...expected].filter(([, d]) => d <= hops).map(([a]) => a));
          const edges = index.edges.filter((e) => near.has(e.from) && near.has(e.to)).length;
          expect(index.reach(root, hops)).toEqual({ nodes: near.size, edges });
        }
      }
    }
  });

  it("give an address without edges itself alone", () => {
    const g = new GraphBuilder(2);
    const lone = g.node("lone");
    g.send(g.node("a"), g.node("b"), 10, T0);
    const index = indexGraph(g.build([lone]));
    expect([...index.distancesFrom(lone)]).toEqual([[lone, 0]]);
    expect(index.reach(lone, 2)).toEqual({ nodes: 1, edges: 0 });
  });
});
