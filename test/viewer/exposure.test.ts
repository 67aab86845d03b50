// The viewer's DOM-free reading of exposure paths and transfers (web/viewer/exposure.ts, format.ts): which drawn
// edges and nodes a path covers (only edges between path addresses that carry a path transaction), the path in
// the direction the money moved, which paths are emphasised, the words; amounts in the token's units, dates in
// UTC, and explorer links only to http(s) explorers.
import { describe, expect, it } from "vitest";
import { describeExposure, isEmphasised, pathElements, pathInOrder } from "../../web/viewer/exposure.ts";
import { addressUrl, explorerBase, formatAmount, formatDate, txUrl } from "../../web/viewer/format.ts";
import { InvestigationGraph } from "../../web/viewer/model.ts";
import type { CompletedLayer, ExposurePath, WireEdge, WireNode } from "../../web/viewer/types.ts";

const [ROOT, HOP2, HOP1, SDN, OTHER] = ["1", "2", "3", "4", "5"].map((c) => `0x${c.repeat(40)}`) as [
  string,
  string,
  string,
  string,
  string,
];
const tx = (n: number) => `0x${String(n).padStart(64, "0")}`;
const node = (address: string, depth: number, extra: Partial<WireNode> = {}): WireNode => ({
  address,
  type: "eoa",
  depth,
  ...extra,
});
const edge = (from: string, to: string, n: number, at: string): WireEdge => ({
  from,
  to,
  value: "1500000000000000000",
  decimals: 18,
  symbol: "ETH",
  usd: 3_000,
  txHash: tx(n),
  timestamp: at,
});

const sanctioned: ExposurePath = {
  category: "sanctioned",
  direction: "incoming",
  hops: 3,
  usd: 14_886.6,
  share: 1,
  counterparties: [{ address: SDN, label: "OFAC SDN: Lazarus Group" }],
  via: [HOP1, HOP2].sort(),
  txHashes: [tx(1), tx(2), tx(3)],
  drivesScore: true,
};

function graph(): InvestigationGraph {
  const g = new InvestigationGraph();
  g.applyLayer({
    analysisId: "x",
    layer: 2,
    status: "completed",
    totalLayers: 3,
    riskScore: 86,
    riskLevel: "critical",
    isProvisional: false,
    detectedPatterns: [],
    newPatterns: [],
    removedPatterns: [],
    exposure: [sanctioned],
    cumulativeGraph: {
      rootAddress: ROOT,
      nodes: Object.fromEntries(
        [
          node(ROOT, 0),
          node(HOP2, 1),
          node(HOP1, 2),
          node(SDN, 3, { type: "sanctioned", label: "OFAC SDN: Lazarus Group", labelSource: "ofac-sdn" }),
          node(OTHER, 1),
        ].map((n) => [n.address, n]),
      ),
      edges: [
        edge(SDN, HOP1, 1, "2024-01-11T00:00:00.000Z"),
        edge(HOP1, HOP2, 2, "2024-01-12T00:00:00.000Z"),
        edge(HOP2, ROOT, 3, "2024-01-15T13:45:09.000Z"),
        // The same transaction's other transfer, to an address off the path, and an unrelated one.
        edge(HOP2, OTHER, 3, "2024-01-15T13:45:09.000Z"),
        edge(OTHER, ROOT, 4, "2024-01-16T00:00:00.000Z"),
      ],
    },
    newNodes: {},
    newEdges: [],
  } satisfies CompletedLayer);
  return g;
}

