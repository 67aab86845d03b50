// Bounded breadth-first expansion over the store (src/analysis/graph): layers and depths, node types from labels
// and address facts, USD per edge from the day's price and the token's decimals, services / sanctioned / illicit
// ending a path, the degree limit following only the top counterparties by USD, the node, edge and time budgets
// and their truncation flags, the date window, one statement per layer, the explorer history hook, layer-by-layer
// expansion of a saved graph, and the same graph from the same data however it was inserted. Runs on the
// in-memory PGlite and, with DATABASE_URL, on PostgreSQL.
import type { Kysely, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createGraph,
  type ExpandingGraph,
  expandGraph,
  expandLayer,
  graphFromJson,
  graphToJson,
  type HistoryProvider,
} from "../../src/analysis/graph/index.ts";
import { ExplorerHistory } from "../../src/chains/explorer/index.ts";
import {
  insertTransfers,
  markContracts,
  type TransferRow,
  upsertTokens,
} from "../../src/chains/store/transfers.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";

type TestDb = Awaited<ReturnType<typeof openTestDatabase>>;

/** Readable addresses: a name's number as a 40-digit hex address. */
const NAMES = ["R", "A", "B", "C", "X", "O", "D", "S", "E", "F", "G", "Y", "Z", "C2", "N", "H"] as const;
type Name = (typeof NAMES)[number];
const addr = (name: Name) => `0x${(NAMES.indexOf(name) + 1).toString(16).padStart(40, "0")}`;
const hubPeer = (i: number) => `0x${(0x1000 + i).toString(16).padStart(40, "0")}`;
const hubPeerNext = (i: number) => `0x${(0x2000 + i).toString(16).padStart(40, "0")}`;
const nameOf = new Map(NAMES.map((n) => [addr(n), n]));
const names = (graph: ExpandingGraph) => [...graph.nodes.keys()].map((a) => nameOf.get(a) ?? a);

const DAY = 86_400;
const T0 = Date.UTC(2024, 2, 1) / 1000; // 2024-03-01T00:00:00Z
const ETH = 10n ** 18n;
const TOKEN_T = `0x${"7".repeat(40)}`; // 6 decimals, USD 1
const TOKEN_U = `0x${"8".repeat(40)}`; // 18 decimals, no price
const TOKEN_W = `0x${"9".repeat(40)}`; // not in the tokens table
const HUB_CHAIN = 137;

let seq = 0;
function transfer(
  chainId: number,
  from: string,
  to: string,
  token: string,
  value: bigint,
  at: number,
): TransferRow {
  seq++;
  return {
    chainId,
    txHash: `0x${seq.toString(16).padStart(64, "0")}`,
    logIndex: token === "native" ? -1 : 0,
    blockNumber: BigInt(1000 + Math.floor((at - T0) / 12) + 100_000),
    blockTime: new Date(at * 1000),
    from,
    to,
    token,
    value,
  };
}

