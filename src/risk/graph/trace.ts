// Tracing funds between a root and a set of target addresses (e.g. everything labelled `mixer` or `sanctioned`):
// for each target, the fewest hops at which funds can have gone from the root to it (outgoing) or come from it to
// the root (incoming), along time-respecting paths (each transfer no earlier than the one before it) through
// addresses that may be traced through; and the transfers on those shortest paths, as evidence.
//
// Layered, never exponential: with K hops and E edges the work is O(K·E) per group of targets.
import { compareEdges, type GraphIndex } from "./graph-index.ts";
import type { GraphEdge } from "./types.ts";

export type Direction = "incoming" | "outgoing";

export interface TraceOptions {
  maxHops: number;
  /** each transfer of a path no earlier than the previous one */
  timeRespecting: boolean;
  /** whether funds may be traced through an address (as an intermediary) */
  passable(address: string): boolean;
}

/** The targets first reached at one hop count, and the transfers on their shortest qualifying paths. */
export interface TraceGroup {
  direction: Direction;
  hops: number;
  /** sorted */
  targets: string[];
  /** every transfer on a qualifying path, canonical order */
  edges: GraphEdge[];
  /** the transfers of the root on those paths (first hop out, or last hop in) */
  rootEdges: GraphEdge[];
  /** the transfers of the targets on those paths */
  targetEdges: GraphEdge[];
  /** intermediaries on the paths, sorted */
  via: string[];
}

interface Walk {
  steps(address: string): readonly GraphEdge[];
  next(e: GraphEdge): string;
  back(address: string): readonly GraphEdge[];
  prev(e: GraphEdge): string;
  key(e: GraphEdge): number;
}

function walk(index: GraphIndex, direction: Direction, timeRespecting: boolean): Walk {
  const key = (e: GraphEdge) => (timeRespecting ? (direction === "outgoing" ? e.at : -e.at) : 0);
  return direction === "outgoing"
    ? { steps: index.outOf, next: (e) => e.to, back: index.inOf, prev: (e) => e.from, key }
    : { steps: index.inOf, next: (e) => e.from, back: index.outOf, prev: (e) => e.to, key };
}

/** Layer k: the addresses reachable from the root in exactly k steps, each with the earliest key of arrival. */
export type ReachLayers = Map<string, number>[];

/**
 * The fewest steps from each address to any of `targets` in `direction` (outgoing: along transfers towards them),
 * ignoring time and whether addresses may be passed through, up to `maxHops`; addresses farther are absent. A
 * lower bound of the steps a trace needs: an address of reach layer k farther than maxHops - k from every target
 * is on no path to one, and neither is anything reached only through it, so reachLayers may leave it out.
 */
export function stepsToTargets(
  index: GraphIndex,
  targets: Iterable<string>,
  direction: Direction,
  maxHops: number,
): Map<string, number> {
  const w = walk(index, direction, false);
  const steps = new Map<string, number>();
  let frontier: string[] = [];
  for (const t of targets) {
    if (steps.has(t)) continue;
    steps.set(t, 0);
    frontier.push(t);
  }
  for (let j = 1; j <= maxHops && frontier.length > 0; j++) {
    const next: string[] = [];
    for (const v of frontier) {
      for (const e of w.back(v)) {
        const u = w.prev(e);
        if (steps.has(u)) continue;
        steps.set(u, j);
        next.push(u);
      }
    }
    frontier = next;
  }
  return steps;
}

/**
 * The reach layers of a root, passing only through addresses `through` allows. Exported so that a caller tracing
 * many target sets that all end traces anyway (every labelled category of an exposure) computes them once per
 * direction, not once per set. With `toTargets` (stepsToTargets of every target the layers will serve), addresses
 * on no path to a target within the hops left are left out: in a graph of 50,000 addresses, most of a root's
 * reach is hub counterparties that lead nowhere labelled.
 */
export function reachLayers(
  index: GraphIndex,
  root: string,
  direction: Direction,
  options: TraceOptions,
  through: (a: string) => boolean = (a) => a !== root && options.passable(a),
  toTargets?: ReadonlyMap<string, number>,
): ReachLayers {
  const w = walk(index, direction, options.timeRespecting);
  const A: ReachLayers = [new Map([[root, Number.NEGATIVE_INFINITY]])];
  for (let k = 1; k <= options.maxHops; k++) {
    const layer = new Map<string, number>();
    const left = options.maxHops - k;
    for (const [u, t] of A[k - 1] as Map<string, number>) {
      if (k > 1 && !through(u)) continue;
      for (const e of w.steps(u)) {
        const v = w.next(e);
        if (v === root || v === u || w.key(e) < t) continue;
        if (toTargets && !((toTargets.get(v) ?? Number.POSITIVE_INFINITY) <= left)) continue;
        const seen = layer.get(v);
        if (seen === undefined || w.key(e) < seen) layer.set(v, w.key(e));
      }
    }
    A.push(layer);
    if (layer.size === 0) break;
  }
  return A;
}

