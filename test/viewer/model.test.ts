// The viewer's DOM-free parts (web/viewer/model.ts, layout.ts): layers synced from their cumulative graph whatever
// order they arrive in, transfers aggregated per direction without double counting, edge weights by USD or raw
// value, missing layers, and the ring layout (root in the centre, one band per hop, inner rings never moved by
// a new layer, no two nodes on the same spot).
import { describe, expect, it } from "vitest";
import { RingLayout } from "../../web/viewer/layout.ts";
import { describeBridge, describeEdge, edgeWeights, InvestigationGraph } from "../../web/viewer/model.ts";
import type { CompletedLayer, WireEdge, WireNode } from "../../web/viewer/types.ts";

const A = `0x${"a".repeat(40)}`;
const B = `0x${"b".repeat(40)}`;
const C = `0x${"c".repeat(40)}`;
const D = `0x${"d".repeat(40)}`;

const node = (address: string, type: string, depth: number, label?: string): WireNode => ({
  address,
  type,
  depth,
  ...(label ? { label } : {}),
});
const edge = (from: string, to: string, value: string, usd: number | null, txHash: string): WireEdge => ({
  from,
  to,
  value,
  usd,
  symbol: usd === null ? "TKN" : "USDV",
  txHash,
});

function layer(index: number, nodes: WireNode[], edges: WireEdge[], extra: Partial<CompletedLayer> = {}) {
  const map = Object.fromEntries(nodes.map((n) => [n.address, n]));
  return {
    analysisId: "x",
    layer: index,
    status: "completed",
    totalLayers: 3,
    riskScore: 10 * (index + 1),
    isProvisional: index < 2,
    detectedPatterns: [],
    newPatterns: [],
    removedPatterns: [],
    cumulativeGraph: {
      rootAddress: A,
      nodes: map,
      edges,
      metadata: { totalNodes: nodes.length, totalEdges: edges.length },
    },
    newNodes: {},
    newEdges: [],
    ...extra,
  } satisfies CompletedLayer;
}

const l0 = layer(0, [node(A, "eoa", 0), node(B, "exchange", 1, "Bitso")], [edge(A, B, "100", 100, "0x1")]);
const l1 = layer(
  1,
  [node(A, "eoa", 0), node(B, "exchange", 1, "Bitso"), node(C, "mixer", 2), node(D, "weird-type", 2)],
  [
    edge(A, B, "100", 100, "0x1"),
    edge(A, B, "50", 50, "0x2"),
    edge(B, C, "5000000000000000000000", null, "0x3"),
    edge(D, A, "1", 1, "0x4"),
  ],
);

describe("InvestigationGraph", () => {
  it("grows from each cumulative graph; what a layer adds is exactly the difference", () => {
    const g = new InvestigationGraph();
    const first = g.applyLayer(l0);
    expect(first.addedNodes.map((n) => n.address)).toEqual([A, B]);
    expect(g.nodes.get(A)?.isRoot).toBe(true);
    const second = g.applyLayer(l1);
    expect(second.addedNodes.map((n) => n.address).sort()).toEqual([C, D]);
    expect(second.addedEdges.map((e) => e.id).sort()).toEqual([`${B}->${C}`, `${D}->${A}`]);
    expect(second.changedEdges.map((e) => e.id)).toEqual([`${A}->${B}`]);
    expect(g.nodes.size).toBe(l1.cumulativeGraph.metadata!.totalNodes);
    expect(g.nodes.get(D)?.type).toBe("unknown"); // a type the viewer does not know
    const ab = g.edges.get(`${A}->${B}`)!;
    expect([ab.count, ab.usd, ab.txHashes]).toEqual([2, 150, ["0x1", "0x2"]]);
    expect(g.transferCount).toBe(4);
    expect(g.layers.map((l) => l.riskScore)).toEqual([10, 20]);
  });

  it("ends equal to the final cumulative graph whatever the order, and never counts a transfer twice", () => {
    const inOrder = new InvestigationGraph();
    inOrder.applyLayer(l0);
    inOrder.applyLayer(l1);
    const skipped = new InvestigationGraph();
    skipped.applyLayer(l1);
    skipped.applyLayer(l0);
    skipped.applyLayer(l1);
    for (const g of [inOrder, skipped]) {
      expect([...g.nodes.keys()].sort()).toEqual([A, B, C, D]);
      expect(g.edges.get(`${A}->${B}`)?.count).toBe(2);
      expect(g.layers.map((l) => l.layer)).toEqual([0, 1]);
    }
  });

  it("lists the layers still to fetch, lowest first", () => {
    const g = new InvestigationGraph();
    g.applyLayer(l1);
    expect(g.missingLayers(3)).toEqual([0, 2]);
    expect(g.missingLayers(0)).toEqual([]);
  });

  it("weights edges by USD where priced and by raw amount otherwise, between 0 and 1", () => {
    const g = new InvestigationGraph();
    g.applyLayer(l1);
    const w = edgeWeights(g.edges.values());
    expect(w.get(`${A}->${B}`)).toBe(1);
    expect(w.get(`${D}->${A}`)!).toBeGreaterThan(0);
    expect(w.get(`${D}->${A}`)!).toBeLessThan(0.2);
    expect(w.get(`${B}->${C}`)).toBe(1); // the only unpriced edge: the largest raw amount
    expect(describeEdge(g.edges.get(`${A}->${B}`)!)).toBe("$150.00 in 2 transfers");
    expect(describeEdge(g.edges.get(`${B}->${C}`)!)).toBe("5.000e21 TKN (raw units) in 1 transfer");
  });
});