/** The fixture: chain 1 (paths, services, labels, tokens) and chain 137 (a hub with 60 counterparties). */
function fixture(): { transfers: TransferRow[]; labels: Record<string, unknown>[] } {
  seq = 0;
  const t = (from: Name, to: Name, token: string, value: bigint, day: number) =>
    transfer(1, addr(from), addr(to), token, value, T0 + day * DAY + 3600);
  const transfers = [
    t("R", "A", "native", ETH, 0), // USD 2,000
    t("B", "R", TOKEN_T, 500_000_000n, 1), // 500 T, USD 500
    t("R", "C", TOKEN_U, 10n * ETH, 1), // no price: usd null
    t("R", "X", "native", ETH / 2n, 2), // to an exchange
    t("X", "Y", "native", ETH, 2), // the exchange's other business: never reached
    t("A", "D", "native", (ETH * 9n) / 10n, 2),
    t("D", "F", "native", (ETH * 8n) / 10n, 3),
    t("F", "G", "native", (ETH * 7n) / 10n, 4), // depth 4
    t("A", "S", "native", ETH / 20n, 2), // to a sanctioned address
    t("S", "Z", "native", ETH, 3), // never reached: S ends the path
    t("C", "C2", TOKEN_U, ETH, 3), // never reached: C is blocklisted (illicit)
    t("E", "A", TOKEN_W, 5n, 3), // unknown token: decimals 0, usd null
    t("R", "O", "native", ETH, -30), // a month before: outside the windows below
  ];
  // The hub: 60 counterparties, P_i worth i * USD 10 (ETH at 2,000), each forwarding to a next address.
  for (let i = 1; i <= 60; i++) {
    const day = T0 + DAY + i * 60;
    transfers.push(transfer(HUB_CHAIN, addr("H"), hubPeer(i), "native", (BigInt(i) * ETH) / 200n, day));
    transfers.push(transfer(HUB_CHAIN, hubPeer(i), hubPeerNext(i), "native", ETH / 1000n, day + 3600));
  }
  const label = (name: Name, chainId: number, category: string, confidence = 80) => ({
    address: addr(name),
    chain_id: chainId,
    label: `${name} ${category}`,
    category,
    source: `test-${category}`,
    confidence,
  });
  const labels = [
    label("X", 0, "exchange"),
    label("S", 1, "exchange", 100), // S is also an exchange, but sanctioned wins
    label("S", 0, "sanctioned"),
    label("C", 0, "blocklisted"),
    label("B", 1, "other"),
    label("O", 56, "mixer"), // another chain's label: ignored on chain 1
  ];
  return { transfers, labels };
}

async function seed(db: Kysely<DB>, order: "forward" | "reverse"): Promise<void> {
  const { transfers, labels } = fixture();
  const arrange = <T>(list: T[]) => (order === "forward" ? list : [...list].reverse());
  await insertTransfers(db, arrange(transfers));
  await db
    .insertInto("labels")
    .values(arrange(labels) as never[])
    .execute();
  await upsertTokens(db, [
    { chainId: 1, address: TOKEN_T, symbol: "TTT", name: "Test dollar", decimals: 6 },
    { chainId: 1, address: TOKEN_U, symbol: "UUU", name: "Unpriced", decimals: 18 },
  ]);
  await markContracts(db, 1, [addr("D")]);
  const prices = [];
  for (let day = -31; day <= 5; day++) {
    const date = new Date((T0 + day * DAY) * 1000).toISOString().slice(0, 10);
    prices.push({ chain_id: 1, token: "native", day: date, price_usd: "2000" });
    prices.push({ chain_id: 1, token: TOKEN_T, day: date, price_usd: "1" });
    prices.push({ chain_id: HUB_CHAIN, token: "native", day: date, price_usd: "2000" });
  }
  await db.insertInto("prices").values(arrange(prices)).execute();
}

/** Counts the statements run through a Kysely instance. */
class StatementCounter implements KyselyPlugin {
  statements = 0;
  transformQuery(args: PluginTransformQueryArgs) {
    this.statements++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

let database: TestDb;
let db: Kysely<DB>;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await seed(db, "forward");
});
afterAll(async () => {
  await database?.drop();
});

const expand = (roots: Name[] | string[], maxDepth: number, options = {}, chainId = 1) =>
  expandGraph(
    db,
    { chainId, roots: roots.map((r) => (r.startsWith("0x") ? r : addr(r as Name))), maxDepth },
    options,
  );

