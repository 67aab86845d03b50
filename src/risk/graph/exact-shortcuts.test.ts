// The shortcuts that keep the risk core fast on big multi-root graphs change no answer:
// - pathsOf (trace.ts) walks back from the targets only through addresses the root reaches at the matching step,
//   and forward only from addresses that lead to a target;
// - HaircutTaint (taint.ts) answers 0 without building sums for an address no target reaches within the hops.
// Each is compared, on random graphs (self-transfers, same-time transfers, both time modes), with the plain
// definition written out here.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { Rng } from "../../platform/rng.ts";
import { compareEdges, type GraphIndex, indexGraph } from "./graph-index.ts";
import { HaircutTaint } from "./taint.ts";
import { type Direction, reachLayers, trace } from "./trace.ts";
import type { GraphEdge } from "./types.ts";

function randomCase(seed: number) {
  const rng = new Rng(seed);
  const g = new GraphBuilder(4);
  const names = Array.from({ length: 40 }, (_, i) => `n${i}`);
  for (let k = 0; k < 130; k++) {
    const from = rng.pick(names);
    // One transfer in 20 to itself, and times on a coarse grid so that some share a time.
    const to = rng.next() < 0.05 ? from : rng.pick(names);
    g.send(from, to, rng.int(1, 1000), T0 + rng.int(0, 20) * DAY);
  }
  const graph = g.build(names.slice(0, 4));
  const targets = new Set(names.filter(() => rng.next() < 0.12).map(addr));
  const blocked = new Set(names.filter(() => rng.next() < 0.1).map(addr));
  return { graph, targets, blocked };
}

/** The groups of trace() by the plain definition: every address walked back from the targets, every edge tried. */
function plainTrace(
  index: GraphIndex,
  root: string,
  targets: ReadonlySet<string>,
  direction: Direction,
  options: { maxHops: number; timeRespecting: boolean; passable(a: string): boolean },
) {
  const out = direction === "outgoing";
  const steps = (a: string) => (out ? index.outOf(a) : index.inOf(a));
  const back = (a: string) => (out ? index.inOf(a) : index.outOf(a));
  const next = (e: GraphEdge) => (out ? e.to : e.from);
  const prev = (e: GraphEdge) => (out ? e.from : e.to);
  const key = (e: GraphEdge) => (options.timeRespecting ? (out ? e.at : -e.at) : 0);
  const through = (a: string) => a !== root && !targets.has(a) && options.passable(a);
  const A = reachLayers(index, root, direction, options, through);
  const minHops = new Map<string, number>();
  for (let k = 1; k < A.length; k++)
    for (const v of (A[k] as Map<string, number>).keys())
      if (targets.has(v) && !minHops.has(v)) minHops.set(v, k);
  const groups = [];
  for (let k = 1; k < A.length; k++) {
    const group = [...minHops].filter(([, h]) => h === k).map(([t]) => t);
    if (group.length === 0) continue;
    const B: Map<string, number>[] = [new Map(group.map((t) => [t, Number.POSITIVE_INFINITY]))];
    for (let j = 1; j < k; j++) {
      const layer = new Map<string, number>();
      for (const [v, t] of B[j - 1] as Map<string, number>)
        for (const e of back(v)) {
          const u = prev(e);
          if (!through(u) || key(e) > t) continue;
          const seen = layer.get(u);
          if (seen === undefined || key(e) > seen) layer.set(u, key(e));
        }
      B.push(layer);
    }
    const edges = new Map<string, GraphEdge>();
    for (let i = 1; i <= k; i++) {
      const ahead = B[k - i] as Map<string, number>;
      for (const [u, t] of A[i - 1] as Map<string, number>) {
        if (i > 1 && !through(u)) continue;
        for (const e of steps(u)) {
          const v = next(e);
          const latest = ahead.get(v);
          if (latest === undefined || key(e) < t || key(e) > latest) continue;
          if (i < k && !through(v)) continue;
          edges.set(e.id, e);
        }
      }
    }
    groups.push({ hops: k, targets: group.sort(), edges: [...edges.values()].sort(compareEdges) });
  }
  return groups;
}

/** HaircutTaint's fraction by its definition, with no shortcut and no memo. */
function plainFraction(
  index: GraphIndex,
  targets: ReadonlySet<string>,
  direction: Direction,
  passable: (a: string) => boolean,
  address: string,
  at: number,
  hops: number,
): number {
  if (targets.has(address)) return 1;
  if (hops <= 0 || !passable(address)) return 0;
  const incoming = direction === "incoming";
  const window = 7 * DAY;
  let total = 0;
  let tainted = 0;
  for (const e of incoming ? index.inOf(address) : index.outOf(address)) {
    if (e.from === e.to || e.usd === null || e.usd <= 0) continue;
    const inside = incoming ? e.at >= at - window && e.at <= at : e.at >= at && e.at <= at + window;
    if (!inside) continue;
    total += e.usd;
    tainted +=
      e.usd * plainFraction(index, targets, direction, passable, incoming ? e.from : e.to, e.at, hops - 1);
  }
  return total <= 0 ? 0 : Math.min(1, tainted / total);
}

describe("the risk core's shortcuts", () => {
  it("trace the same paths as the plain definition", () => {
    let groups = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { graph, targets, blocked } = randomCase(seed);
      const index = indexGraph(graph);
      for (const maxHops of [1, 2, 3, 4]) {
        for (const timeRespecting of [true, false]) {
          const options = { maxHops, timeRespecting, passable: (a: string) => !blocked.has(a) };
          for (const direction of ["incoming", "outgoing"] as const) {
            for (const root of index.roots) {
              const expected = plainTrace(index, root, targets, direction, options);
              const actual = trace(index, root, targets, direction, options).map((g) => ({
                hops: g.hops,
                targets: g.targets,
                edges: g.edges,
              }));
              expect(actual).toEqual(expected);
              groups += expected.length;
            }
          }
        }
      }
    }
    expect(groups).toBeGreaterThan(200); // the cases do reach targets, at several hop counts
  });

  it("give the same haircut taint as the plain definition", () => {
    let nonZero = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const { graph, targets, blocked } = randomCase(seed);
      const index = indexGraph(graph);
      const passable = (a: string) => !blocked.has(a);
      for (const direction of ["incoming", "outgoing"] as const) {
        const taint = new HaircutTaint(index, targets, direction, {
          windowSeconds: 7 * DAY,
          timeRespecting: true,
          passable,
        });
        for (const hops of [3, 2, 1, 0]) {
          for (const node of index.nodes) {
            for (const day of [0, 5, 10, 20]) {
              const at = T0 + day * DAY;
              const expected = plainFraction(index, targets, direction, passable, node.address, at, hops);
              expect(taint.fraction(node.address, at, hops)).toBeCloseTo(expected, 12);
              if (expected > 0 && !targets.has(node.address)) nonZero++;
            }
          }
        }
      }
    }
    expect(nonZero).toBeGreaterThan(100); // intermediaries do carry taint in these cases
  });
});
