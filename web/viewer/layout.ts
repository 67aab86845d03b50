// Where each node is drawn: the root in the middle and one ring per hop, so the distance from the centre is the
// distance in the money trail, which is how a compliance officer reads exposure ("two hops from a mixer").
//
// Why not a force-directed layout: it moves every node each time a layer arrives (the officer loses their place)
// and costs seconds at 5,000 nodes. This one is linear, deterministic, and never moves a ring that did not gain
// nodes. Within a ring, nodes sit at the angle of the neighbours that brought them in, so a wallet's
// counterparties fan out next to it; a ring too crowded for one circle becomes a band of several concentric
// sub-rings, filled in angular order (radius grows with the square root of the node count, not linearly).
// No DOM here: unit-tested in Node.

export interface LayoutNode {
  id: string;
  depth: number;
}

export interface Point {
  x: number;
  y: number;
}

export interface RingOptions {
  /** minimum distance between two nodes of a ring */
  spacing: number;
  /** gap between the outer edge of one hop's band and the next */
  ringGap: number;
}

export const DEFAULT_RING_OPTIONS: RingOptions = { spacing: 34, ringGap: 110 };

interface Band {
  /** node ids in angular order */
  ids: string[];
  inner: number;
  outer: number;
}

export class RingLayout {
  private readonly positions = new Map<string, Point>();
  private readonly angles = new Map<string, number>();
  private readonly bands = new Map<number, Band>();
  private readonly depths = new Map<string, number>();
  private readonly options: RingOptions;

  constructor(options: Partial<RingOptions> = {}) {
    this.options = { ...DEFAULT_RING_OPTIONS, ...options };
  }

  position(id: string): Point | undefined {
    return this.positions.get(id);
  }

  /** The box around every placed node's centre; undefined before the first. */
  bounds(): { x1: number; y1: number; x2: number; y2: number } | undefined {
    if (this.positions.size === 0) return undefined;
    let x1 = Number.POSITIVE_INFINITY;
    let y1 = Number.POSITIVE_INFINITY;
    let x2 = Number.NEGATIVE_INFINITY;
    let y2 = Number.NEGATIVE_INFINITY;
    for (const p of this.positions.values()) {
      x1 = Math.min(x1, p.x);
      y1 = Math.min(y1, p.y);
      x2 = Math.max(x2, p.x);
      y2 = Math.max(y2, p.y);
    }
    return { x1, y1, x2, y2 };
  }

  /**
   * Places `added` (and re-places the rings they join or lie outside of); `neighbours(id)` lists a node's
   * neighbours in either direction. Returns the ids whose position changed (the added ones included).
   */
  add(added: LayoutNode[], neighbours: (id: string) => Iterable<string>): Set<string> {
    const changed = new Set<string>();
    if (added.length === 0) return changed;
    const byDepth = new Map<number, string[]>();
    for (const node of added) {
      const depth = Math.max(0, Math.floor(node.depth));
      if (this.depths.has(node.id)) continue; // already placed
      this.depths.set(node.id, depth);
      const list = byDepth.get(depth) ?? [];
      list.push(node.id);
      byDepth.set(depth, list);
    }
    if (byDepth.size === 0) return changed;
    const lowest = Math.min(...byDepth.keys());
    const depths = new Set<number>([...this.bands.keys(), ...byDepth.keys()]);
    const ordered = [...depths].sort((a, b) => a - b);
    let outer = 0;
    for (const depth of ordered) {
      const band = this.bands.get(depth);
      if (depth < lowest && band) {
        // Inside the first ring that changed: stays exactly where it was.
        outer = band.outer;
        continue;
      }
      const ids = [...(band?.ids ?? []), ...(byDepth.get(depth) ?? [])];
      const placed = this.placeBand(depth, ids, outer, neighbours);
      for (const id of placed) changed.add(id);
      outer = this.bands.get(depth)!.outer;
    }
    return changed;
  }

  private placeBand(
    depth: number,
    ids: string[],
    innerEdge: number,
    neighbours: (id: string) => Iterable<string>,
  ): string[] {
    const { spacing, ringGap } = this.options;
    if (depth === 0 && ids.length === 1) {
      this.positions.set(ids[0]!, { x: 0, y: 0 });
      this.angles.set(ids[0]!, 0);
      this.bands.set(depth, { ids, inner: 0, outer: 0 });
      return ids;
    }
    // The angle a node "wants": the circular mean of its already placed neighbours nearer the centre.
    const wanted = new Map<string, number>();
    for (const [i, id] of ids.entries()) {
      let sin = 0;
      let cos = 0;
      for (const other of neighbours(id)) {
        const angle = this.angles.get(other);
        const otherDepth = this.depths.get(other);
        if (angle === undefined || otherDepth === undefined || otherDepth >= depth) continue;
        sin += Math.sin(angle);
        cos += Math.cos(angle);
      }
      const fallback = (2 * Math.PI * i) / Math.max(1, ids.length);
      wanted.set(id, sin === 0 && cos === 0 ? fallback : normalise(Math.atan2(sin, cos)));
    }
    const order = [...ids].sort((a, b) => wanted.get(a)! - wanted.get(b)! || (a < b ? -1 : a > b ? 1 : 0));

    const inner = innerEdge + ringGap;
    // Fewest sub-rings (spaced `spacing` apart) whose circumferences hold every node; each gets a share of the
    // nodes in proportion to its circumference, evenly spread on it, so no two nodes are closer than `spacing`.
    const capacities: number[] = [];
    let total = 0;
    while (total < order.length) {
      const c = Math.max(1, Math.floor((2 * Math.PI * (inner + capacities.length * spacing)) / spacing));
      capacities.push(c);
      total += c;
    }
    const rings = capacities.length;
    const n = order.length;
    const counts = capacities.map((c) => Math.floor((n * c) / total));
    for (
      let j = rings - 1, left = n - counts.reduce((a, b) => a + b, 0);
      left > 0;
      j = (j + rings - 1) % rings
    ) {
      if (counts[j]! < capacities[j]!) {
        counts[j]!++;
        left--;
      }
    }
    // Every slot of every sub-ring, by angle; the nodes, in their wanted order, take the slots in turn. The
    // rotation puts the first node at its wanted angle: a lone child stays in line with its parent.
    const offset = n > 0 ? wanted.get(order[0]!)! : 0;
    const slots: { angle: number; radius: number }[] = [];
    for (const [j, count] of counts.entries()) {
      const stagger = rings > 1 ? j / rings : 0; // sub-rings' slots interleave instead of lining up radially
      for (let m = 0; m < count; m++) {
        slots.push({ angle: (2 * Math.PI * (m + stagger)) / count, radius: inner + j * spacing });
      }
    }
    slots.sort((a, b) => a.angle - b.angle || a.radius - b.radius);
    for (const [i, id] of order.entries()) {
      const slot = slots[i]!;
      const angle = normalise(offset + slot.angle);
      this.positions.set(id, { x: slot.radius * Math.cos(angle), y: slot.radius * Math.sin(angle) });
      this.angles.set(id, angle);
    }
    this.bands.set(depth, { ids: order, inner, outer: inner + (rings - 1) * spacing });
    return order;
  }
}

const normalise = (angle: number) => {
  const full = 2 * Math.PI;
  return ((angle % full) + full) % full;
};