describe("layers", () => {
  it("expands breadth-first, one hop per layer, with each node at its distance from the roots", async () => {
    const { graph, layers } = await expand(["R"], 3);
    expect(graph.roots).toEqual([addr("R")]);
    expect(names(graph)).toEqual(["R", "A", "B", "C", "X", "O", "D", "S", "E", "F"]);
    const depth = (n: Name) => graph.nodes.get(addr(n))?.depth;
    expect([
      depth("R"),
      depth("A"),
      depth("C"),
      depth("X"),
      depth("D"),
      depth("S"),
      depth("E"),
      depth("F"),
    ]).toEqual([0, 1, 1, 1, 2, 2, 2, 3]);
    // Nodes at the last depth are reached but not expanded: F's transfer to G is not read.
    expect(graph.nodes.has(addr("G"))).toBe(false);
    expect(graph.nodes.get(addr("F"))?.expanded).toBe(false);
    expect(graph.nodes.get(addr("D"))?.expanded).toBe(true);
    expect(layers.map((l) => [l.depth, l.frontier, l.newNodes])).toEqual([
      [0, 1, 5],
      [1, 3, 3],
      [2, 2, 1],
    ]);
    expect(layers.at(-1)?.stop).toBe("depth");
    expect(graph.truncated).toEqual({ nodes: false, edges: false, time: false, degree: false });
    expect(graph.frontier).toEqual([]);
    expect(graph.maxDepth).toBe(3);
  });

  it("depth 0 is the roots alone; depth 1 their direct counterparties", async () => {
    const zero = await expand(["R"], 0);
    expect(names(zero.graph)).toEqual(["R"]);
    expect(zero.graph.edges).toEqual([]);
    const one = await expand(["R"], 1);
    expect(names(one.graph)).toEqual(["R", "A", "B", "C", "X", "O"]);
    expect(one.graph.edges).toHaveLength(5);
    expect(one.layers.at(-1)?.stop).toBe("depth");
  });

  it("starts from many roots at once, in any case, and ignores duplicates", async () => {
    const { graph } = await expand([addr("D").toUpperCase().replace("0X", "0x"), addr("B"), addr("D")], 1);
    expect(graph.roots).toEqual([addr("B"), addr("D")]);
    expect(names(graph)).toEqual(["B", "D", "R", "A", "F"]);
    await expect(expand(["0x1234"], 1)).rejects.toThrow(/not an address: "0x1234"/);
  });

  it("turns each transfer into an edge with amount, decimals, symbol and USD of its day's price", async () => {
    const { graph } = await expand(["R"], 2);
    const edge = (from: Name, to: Name) =>
      graph.edges.find((e) => e.from === addr(from) && e.to === addr(to));
    expect(edge("R", "A")).toMatchObject({
      token: "native",
      symbol: "ETH",
      decimals: 18,
      value: ETH,
      usd: 2000,
      logIndex: -1,
      at: T0 + 3600,
    });
    expect(edge("R", "A")?.id).toBe(`${edge("R", "A")?.txHash}:-1`);
    expect(edge("B", "R")).toMatchObject({
      token: TOKEN_T,
      symbol: "TTT",
      decimals: 6,
      value: 500_000_000n,
      usd: 500,
    });
    expect(edge("R", "C")).toMatchObject({ symbol: "UUU", decimals: 18, usd: null }); // no price that day
    expect(edge("E", "A")).toMatchObject({ symbol: "UNKNOWN", decimals: 0, value: 5n, usd: null }); // no token row
    expect(edge("A", "S")?.usd).toBe(100);
    // Edges in time order.
    const times = graph.edges.map((e) => e.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe("node types", () => {
  it("come from the strongest label, contracts from address facts, first-seen times from the store", async () => {
    const { graph } = await expand(["R"], 2);
    const node = (n: Name) => graph.nodes.get(addr(n));
    expect(node("X")).toMatchObject({ type: "exchange", category: "exchange", label: "X exchange" });
    // S is labelled exchange (chain 1) and sanctioned (every chain): sanctioned wins.
    expect(node("S")).toMatchObject({ type: "sanctioned", category: "sanctioned", label: "S sanctioned" });
    // blocklisted (frozen by an issuer) is illicit, and keeps its category.
    expect(node("C")).toMatchObject({ type: "illicit", category: "blocklisted" });
    // `other` gives no special type; a label of another chain is ignored.
    expect(node("B")).toMatchObject({ type: "eoa", category: "other" });
    expect(node("O")?.category).toBeUndefined();
    expect(node("O")?.type).toBe("eoa");
    expect(node("D")).toMatchObject({ type: "contract", isContract: true });
    expect(node("R")?.firstSeenAt).toBe(T0 - 30 * DAY + 3600);
    expect(node("A")?.firstSeenAt).toBe(T0 + 3600);
  });

  it("an address the store has never seen is `unknown`", async () => {
    const stranger = `0x${"ab".repeat(20)}`;
    const { graph } = await expand([stranger], 2);
    expect([...graph.nodes.values()]).toEqual([
      { address: stranger, depth: 0, type: "unknown", isContract: false, expanded: true },
    ]);
  });
});

describe("paths end at services, sanctioned and illicit addresses", () => {
  it("reaches them as nodes but does not expand them", async () => {
    const { graph } = await expand(["R"], 5);
    for (const n of ["X", "S", "C"] as const) expect(graph.nodes.get(addr(n))?.expanded).toBe(false);
    // Their other counterparties are never reached.
    for (const n of ["Y", "Z", "C2"] as const) expect(graph.nodes.has(addr(n))).toBe(false);
    expect(graph.edges.some((e) => e.from === addr("X") && e.to === addr("Y"))).toBe(false);
    // The path through plain addresses goes on to depth 4.
    expect(graph.nodes.get(addr("G"))?.depth).toBe(4);
  });

  it("a root is expanded whatever its type", async () => {
    const { graph } = await expand(["X"], 1);
    expect(graph.nodes.get(addr("X"))).toMatchObject({ type: "exchange", expanded: true });
    expect(names(graph)).toEqual(["X", "R", "Y"]);
  });

  it("which types end a path is configurable", async () => {
    const { graph } = await expand(["R"], 2, { terminalTypes: new Set(["sanctioned"]) });
    expect(graph.nodes.has(addr("Y"))).toBe(true); // through the exchange
    expect(graph.nodes.has(addr("C2"))).toBe(true); // through the blocklisted address
  });
});

describe("degree limit", () => {
  it("keeps every counterparty of a hub but follows only the top ones by USD", async () => {
    const { graph } = await expand(["H"], 2, { degreeLimit: 50 }, HUB_CHAIN);
    // All 60 counterparties and their edges stay: the hub's own flows are complete.
    for (let i = 1; i <= 60; i++) expect(graph.nodes.get(hubPeer(i))?.depth).toBe(1);
    expect(graph.edges.filter((e) => e.from === addr("H"))).toHaveLength(60);
    // Only the 50 largest (P11..P60) are followed to the next layer.
    const followed = [...graph.nodes.values()]
      .filter((n) => n.depth === 1 && n.expanded)
      .map((n) => n.address);
    expect(followed).toEqual(Array.from({ length: 50 }, (_, i) => hubPeer(i + 11)));
    for (let i = 1; i <= 10; i++) expect(graph.nodes.has(hubPeerNext(i))).toBe(false);
    for (let i = 11; i <= 60; i++) expect(graph.nodes.get(hubPeerNext(i))?.depth).toBe(2);
    expect(graph.truncated).toEqual({ nodes: false, edges: false, time: false, degree: true });
  });

  it("under the limit, every counterparty is followed", async () => {
    const { graph, layers } = await expand(["H"], 2, { degreeLimit: 60 }, HUB_CHAIN);
    expect(graph.nodes.size).toBe(121);
    expect(graph.truncated.degree).toBe(false);
    expect(layers[0]?.degreeLimited).toEqual([]);
  });

  it("a hub with more transfers than the per-address cap has only its newest read", async () => {
    const { graph, layers } = await expand(["H"], 1, { maxTransfersPerAddress: 10 }, HUB_CHAIN);
    expect(layers[0]?.capped).toEqual([addr("H")]);
    expect(layers[0]?.cap).toBe(10);
    expect(graph.edges.map((e) => e.to)).toEqual(Array.from({ length: 10 }, (_, i) => hubPeer(51 + i)));
    expect(graph.truncated.degree).toBe(true);
  });
});

describe("busy addresses", () => {
  // On the hub chain H has 60 transfers (address_facts, kept by insertTransfers) and each P_i 2.
  it("are reached, with their transfers with the frontier, but their own history is never read", async () => {
    const { graph, layers } = await expand([hubPeer(5)], 3, { busyTransfers: 60 }, HUB_CHAIN);
    expect([...graph.nodes.keys()].sort()).toEqual([addr("H"), hubPeer(5), hubPeerNext(5)].sort());
    expect(graph.nodes.get(addr("H"))).toMatchObject({ depth: 1, expanded: false });
    expect(layers[0]?.busy).toEqual([addr("H")]);
    expect(graph.truncated).toEqual({ nodes: false, edges: false, time: false, degree: false });
    // One transfer fewer than the limit: H is an ordinary address and is expanded.
    const below = await expand([hubPeer(5)], 2, { busyTransfers: 61, degreeLimit: 100 }, HUB_CHAIN);
    expect(below.graph.nodes.get(addr("H"))?.expanded).toBe(true);
    expect(below.graph.nodes.size).toBe(62);
  });

  it("a root is expanded however busy it is", async () => {
    const { graph, layers } = await expand(["H"], 2, { busyTransfers: 2, degreeLimit: 100 }, HUB_CHAIN);
    expect(graph.nodes.get(addr("H"))?.expanded).toBe(true);
    expect(graph.edges.filter((e) => e.from === addr("H"))).toHaveLength(60);
    // Its counterparties have 2 transfers each: busy under this limit, so none is followed.
    expect(layers[0]?.busy).toHaveLength(60);
    expect(graph.nodes.size).toBe(61);
  });
});

describe("path shares", () => {
  // P5 received USD 50 from H and sent USD 2 on: H carries 50/52 of P5's flows. H sent P_i USD 10 i, of 18,300
  // in all; so P_i's path share is 50/52 x 10 i / 18,300 (by USD; by count, 1/60 of H's transfers is less).
  it("follow a counterparty only while its share of the path stays at or above the floor", async () => {
    const { graph, layers } = await expand(
      [hubPeer(5)],
      3,
      { minPathShare: 0.02, degreeLimit: 100 },
      HUB_CHAIN,
    );
    expect(graph.nodes.get(addr("H"))?.expanded).toBe(true);
    const followed = [...graph.nodes.values()]
      .filter((n) => n.depth === 2 && n.expanded)
      .map((n) => n.address);
    expect(followed).toEqual(Array.from({ length: 22 }, (_, i) => hubPeer(39 + i)));
    expect(layers[1]?.diluted).toBe(37);
    for (let i = 39; i <= 60; i++) expect(graph.nodes.get(hubPeerNext(i))?.depth).toBe(3);
    expect(graph.nodes.has(hubPeerNext(38))).toBe(false);
  });

  it("a floor of 0 follows every path", async () => {
    const { graph, layers } = await expand([hubPeer(5)], 3, { minPathShare: 0, degreeLimit: 100 }, HUB_CHAIN);
    expect(layers[1]?.diluted).toBe(0);
    expect(graph.nodes.size).toBe(121);
  });
});

describe("row limit of a layer", () => {
  it("shrinks the per-address cap so that a layer stays within it", async () => {
    const { layers, graph } = await expand(["H"], 1, { maxLayerRows: 20 }, HUB_CHAIN);
    expect(layers[0]?.cap).toBe(10);
    expect(layers[0]?.transfersRead).toBe(10);
    expect(graph.truncated.edges).toBe(true);
  });

  it("is a hard bound: a frontier too wide for it reads no more, and the expansion ends cut", async () => {
    const roots = Array.from({ length: 12 }, (_, i) => hubPeer(i + 1));
    const { layers, graph } = await expand(roots, 3, { maxLayerRows: 10 }, HUB_CHAIN);
    expect(layers).toHaveLength(1);
    expect(layers[0]).toMatchObject({ cap: 1, transfersRead: 10, stop: "edges" });
    expect(graph.edges.length).toBeLessThanOrEqual(10);
    expect(graph.frontier).toEqual([]);
    expect(graph.truncated.edges).toBe(true);
  });
});

describe("budgets", () => {
  it("a node budget keeps risk-labelled counterparties first, then the largest by USD, and says so", async () => {
    const { graph, layers } = await expand(["R"], 3, { budget: { maxNodes: 4 } });
    expect(names(graph)).toEqual(["R", "A", "C", "X"]);
    expect(graph.edges.every((e) => graph.nodes.has(e.from) && graph.nodes.has(e.to))).toBe(true);
    expect(graph.truncated).toEqual({ nodes: true, edges: false, time: false, degree: false });
    expect(layers).toHaveLength(1);
    expect(layers[0]?.stop).toBe("nodes");
    expect(graph.frontier).toEqual([]);
  });

  it("an edge budget never lets the graph hold more edges than it allows", async () => {
    const { graph } = await expand(["R"], 3, { budget: { maxEdges: 3 } });
    expect(graph.edges).toHaveLength(3);
    expect(names(graph)).toEqual(["R", "A", "C", "X"]);
    expect(graph.truncated).toEqual({ nodes: false, edges: true, time: false, degree: false });
  });

  it("a truncation flag alone does not stop a later layer: only a spent budget does", async () => {
    const graph = await createGraph(db, { chainId: 1, roots: [addr("R")], maxDepth: 2 });
    graph.truncated.edges = true; // e.g. a hub read only in part in an earlier layer
    const first = await expandLayer(db, graph);
    expect(first.newNodes).toBe(5);
    const full = await expandLayer(db, graph, { budget: { maxNodes: graph.nodes.size } });
    expect(full).toMatchObject({ statements: 0, stop: "nodes" });
    expect(graph.truncated.nodes).toBe(true);
    expect(graph.frontier).toEqual([]);
  });

  it("a spent time budget stops the expansion before the next layer", async () => {
    let clock = 0;
    const now = () => (clock += 1000); // every reading of the clock is a second later
    const { graph, layers } = await expand(["R"], 3, { budget: { maxMillis: 1500 }, now });
    expect(graph.truncated.time).toBe(true);
    expect(layers.at(-1)?.stop).toBe("time");
    expect(graph.nodes.size).toBeLessThan(10);
    // The frontier is kept: a later call with time left can go on from there.
    expect(graph.frontier.length).toBeGreaterThan(0);
  });

  it("a slow explorer is cut off at the deadline and the layer is read from the store", async () => {
    const slow: HistoryProvider = {
      hasExplorer: () => true,
      ensureCovered: (_chain, _address, _window, signal) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ truncated: false }), 5_000);
          signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted"));
          });
        }),
    };
    const started = Date.now();
    const { graph, layers } = await expand(["R"], 3, { budget: { maxMillis: 200 }, history: slow });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(graph.truncated.time).toBe(true);
    expect(layers).toHaveLength(1);
    expect(layers[0]?.history.skipped).toEqual([addr("R")]);
    expect(names(graph)).toEqual(["R", "A", "B", "C", "X", "O"]);
  });
});

