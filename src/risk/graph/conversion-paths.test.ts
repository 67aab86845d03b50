// Exposure and patterns across conversions: a swap sent by a sanctioned address with the client as recipient is
// direct exposure; a swap on the way is not a hop; a peel chain goes on in the stablecoin it was swapped into; a
// trader who swaps on a DEX every day is not made risky by it.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, T0 } from "../../../test/support/graph-builder.ts";
import { analyseGraph } from "../scoring/analyse.ts";

const sanctioned = (b: GraphBuilder) =>
  b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });
const dex = (b: GraphBuilder) => {
  b.node("router", { type: "defi", category: "defi", label: "Uniswap V2: Router 2", isContract: true });
  b.node("pair", { type: "contract", isContract: true });
};

/** `payer` swaps `usd` of ETH for the stablecoin, paid to `recipient`, through the router and the pair. */
function swap(b: GraphBuilder, payer: string, recipient: string, usd: number, at: number) {
  return b.transaction(at, [
    { from: payer, to: "router", usd, token: "eth" },
    { from: "router", to: "pair", usd, token: "weth" },
    { from: "pair", to: recipient, usd: Math.round(usd * 0.997), token: "usd" },
  ]);
}

describe("exposure across conversions", () => {
  it("is direct when a sanctioned address swaps with the client as the swap's recipient", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    dex(b);
    swap(b, "lazarus", "client", 20_000, T0);
    b.send("employer", "client", 3_000, T0 + DAY);
    const a = analyseGraph(b.build(["client"]), addr("client"));
    const entry = a.exposure.entries.find((e) => e.category === "sanctioned");
    expect(entry).toMatchObject({ direction: "incoming", hops: 1, conversions: ["Uniswap V2: Router 2"] });
    expect(a.level).toBe("critical");
    expect(a.reason).toContain("directly from a sanctioned address");
    expect(a.reason).toContain("converted via Uniswap V2: Router 2");
  });

  for (const hopsAway of [1, 2, 3]) {
    it(`follows value swapped by an intermediary, ${hopsAway} hop(s) from the sanctioned address`, () => {
      const b = new GraphBuilder(4);
      sanctioned(b);
      dex(b);
      // lazarus -> m1 -> ... -> m{k}, then m{k} swaps to the client: the swap adds no hop.
      let previous = "lazarus";
      for (let k = 1; k < hopsAway; k++) {
        b.send(previous, `m${k}`, 30_000, T0 + k * HOUR, { token: "eth" });
        previous = `m${k}`;
      }
      if (hopsAway === 1) swap(b, "lazarus", "client", 30_000, T0 + 10 * HOUR);
      else swap(b, previous, "client", 29_000, T0 + 10 * HOUR);
      const a = analyseGraph(b.build(["client"]), addr("client"));
      const entry = a.exposure.entries.find((e) => e.category === "sanctioned" && e.direction === "incoming");
      expect(entry?.hops).toBe(hopsAway);
      expect(entry?.conversions).toEqual(["Uniswap V2: Router 2"]);
      expect(a.exposure.entries.some((e) => e.category === "defi")).toBe(false);
    });
  }
});

describe("patterns across conversions", () => {
  /** A peel chain of four hops from `root`; the value is swapped to the stablecoin at hop `swapAt`. */
  function peelChain(swapAt: 1 | 2, form: "to-next" | "to-self") {
    const b = new GraphBuilder(4);
    dex(b);
    b.send("source", "root", 40_000, T0, { token: "eth" });
    let amount = 40_000;
    let token: "eth" | "usd" = "eth";
    const hops = ["root", "h1", "h2", "h3"];
    for (let i = 0; i < 3; i++) {
      const at = T0 + (i + 1) * 6 * HOUR;
      const from = hops[i] as string;
      const next = hops[i + 1] as string;
      const forward = Math.round(amount * 0.9);
      const peel = Math.round(amount * 0.08);
      b.send(from, `peel${i}`, peel, at, { token });
      if (i + 1 === swapAt && form === "to-next") {
        swap(b, from, next, forward, at + 60);
        amount = Math.round(forward * 0.997);
      } else if (i + 1 === swapAt) {
        swap(b, from, from, forward, at + 60);
        b.send(from, next, Math.round(forward * 0.99), at + 120);
        amount = Math.round(forward * 0.99);
      } else {
        b.send(from, next, forward, at + 60, { token });
        amount = forward;
      }
      if (i + 1 === swapAt) token = "usd";
    }
    b.send("h3", "end", Math.round(amount * 0.9), T0 + 30 * HOUR);
    b.send("h3", "peel3", Math.round(amount * 0.05), T0 + 30 * HOUR);
    return analyseGraph(b.build(["root"]), addr("root"));
  }

  for (const swapAt of [1, 2] as const) {
    for (const form of ["to-next", "to-self"] as const) {
      it(`finds a peel chain swapped to a stablecoin at hop ${swapAt} (${form})`, () => {
        const a = peelChain(swapAt, form);
        const finding = a.findings.find((f) => f.pattern === "peel_chain");
        expect(finding, a.reason).toBeDefined();
        expect(finding?.actors).toContain(addr("root"));
        expect(a.patterns).toContain("peel_chain");
      });
    }
  }

  it("leaves a DEX trader who swaps back and forth every day at minimal", () => {
    const b = new GraphBuilder(2);
    dex(b);
    b.exchange("binance", "Binance 14");
    b.send("binance", "trader", 5_000, T0, { token: "eth" });
    for (let d = 0; d < 20; d++) {
      const at = T0 + d * DAY + HOUR;
      if (d % 2 === 0) swap(b, "trader", "trader", 2_000 + d * 37, at);
      else
        b.transaction(at, [
          { from: "trader", to: "pair", usd: 1_900 + d * 11, token: "usd" },
          { from: "pair", to: "router", usd: 1_890 + d * 11, token: "weth" },
          { from: "router", to: "trader", usd: 1_890 + d * 11, token: "eth" },
        ]);
    }
    b.send("trader", "binance", 4_000, T0 + 21 * DAY, { token: "eth" });
    const a = analyseGraph(b.build(["trader"]), addr("trader"));
    expect(a.level).toBe("minimal");
    expect(a.patterns).toEqual([]);
  });
});
