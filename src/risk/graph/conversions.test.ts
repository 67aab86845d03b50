// Conversions read from the transfers of one transaction, in the order each protocol's contracts emit them: the
// payer and the recipient left once routers and pools net out, the edge that replaces them, the protocol's name,
// and the shapes reported as unsupported instead of dropped.
import { describe, expect, it } from "vitest";
import { addr, ETH_USD, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { DEFAULT_CONVERSION_PARAMS, readConversions } from "./conversions.ts";
import { compareEdges, indexGraph } from "./graph-index.ts";
import type { GraphEdge, TxGraph } from "./types.ts";

const contract = (b: GraphBuilder, name: string, label?: string) =>
  b.node(name, { type: "contract", isContract: true, ...(label ? { label } : {}) });

function read(graph: TxGraph) {
  const sorted = [...graph.edges].sort(compareEdges);
  return readConversions(sorted, (a) => graph.nodes.get(a), graph.chainId, DEFAULT_CONVERSION_PARAMS);
}

describe("conversions", () => {
  it("reads a Uniswap V2 ETH-for-token swap as one edge from the sender to the swap's recipient", () => {
    const b = new GraphBuilder();
    contract(b, "router", "Uniswap V2: Router 2");
    contract(b, "pair");
    // swapExactETHForTokens: the ETH to the router, its WETH to the pair, the pair's tokens to the recipient.
    b.transaction(T0, [
      { from: "alice", to: "router", usd: 5_000, token: "eth" },
      { from: "router", to: "pair", usd: 5_000, token: "weth" },
      { from: "pair", to: "bob", usd: 4_985, token: "usd" },
    ]);
    const { edges, conversions, unsupported } = read(b.build(["alice"]));
    expect(unsupported).toEqual([]);
    expect(edges).toHaveLength(1);
    expect(edges[0]).toMatchObject({ from: addr("alice"), to: addr("bob"), symbol: "USDV", usd: 4_985 });
    expect(edges[0]?.conversion?.via).toEqual(["Uniswap V2: Router 2"]);
    expect(conversions[0]).toMatchObject({ from: addr("alice"), to: addr("bob") });
    expect(conversions[0]?.given).toMatchObject([{ token: "native", symbol: "ETH", usd: 5_000 }]);
    expect(conversions[0]?.contracts).toEqual([addr("pair"), addr("router")].sort());
  });

  it("reads a Uniswap V3 exact-input swap, whose pool pays out before it is paid", () => {
    const b = new GraphBuilder();
    contract(b, "pool");
    b.transaction(T0, [
      { from: "pool", to: "alice", usd: 2_990, token: "weth" },
      { from: "alice", to: "pool", usd: 3_000, token: "usd" },
    ]);
    const { edges, conversions } = read(b.build(["alice"]));
    // A swap to oneself leaves no edge: the address still holds the value, in another form.
    expect(edges).toEqual([]);
    expect(conversions).toHaveLength(1);
    expect(conversions[0]).toMatchObject({ from: addr("alice"), to: addr("alice") });
    expect(conversions[0]?.edgeId).toBeUndefined();
    expect(conversions[0]?.via).toEqual([
      `unlisted contract ${addr("pool").slice(0, 6)}…${addr("pool").slice(-4)}`,
    ]);
  });

  it("nets an aggregator's multi-pool route to the payer and the recipient", () => {
    const b = new GraphBuilder();
    contract(b, "aggregator", "1inch v6: Aggregation Router");
    contract(b, "pool-usd-weth");
    contract(b, "pool-weth-dai");
    b.transaction(T0, [
      { from: "alice", to: "aggregator", usd: 10_000, token: "usd" },
      { from: "aggregator", to: "pool-usd-weth", usd: 10_000, token: "usd" },
      { from: "pool-usd-weth", to: "aggregator", usd: 9_970, token: "weth" },
      { from: "aggregator", to: "pool-weth-dai", usd: 9_970, token: "weth" },
      { from: "pool-weth-dai", to: "carol", usd: 9_940, token: "dai" },
    ]);
    const { edges } = read(b.build(["alice"]));
    expect(edges).toHaveLength(1);
    expect(edges[0]).toMatchObject({ from: addr("alice"), to: addr("carol"), symbol: "DAI", usd: 9_940 });
    expect(edges[0]?.conversion?.given).toMatchObject([{ symbol: "USDV", usd: 10_000 }]);
  });

  it("reads a pool the store does not know as a contract beside the transaction's sender as the protocol's", () => {
    const b = new GraphBuilder();
    b.node("router", { type: "defi", category: "defi", label: "Uniswap V2: Router 2", isContract: true });
    // The pool: unlabelled, and the store never saw it deploy code (an export without contracts.csv).
    b.transaction(T0, [
      { from: "lazarus", to: "router", usd: 20_000, token: "eth" },
      { from: "pool", to: "client", usd: 19_940, token: "usd" },
    ]);
    // Without a native leg the sender is unknown: two payers stay unsupported.
    b.transaction(T0 + 60, [
      { from: "alice", to: "router", usd: 1_000, token: "dai" },
      { from: "pool", to: "bob", usd: 998, token: "usd" },
    ]);
    const { conversions, unsupported } = read(b.build(["client"]));
    expect(conversions).toMatchObject([
      { from: addr("lazarus"), to: addr("client"), via: ["Uniswap V2: Router 2"] },
    ]);
    expect(conversions[0]?.contracts).toEqual([addr("pool"), addr("router")].sort());
    expect(unsupported).toHaveLength(1);
  });

  it("names a registered router by the registry, on its chain", () => {
    const router = "0x7a250d5630b4cf539739df2c5dacb4c659f2488d";
    const b = new GraphBuilder();
    contract(b, "pair");
    const legs = b.transaction(T0, [
      { from: "alice", to: "pair", usd: 1_000, token: "eth" },
      { from: "pair", to: "bob", usd: 998, token: "usd" },
    ]);
    (legs[0] as GraphEdge).to = router;
    const extra: GraphEdge = {
      ...(legs[0] as GraphEdge),
      id: `${legs[0]?.txHash}:9`,
      logIndex: 9,
      token: "0xweth",
    };
    extra.from = router;
    extra.to = addr("pair");
    extra.symbol = "WETH";
    b.edges.push(extra);
    const graph = b.build(["alice"]);
    expect(read(graph).conversions[0]?.via).toEqual(["Uniswap V2"]);
    // The same address on a chain where the registry does not list it is not named (nor, unknown to the store
    // as a contract, taken for an intermediary).
    expect(read({ ...graph, chainId: 137 }).conversions).toEqual([]);
  });

  it("reads a Curve exchange and a mint through the zero address", () => {
    const b = new GraphBuilder();
    contract(b, "curve", "Curve.fi: DAI/USDC/USDT Pool");
    b.transaction(T0, [
      { from: "alice", to: "curve", usd: 50_000, token: "dai" },
      { from: "curve", to: "alice", usd: 49_990, token: "usd" },
    ]);
    b.transaction(T0 + 60, [
      { from: "alice", to: "curve", usd: 1_000, token: "usd" },
      { from: "0x0000000000000000000000000000000000000000", to: "alice", usd: 1_000, token: "weth" },
    ]);
    const { conversions, unsupported } = read(b.build(["alice"]));
    expect(unsupported).toEqual([]);
    expect(conversions.map((c) => c.via)).toEqual([
      ["Curve.fi: DAI/USDC/USDT Pool"],
      ["Curve.fi: DAI/USDC/USDT Pool"],
    ]);
  });

  it("reports what does not read as one payer and one recipient, and leaves its transfers as they are", () => {
    const b = new GraphBuilder();
    contract(b, "pool");
    const twoPayers = b.transaction(T0, [
      { from: "alice", to: "pool", usd: 1_000, token: "usd" },
      { from: "bob", to: "pool", usd: 1_000, token: "dai" },
      { from: "pool", to: "carol", usd: 2_000, token: "weth" },
    ]);
    const offPrice = b.transaction(T0 + 60, [
      { from: "alice", to: "pool", usd: 1_000, token: "usd" },
      { from: "pool", to: "alice", usd: 400, token: "weth" },
    ]);
    const { edges, conversions, unsupported } = read(b.build(["alice"]));
    expect(conversions).toEqual([]);
    expect(edges).toHaveLength(5);
    expect(unsupported.map((u) => u.txHash)).toEqual([twoPayers[0]?.txHash, offPrice[0]?.txHash].sort());
    const [first, second] = [...unsupported].sort((x, y) => x.at - y.at);
    expect(first?.reason).toContain("2 payer(s) and 1 recipient(s)");
    expect(second?.reason).toContain("slippage tolerance");
    expect(first?.parties).toEqual([addr("alice"), addr("bob"), addr("carol")].sort());
  });

  it("leaves alone a batch of payments and a route of one asset", () => {
    const b = new GraphBuilder();
    contract(b, "disperse");
    b.transaction(T0, [
      { from: "employer", to: "disperse", usd: 3 * ETH_USD, token: "eth" },
      { from: "disperse", to: "ann", usd: ETH_USD, token: "eth" },
      { from: "employer", to: "ben", usd: 100, token: "usd" },
    ]);
    b.transaction(T0 + 60, [
      { from: "alice", to: "disperse", usd: 500, token: "usd" },
      { from: "disperse", to: "bob", usd: 500, token: "usd" },
    ]);
    const graph = b.build(["employer"]);
    const { edges, conversions } = read(graph);
    expect(conversions).toEqual([]);
    expect(edges).toHaveLength(graph.edges.length);
  });

  it("accepts a slippage up to the tolerance and not beyond", () => {
    const at = (received: number) => {
      const b = new GraphBuilder();
      contract(b, "pool");
      b.transaction(T0, [
        { from: "alice", to: "pool", usd: 1_000, token: "usd" },
        { from: "pool", to: "bob", usd: received, token: "weth" },
      ]);
      return read(b.build(["alice"])).conversions.length;
    };
    expect(at(901)).toBe(1);
    expect(at(900)).toBe(1);
    expect(at(899)).toBe(0);
  });

  it("gives the index the conversion edge in place of the swap's transfers", () => {
    const b = new GraphBuilder();
    contract(b, "pair");
    b.transaction(T0, [
      { from: "alice", to: "pair", usd: 1_000, token: "eth" },
      { from: "pair", to: "bob", usd: 995, token: "usd" },
    ]);
    const index = indexGraph(b.build(["alice"]));
    expect(index.outOf(addr("alice")).map((e) => e.to)).toEqual([addr("bob")]);
    expect(index.inOf(addr("pair"))).toEqual([]);
    expect(index.conversions).toHaveLength(1);
  });
});