describe("date window", () => {
  it("reads only the transfers inside the window, both ends inclusive", async () => {
    const window = { from: T0, to: T0 + DAY + 3600 };
    const { graph } = await expandGraph(db, { chainId: 1, roots: [addr("R")], maxDepth: 3, window });
    expect(graph.window).toEqual(window);
    expect(graph.nodes.has(addr("O"))).toBe(false); // a month before
    expect(graph.nodes.has(addr("X"))).toBe(false); // day 2
    expect(graph.nodes.has(addr("D"))).toBe(false); // day 2
    expect(names(graph)).toEqual(["R", "A", "B", "C"]);
    expect(graph.edges.every((e) => e.at >= window.from && e.at <= window.to)).toBe(true);
    await expect(
      expandGraph(db, { chainId: 1, roots: [addr("R")], maxDepth: 1, window: { from: 10, to: 5 } }),
    ).rejects.toThrow(/window/);
  });
});

describe("one statement per layer", () => {
  it("reads the roots in one statement and each layer in one more, whatever the frontier's size", async () => {
    const counter = new StatementCounter();
    const counted = db.withPlugin(counter);
    const result = await expandGraph(counted, { chainId: 1, roots: [addr("R")], maxDepth: 4 }, {});
    expect(result.layers).toHaveLength(4);
    // A transaction is read whole only when a transfer with a contract has others in its transaction (the layer
    // statement says so): D is a contract, but its transfers are transactions of their own.
    expect(result.layers.map((l) => l.conversions?.statements ?? 0)).toEqual([0, 0, 0, 0]);
    expect(counter.statements).toBe(1 + 4);
    expect(result.queries).toBe(5);

    const hub = new StatementCounter();
    const hubResult = await expandGraph(
      db.withPlugin(hub),
      { chainId: HUB_CHAIN, roots: [addr("H")], maxDepth: 3 },
      { minPathShare: 0 }, // every path followed: the widest frontiers
    );
    expect(hubResult.layers.map((l) => l.frontier)).toEqual([1, 50, 50]);
    expect(hub.statements).toBe(1 + 3);
  });
});