describe("exposure paths", () => {
  it("cover the path's edges and nodes, and nothing else", () => {
    const g = graph();
    const { nodes, edges } = pathElements(g.latest!.exposure, ROOT, g.edges.values());
    expect([...nodes].sort()).toEqual([ROOT, HOP2, HOP1, SDN].sort());
    expect([...edges].sort()).toEqual([`${SDN}->${HOP1}`, `${HOP1}->${HOP2}`, `${HOP2}->${ROOT}`].sort());
    expect(pathElements([], ROOT, g.edges.values())).toEqual({ nodes: new Set(), edges: new Set() });
  });

  it("read in the direction the money moved", () => {
    const g = graph();
    expect(pathInOrder(sanctioned, ROOT, g.nodes)).toEqual([SDN, HOP1, HOP2, ROOT]);
    expect(pathInOrder({ ...sanctioned, direction: "outgoing" }, ROOT, g.nodes)).toEqual([
      ROOT,
      HOP2,
      HOP1,
      SDN,
    ]);
    expect(pathInOrder({ ...sanctioned, direction: "self" }, ROOT, g.nodes)).toEqual([ROOT]);
  });

  it("are emphasised when the score rests on them or they lead to a risky address", () => {
    expect(isEmphasised(sanctioned)).toBe(true);
    expect(isEmphasised({ ...sanctioned, drivesScore: false })).toBe(true);
    expect(isEmphasised({ ...sanctioned, category: "exchange", drivesScore: false })).toBe(false);
    expect(isEmphasised({ ...sanctioned, category: "gambling", drivesScore: true })).toBe(true);
  });

  it("say what moved, how far", () => {
    expect(describeExposure(sanctioned)).toBe(
      "Received $14,886.60 (100% of its incoming funds) from a sanctioned address 3 hops away",
    );
    expect(
      describeExposure({
        ...sanctioned,
        direction: "outgoing",
        hops: 1,
        share: 0.1569,
        category: "exchange",
      }),
    ).toBe("Sent $14,886.60 (15.7% of its outgoing funds) to an exchange address directly");
    expect(describeExposure({ ...sanctioned, direction: "self", hops: 0 })).toBe(
      "The address itself is labelled sanctioned",
    );
  });

  it("keep each transfer of an edge, and the label's source", () => {
    const g = graph();
    expect(g.edges.get(`${HOP2}->${ROOT}`)!.transfers).toEqual([
      {
        txHash: tx(3),
        from: HOP2,
        to: ROOT,
        value: 1_500_000_000_000_000_000n,
        decimals: 18,
        symbol: "ETH",
        usd: 3_000,
        timestamp: "2024-01-15T13:45:09.000Z",
      },
    ]);
    expect(g.nodes.get(SDN)?.labelSource).toBe("ofac-sdn");
    expect(g.latest?.riskLevel).toBe("critical");
  });
});

describe("transfer formatting", () => {
  it("shows amounts in the token's units, rounded down, grouped", () => {
    expect(formatAmount(1_500_000_000_000_000_000n, 18, "ETH")).toBe("1.5 ETH");
    expect(formatAmount(12_345_678_999_999n, 6, "USDV")).toBe("12,345,678.999999 USDV");
    expect(formatAmount(1_999_999_999n, 9, "X")).toBe("1.999999 X");
    expect(formatAmount(5n, 18, "ETH")).toBe("< 0.000001 ETH");
    expect(formatAmount(0n, 18, "ETH")).toBe("0 ETH");
    expect(formatAmount(42n, 0, "NFT")).toBe("42 NFT");
    expect(formatAmount(42n, undefined, "TKN")).toBe("42 TKN (raw units)");
  });

  it("dates in UTC to the minute", () => {
    expect(formatDate("2024-01-15T13:45:09.000Z")).toBe("2024-01-15 13:45 UTC");
    expect(formatDate(undefined)).toBe("date unknown");
    expect(formatDate("not a date")).toBe("date unknown");
  });

  it("links to the explorer only when the registry names an http(s) one", () => {
    const base = explorerBase("https://etherscan.io/");
    expect(base).toBe("https://etherscan.io");
    expect(txUrl(base, tx(3))).toBe(`https://etherscan.io/tx/${tx(3)}`);
    expect(addressUrl(base, ROOT)).toBe(`https://etherscan.io/address/${ROOT}`);
    expect(txUrl(undefined, tx(3))).toBeUndefined();
    expect(txUrl(base, "0x12")).toBeUndefined();
    expect(explorerBase(null)).toBeUndefined();
    expect(explorerBase("javascript:alert(1)")).toBeUndefined();
    expect(explorerBase("not a url")).toBeUndefined();
  });
});
