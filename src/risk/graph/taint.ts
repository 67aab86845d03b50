// Haircut taint: how much of an address's money can be traced to a set of target addresses (Möser, Böhme and
// Breuker, "Towards Risk Scoring of Bitcoin Transactions", FC 2014; docs/decisions/0011). An intermediary passes
// funds on in proportion: an address that forwards what it received passes it on whole, one that pools funds from
// many sources passes on only the share that came from (or went to) the risky side. Poison taint, which marks
// everything a tainted coin touches, reaches almost everyone within a few hops and says nothing.
//
// incoming (source of funds): fraction(a, t, k) is the share of what `a` received in the `window` before time t
//   that came from a target within k hops: 1 for a target itself, 0 beyond k or for an address that ends traces
//   (a service pools its customers' funds), else the USD-weighted mean over a's receipts in the window of the
//   fraction of their senders at the time they sent.
// outgoing (destination of funds): the same forwards in time: the share of what `a` sent in the `window` after t
//   that reached a target within k hops.
//
// Transfers without a USD value weigh nothing. Each (address, k) is computed once, as prefix sums over its
// transfers in time order, and answered for any time by binary search: O(K·E log E) for a whole graph, shared by
// every root of a multi-root analysis (the fractions do not depend on the root).
import type { GraphIndex } from "./graph-index.ts";
import { stepsToTargets } from "./trace.ts";
import type { GraphEdge } from "./types.ts";

export type TaintDirection = "incoming" | "outgoing";

export interface TaintOptions {
  /** how far before (incoming) or after (outgoing) a transfer an intermediary's flows count, seconds */
  windowSeconds: number;
  /** false: an intermediary's flows count whatever their time (every flow of the address, not a window) */
  timeRespecting: boolean;
  /** whether funds may be traced through an address as an intermediary (targets need not be) */
  passable(address: string): boolean;
}

interface Sums {
  /** times of the address's transfers in the direction, ascending */
  times: number[];
  /** prefix sums: usd[i] of the first i transfers, tainted[i] the traced part of them */
  usd: Float64Array;
  tainted: Float64Array;
}

export class HaircutTaint {
  readonly #levels: Map<string, Sums>[] = [];
  /**
   * fewest steps from a target to each address in the taint's direction, ignoring time and passability, as far
   * as `#stepsHops` (the most hops asked so far: a fraction at k hops asks only fewer hops of others)
   */
  #steps: Map<string, number> | undefined;
  #stepsHops = 0;

  constructor(
    private readonly index: GraphIndex,
    private readonly targets: ReadonlySet<string>,
    readonly direction: TaintDirection,
    private readonly options: TaintOptions,
  ) {}

  /**
   * The fraction (0-1) of `address`'s money at time `at` traced from (incoming) or to (outgoing) the targets
   * within `hops` hops of it.
   */
  fraction(address: string, at: number, hops: number): number {
    if (this.targets.has(address)) return 1;
    if (hops <= 0 || !this.options.passable(address)) return 0;
    // No target within `hops` steps even ignoring time: nothing can be traced, so the fraction is exactly 0. Most
    // of a big graph is so, and this skips building its prefix sums at every hop count.
    if (!this.#steps || this.#stepsHops < hops) {
      this.#steps = stepsToTargets(this.index, this.targets, this.direction, hops);
      this.#stepsHops = hops;
    }
    if (!((this.#steps.get(address) ?? Number.POSITIVE_INFINITY) <= hops)) return 0;
    const sums = this.#sums(address, hops);
    const n = sums.times.length;
    if (n === 0) return 0;
    const window = this.options.windowSeconds;
    // incoming: receipts in [at - window, at]; outgoing: sends in [at, at + window].
    const [lo, hi] = !this.options.timeRespecting
      ? [0, n]
      : this.direction === "incoming"
        ? [lowerBound(sums.times, at - window), upperBound(sums.times, at)]
        : [lowerBound(sums.times, at), upperBound(sums.times, at + window)];
    const total = (sums.usd[hi] as number) - (sums.usd[lo] as number);
    if (total <= 0) return 0;
    return Math.min(1, ((sums.tainted[hi] as number) - (sums.tainted[lo] as number)) / total);
  }

  #sums(address: string, hops: number): Sums {
    let level = this.#levels[hops];
    if (!level) {
      level = new Map();
      this.#levels[hops] = level;
    }
    const known = level.get(address);
    if (known) return known;
    const incoming = this.direction === "incoming";
    // filter copies, so the sort may work in place
    const sorted = (incoming ? this.index.inOf(address) : this.index.outOf(address))
      .filter((e) => e.from !== e.to && e.usd !== null && e.usd > 0)
      .sort((a, b) => a.at - b.at);
    const times: number[] = new Array(sorted.length);
    const usd = new Float64Array(sorted.length + 1);
    const tainted = new Float64Array(sorted.length + 1);
    sorted.forEach((e: GraphEdge, i) => {
      const other = incoming ? e.from : e.to;
      const value = e.usd as number;
      times[i] = e.at;
      usd[i + 1] = (usd[i] as number) + value;
      tainted[i + 1] = (tainted[i] as number) + value * this.fraction(other, e.at, hops - 1);
    });
    const sums = { times, usd, tainted };
    level.set(address, sums);
    return sums;
  }
}

/** First index whose value is >= x. */
function lowerBound(values: number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
function upperBound(values: number[], x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((values[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