describe("explorer histories", () => {
  it("are made sure of for every frontier address before its layer is read", async () => {
    const calls: string[] = [];
    const provider: HistoryProvider = {
      hasExplorer: (chainId) => chainId === 1,
      async ensureCovered(chainId, address, window) {
        calls.push(nameOf.get(address) ?? address);
        expect(window).toEqual({ from: undefined, to: undefined });
        if (address === addr("A")) {
          // what a fetch from the explorer stores: a transfer the store did not have yet, and its record
          seq = 10_000;
          await insertTransfers(db, [transfer(chainId, addr("A"), addr("N"), "native", ETH, T0 + 4 * DAY)]);
          return { truncated: false, record: fetchedA };
        }
        return { truncated: address === addr("B") };
      },
    };
    const fetchedA = {
      chainId: 1,
      address: addr("A"),
      fetchedAt: new Date(T0 * 1000),
      transferCount: 1,
      coveredFrom: null,
      coveredTo: null,
      truncated: false,
      source: "blockscout explorer.test",
    };
    try {
      const { graph, layers } = await expand(["R"], 2, { history: provider });
      expect(calls).toEqual(["R", "A", "B", "O"]);
      // A's history was in the store when layer 1 was read.
      expect(graph.nodes.get(addr("N"))?.depth).toBe(2);
      // The records the provider gave are the layer's, for the verdicts' coverage.
      expect(layers[1]?.history).toEqual({
        ensured: 3,
        incomplete: [addr("B")],
        failed: [],
        skipped: [],
        records: [fetchedA],
      });
    } finally {
      await db.deleteFrom("transfers").where("to_address", "=", addr("N")).execute();
    }
  });

  it("a failing explorer does not fail the expansion: the store is read as it is", async () => {
    const failing: HistoryProvider = {
      hasExplorer: () => true,
      ensureCovered: async () => {
        throw new Error("explorer down");
      },
    };
    const { graph, layers } = await expand(["R"], 1, { history: failing });
    expect(names(graph)).toEqual(["R", "A", "B", "C", "X", "O"]);
    expect(layers[0]?.history.failed).toEqual([{ address: addr("R"), error: "explorer down" }]);
  });

  it("the explorer adapter fits the interface: on a chain it has no explorer for, the store is read as it is", async () => {
    const history: HistoryProvider = new ExplorerHistory(db, () => undefined);
    const { graph, layers } = await expand(["R"], 1, { history });
    expect(names(graph)).toEqual(["R", "A", "B", "C", "X", "O"]);
    expect(layers[0]?.history.ensured).toBe(0);
  });

  it("is not called on a chain without an explorer", async () => {
    let called = 0;
    const provider: HistoryProvider = {
      hasExplorer: () => false,
      ensureCovered: async () => {
        called++;
        return { truncated: false };
      },
    };
    await expand(["R"], 2, { history: provider });
    expect(called).toBe(0);
  });
});