/**
 * `shared`: layers from reachLayers with the default `through`, valid here only when no target may be passed
 * through (then excluding the targets changes nothing); the caller checks that.
 */
export function trace(
  index: GraphIndex,
  root: string,
  targets: ReadonlySet<string>,
  direction: Direction,
  options: TraceOptions,
  shared?: ReachLayers,
): TraceGroup[] {
  if (targets.size === 0 || options.maxHops < 1) return [];
  const w = walk(index, direction, options.timeRespecting);
  const through = (a: string) => a !== root && !targets.has(a) && options.passable(a);
  const A = shared ?? reachLayers(index, root, direction, options, through);
  const minHops = new Map<string, number>();
  // From whichever side is smaller: the shared layers of a big graph hold 10,000s of addresses, a category a few.
  let reached = 0;
  for (let k = 1; k < A.length; k++) reached += (A[k] as Map<string, number>).size;
  if (targets.size < reached) {
    for (const t of targets) {
      for (let k = 1; k < A.length; k++) {
        if ((A[k] as Map<string, number>).has(t)) {
          minHops.set(t, k);
          break;
        }
      }
    }
  } else {
    for (let k = 1; k < A.length; k++) {
      for (const v of (A[k] as Map<string, number>).keys())
        if (targets.has(v) && !minHops.has(v)) minHops.set(v, k);
    }
  }

  const groups: TraceGroup[] = [];
  for (let k = 1; k < A.length; k++) {
    const group = [...minHops].filter(([, h]) => h === k).map(([t]) => t);
    if (group.length === 0) continue;
    groups.push(pathsOf(k, group.sort(), A, w, through, direction));
  }
  return groups;
}

function pathsOf(
  k: number,
  targets: string[],
  A: Map<string, number>[],
  w: Walk,
  through: (a: string) => boolean,
  direction: Direction,
): TraceGroup {
  // B[j]: addresses from which a target is reachable in exactly j more steps, with the latest key of the first.
  // Only those the root reaches in k - j steps (or k - j - 1: a self-transfer there) can be on a path, so B keeps
  // no other: walking back from a busy target (an exchange) would otherwise visit most of a multi-root graph once
  // per root. Exact: an address the root does not reach at that step is left out of A only because no transfer
  // into it is late enough, and then no transfer out of it can continue a time-respecting path either.
  const onPath = (u: string, j: number) =>
    (A[k - j] as Map<string, number>).has(u) || (A[k - j - 1] as Map<string, number>).has(u);
  const B: Map<string, number>[] = [new Map(targets.map((t) => [t, Number.POSITIVE_INFINITY]))];
  for (let j = 1; j < k; j++) {
    const layer = new Map<string, number>();
    for (const [v, t] of B[j - 1] as Map<string, number>) {
      for (const e of w.back(v)) {
        const u = w.prev(e);
        if (!through(u) || w.key(e) > t || !onPath(u, j)) continue;
        const seen = layer.get(u);
        if (seen === undefined || w.key(e) > seen) layer.set(u, w.key(e));
      }
    }
    B.push(layer);
  }
  const edges = new Map<string, GraphEdge>();
  const rootEdges = new Map<string, GraphEdge>();
  const targetEdges = new Map<string, GraphEdge>();
  const via = new Set<string>();
  for (let i = 1; i <= k; i++) {
    const ahead = B[k - i] as Map<string, number>;
    // Past the root, an address with a transfer on a path is one B holds k - i + 1 steps from a target: walk the
    // smaller of the two sets.
    const reached = A[i - 1] as Map<string, number>;
    const leading = i > 1 ? (B[k - i + 1] as Map<string, number>) : undefined;
    const smaller = leading && leading.size < reached.size ? leading : reached;
    for (const u of smaller.keys()) {
      const t = reached.get(u);
      if (t === undefined || (i > 1 && (!through(u) || (leading && !leading.has(u))))) continue;
      for (const e of w.steps(u)) {
        const v = w.next(e);
        const latest = ahead.get(v);
        if (latest === undefined || w.key(e) < t || w.key(e) > latest) continue;
        if (i < k && !through(v)) continue;
        edges.set(e.id, e);
        if (i === 1) rootEdges.set(e.id, e);
        if (i === k) targetEdges.set(e.id, e);
        if (i < k) via.add(v);
      }
    }
  }
  const order = (m: Map<string, GraphEdge>) => [...m.values()].sort(compareEdges);
  return {
    direction,
    hops: k,
    targets,
    edges: order(edges),
    rootEdges: order(rootEdges),
    targetEdges: order(targetEdges),
    via: [...via].sort(),
  };
}