describe("bridge crossings in the viewer's model", () => {
  it("draws a crossing apart from the pair's transfers, and says what was deposited where", () => {
    const remote = `${C}@1`;
    const bridge = {
      protocol: "Across",
      fromChainId: 1,
      toChainId: 8453,
      depositTx: "0xd1",
      given: { symbol: "USDC", value: "5000000000", decimals: 6, usd: 5_000 },
    };
    const g = new InvestigationGraph();
    g.applyLayer(
      layer(
        0,
        [node(A, "eoa", 0), node(remote, "eoa", 1)],
        [edge(remote, A, "100", 100, "0x9"), { ...edge(remote, A, "4990000000", 4_990, "0xf1"), bridge }],
      ),
    );
    expect([...g.edges.keys()].sort()).toEqual([`${remote}->${A}`, `${remote}->${A}:bridge`]);
    const crossing = g.edges.get(`${remote}->${A}:bridge`)!;
    expect(crossing.bridge?.protocol).toBe("Across");
    expect(describeBridge(crossing.bridge!)).toBe(
      "Bridged via Across from chain 1 to chain 8453: 5,000 USDC ($5,000.00) deposited (transaction 0xd1).",
    );
  });
});

describe("RingLayout", () => {
  const neighbours = (edges: [string, string][]) => (id: string) =>
    edges.flatMap(([a, b]) => (a === id ? [b] : b === id ? [a] : []));

  it("puts the root in the centre and each hop further out, without moving inner rings", () => {
    const layout = new RingLayout({ spacing: 30, ringGap: 100 });
    const edges: [string, string][] = [];
    layout.add([{ id: "root", depth: 0 }], neighbours(edges));
    expect(layout.position("root")).toEqual({ x: 0, y: 0 });
    const hop1 = Array.from({ length: 12 }, (_, i) => `a${i}`);
    for (const id of hop1) edges.push(["root", id]);
    layout.add(
      hop1.map((id) => ({ id, depth: 1 })),
      neighbours(edges),
    );
    const before = hop1.map((id) => layout.position(id));
    const hop2 = Array.from({ length: 2000 }, (_, i) => `b${i}`);
    for (const [i, id] of hop2.entries()) edges.push([hop1[i % hop1.length]!, id]);
    const moved = layout.add(
      hop2.map((id) => ({ id, depth: 2 })),
      neighbours(edges),
    );
    expect(hop1.map((id) => layout.position(id))).toEqual(before);
    expect([...moved].every((id) => id.startsWith("b"))).toBe(true);

    const radius = (id: string) => Math.hypot(layout.position(id)!.x, layout.position(id)!.y);
    const r1 = Math.max(...hop1.map(radius));
    const r2 = Math.min(...hop2.map(radius));
    expect(r2).toBeGreaterThan(r1);
    // 2,000 nodes in a band, not on one huge circle: the radius grows like the square root of the count.
    expect(Math.max(...hop2.map(radius))).toBeLessThan(2_500);
    // No two nodes closer than about the spacing.
    const points = hop2.map((id) => layout.position(id)!);
    const grid = new Map<string, { x: number; y: number }[]>();
    let closest = Number.POSITIVE_INFINITY;
    for (const p of points) {
      const gx = Math.floor(p.x / 30);
      const gy = Math.floor(p.y / 30);
      for (let dx = -1; dx <= 1; dx++)
        for (let dy = -1; dy <= 1; dy++)
          for (const q of grid.get(`${gx + dx},${gy + dy}`) ?? [])
            closest = Math.min(closest, Math.hypot(p.x - q.x, p.y - q.y));
      grid.set(`${gx},${gy}`, [...(grid.get(`${gx},${gy}`) ?? []), p]);
    }
    expect(closest).toBeGreaterThan(15);
  });

  it("is deterministic", () => {
    const place = () => {
      const layout = new RingLayout();
      const edges: [string, string][] = [
        ["r", "x"],
        ["r", "y"],
        ["x", "z"],
      ];
      layout.add([{ id: "r", depth: 0 }], neighbours(edges));
      layout.add(
        [
          { id: "y", depth: 1 },
          { id: "x", depth: 1 },
        ],
        neighbours(edges),
      );
      layout.add([{ id: "z", depth: 2 }], neighbours(edges));
      return ["r", "x", "y", "z"].map((id) => layout.position(id));
    };
    expect(place()).toEqual(place());
  });
});