describe("layer by layer", () => {
  it("expanding a saved graph one layer at a time gives the graph of one expansion", async () => {
    const whole = await expand(["R"], 3);
    let graph = await createGraph(db, { chainId: 1, roots: [addr("R")], maxDepth: 3 });
    const reports = [];
    while (graph.frontier.length > 0) {
      reports.push(await expandLayer(db, graph));
      graph = graphFromJson(JSON.parse(JSON.stringify(graphToJson(graph)))); // saved and read back
    }
    expect(reports.map((r) => r.depth)).toEqual([0, 1, 2]);
    expect(graphToJson(graph)).toEqual(graphToJson(whole.graph));
  });

  it("a graph cut short by time goes on from its frontier in a later call", async () => {
    let clock = 0;
    const cut = await expand(["R"], 3, { budget: { maxMillis: 1500 }, now: () => (clock += 1000) });
    expect(cut.graph.frontier.length).toBeGreaterThan(0);
    while (cut.graph.frontier.length > 0) await expandLayer(db, cut.graph);
    const whole = await expand(["R"], 3);
    expect(graphToJson(cut.graph).nodes).toEqual(graphToJson(whole.graph).nodes);
    expect(graphToJson(cut.graph).edges).toEqual(graphToJson(whole.graph).edges);
  });
});

describe("determinism", () => {
  it("reads the same graph when the layers come as one JSON text (the PGlite form)", async () => {
    for (const [roots, chainId, options] of [
      [[addr("R"), addr("H")], 1, {}],
      [[addr("H")], HUB_CHAIN, { degreeLimit: 20 }],
      [[addr("R")], 1, { budget: { maxNodes: 7 } }],
      [[addr("R")], 1, { window: true }],
    ] as const) {
      const window = "window" in options ? { from: T0 + 2 * DAY, to: T0 + 40 * DAY } : undefined;
      const request = { chainId, roots: [...roots], maxDepth: 3, ...(window ? { window } : {}) };
      const rest = "window" in options ? {} : options;
      const plain = await expandGraph(db, request, { ...rest, jsonRows: false });
      const json = await expandGraph(db, request, { ...rest, jsonRows: true });
      expect(json.graph.edges.length).toBeGreaterThan(0);
      expect(JSON.stringify(graphToJson(json.graph))).toBe(JSON.stringify(graphToJson(plain.graph)));
    }
  });

  it("the same data gives the same graph, whatever order it was stored in and the roots were given in", async () => {
    const other = await openTestDatabase();
    try {
      await seed(other.db, "reverse");
      for (const [roots, chainId, options] of [
        [[addr("R"), addr("H")], 1, {}],
        [[addr("H")], HUB_CHAIN, { degreeLimit: 20 }],
        [[addr("R")], 1, { budget: { maxNodes: 7 } }],
      ] as const) {
        const a = await expandGraph(db, { chainId, roots: [...roots], maxDepth: 3 }, options);
        const b = await expandGraph(other.db, { chainId, roots: [...roots].reverse(), maxDepth: 3 }, options);
        expect(JSON.stringify(graphToJson(b.graph))).toBe(JSON.stringify(graphToJson(a.graph)));
      }
    } finally {
      await other.drop();
    }
  });
});
