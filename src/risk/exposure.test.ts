// Exposure by category, hop, direction, share and USD, with counterparties and transactions as evidence; funds
// traced only along time-respecting paths and never through services, in proportion to what each intermediary
// passes on (haircut taint); where the mixing pattern and the critical level begin.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, HOUR, shuffled, T0 } from "../../test/support/graph-builder.ts";
import { DEFAULT_EXPOSURE_PARAMS, type ExposureEntry, exposureOf } from "./exposure.ts";
import { analyseGraph } from "./scoring/analyse.ts";
import { RISK_LEVELS } from "./scoring/levels.ts";

const sanctioned = (b: GraphBuilder) =>
  b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });

const find = (entries: ExposureEntry[], category: string, direction: string) =>
  entries.filter((e) => e.category === category && e.direction === direction);

describe("exposure", () => {
  it("reports direct incoming exposure with USD, share, counterparties and transactions", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    const tainted = b.send("lazarus", "root", 3_000, T0);
    b.send("employer", "root", 9_000, T0 + DAY);
    b.send("root", "shop", 500, T0 + 2 * DAY);
    const exposure = exposureOf(b.build(["root"]), addr("root"));
    expect(exposure.incomingUsd).toBe(12_000);
    expect(exposure.outgoingUsd).toBe(500);
    const [entry] = find(exposure.entries, "sanctioned", "incoming");
    expect(entry).toMatchObject({
      hops: 1,
      usd: 3_000,
      share: 0.25,
      counterparties: [
        { address: addr("lazarus"), label: "OFAC SDN: Lazarus Group", category: "sanctioned" },
      ],
      via: [],
      txs: [tainted.txHash],
      transfers: 1,
    });
    expect(find(exposure.entries, "sanctioned", "outgoing")).toEqual([]);
  });

  it("reports indirect exposure at 3 hops with the intermediaries, bounded by both ends", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    b.send("lazarus", "hop1", 10_000, T0);
    b.send("hop1", "hop2", 9_000, T0 + DAY);
    b.send("hop2", "root", 4_000, T0 + 2 * DAY);
    b.send("friend", "root", 4_000, T0 + 2 * DAY);
    const exposure = exposureOf(b.build(["root"]), addr("root"));
    const [entry] = find(exposure.entries, "sanctioned", "incoming");
    expect(entry).toMatchObject({ hops: 3, usd: 4_000, share: 0.5, rootUsd: 4_000, counterpartyUsd: 10_000 });
    expect(entry?.via).toEqual([addr("hop1"), addr("hop2")].sort());
    expect(entry?.txs).toHaveLength(3);
  });

  it("reports outgoing exposure to illicit addresses", () => {
    const b = new GraphBuilder();
    b.node("scammer", { type: "illicit", category: "illicit", label: "Phishing: fake airdrop" });
    b.send("root", "mule", 2_000, T0);
    b.send("mule", "scammer", 1_500, T0 + HOUR);
    b.send("root", "shop", 2_000, T0);
    const [entry] = find(exposureOf(b.build(["root"]), addr("root")).entries, "illicit", "outgoing");
    expect(entry).toMatchObject({ hops: 2, usd: 1_500, share: 0.375 });
  });

  it("does not trace funds backwards in time", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    b.send("hop1", "root", 1_000, T0);
    b.send("lazarus", "hop1", 10_000, T0 + DAY);
    const exposure = exposureOf(b.build(["root"]), addr("root"));
    expect(find(exposure.entries, "sanctioned", "incoming")).toEqual([]);
    const timeless = exposureOf(b.build(["root"]), addr("root"), {
      ...DEFAULT_EXPOSURE_PARAMS,
      timeRespecting: false,
    });
    expect(find(timeless.entries, "sanctioned", "incoming")).toHaveLength(1);
  });

  it("does not trace through a service (an exchange pools its customers' funds)", () => {
    const b = new GraphBuilder();
    sanctioned(b);
    b.exchange("hot", "Bitso: hot wallet");
    b.send("lazarus", "hot", 10_000, T0);
    b.send("hot", "root", 1_000, T0 + DAY);
    const exposure = exposureOf(b.build(["root"]), addr("root"));
    expect(find(exposure.entries, "sanctioned", "incoming")).toEqual([]);
    expect(find(exposure.entries, "exchange", "incoming")[0]).toMatchObject({
      hops: 1,
      usd: 1_000,
      share: 1,
    });
  });

  it("reports the address's own label, and orders entries riskiest first, deterministically", () => {
    const b = new GraphBuilder();
    b.node("root", { type: "illicit", category: "blocklisted", label: "USDT blacklist" });
    b.exchange("hot");
    sanctioned(b);
    b.send("hot", "root", 1_000, T0);
    b.send("lazarus", "root", 1_000, T0);
    const graph = b.build(["root"]);
    const exposure = exposureOf(graph, addr("root"));
    expect(exposure.entries.map((e) => [e.category, e.direction, e.hops])).toEqual([
      ["sanctioned", "incoming", 1],
      ["blocklisted", "self", 0],
      ["exchange", "incoming", 1],
    ]);
    expect(exposureOf(shuffled(graph, 9), addr("root"))).toEqual(exposure);
  });
});

describe("exposure that follows the money (haircut taint)", () => {
  const mixer = (b: GraphBuilder) =>
    b.node("pool", { type: "mixer", category: "mixer", label: "Tornado.Cash: 100 ETH", isContract: true });

  /**
   * A user pays USD 101 to a busy address with thousands of customers, which a week later deposits USD 816,412
   * into a mixer among its other, larger payments: its own money, pooled from everyone.
   */
  function busyHub() {
    const b = new GraphBuilder();
    mixer(b);
    b.send("employer", "user", 1_000, T0 - 5 * DAY);
    b.send("user", "busy", 101, T0);
    b.send("user", "shop", 400, T0 + HOUR);
    for (let c = 0; c < 2_000; c++) b.send(`customer${c}`, "busy", 1_000, T0 - 10 * DAY + c * 60);
    b.send("busy", "pool", 816_412, T0 + 7 * DAY);
    b.send("busy", "supplier", 1_200_000, T0 + 8 * DAY);
    return b.build(["user"]);
  }

  it("traces a payment to a busy address that later mixed its own money only in proportion", () => {
    const [entry] = find(exposureOf(busyHub(), addr("user")).entries, "mixer", "outgoing");
    // 816,412 of the hub's 2,016,412 sent in the next 30 days went to the mixer: 40.5 % of the user's USD 101.
    expect(entry).toMatchObject({ hops: 2, usd: 40.89, rootUsd: 101, counterpartyUsd: 816_412 });
    expect(entry?.share).toBeCloseTo(40.89 / 501, 4);
  });

  it("does not make that payment the mixing pattern, nor score it above low", () => {
    const a = analyseGraph(busyHub(), addr("user"));
    expect(a.patterns).not.toContain("mixing");
    expect(RISK_LEVELS.indexOf(a.level)).toBeLessThanOrEqual(RISK_LEVELS.indexOf("low"));
    expect(a.reason).toContain("to a mixer address 2 hops away");
  });

  it("makes funds sent through one fresh forwarder into a mixer the mixing pattern", () => {
    const b = new GraphBuilder();
    mixer(b);
    b.send("employer", "user", 30_000, T0 - 5 * DAY);
    b.send("user", "fresh", 25_000, T0);
    b.send("fresh", "pool", 25_000, T0 + HOUR);
    const a = analyseGraph(b.build(["user"]), addr("user"));
    expect(a.patterns).toContain("mixing");
    const finding = a.findings.find((f) => f.pattern === "mixing");
    expect(finding?.thresholds).toMatchObject({ hops: 2, tracedFraction: 1, minTracedFraction: 0.5 });
    expect(finding?.message).toContain(
      "100% of it, USD 25,000, traced into Tornado.Cash: 100 ETH 2 hops away",
    );
  });

  it("crosses the critical line at a traced share of 50 % of received funds from a sanctioned address", () => {
    // The user's income: the intermediary's payment (all of it traced to Lazarus) and a clean salary.
    const score = (tracedUsd: number) => {
      const b = new GraphBuilder();
      sanctioned(b);
      b.send("lazarus", "middle", 100_000, T0 - DAY);
      b.send("middle", "user", tracedUsd, T0);
      b.send("employer", "user", 10_000 - tracedUsd, T0);
      return analyseGraph(b.build(["user"]), addr("user"));
    };
    expect(score(4_900).level).toBe("high");
    expect(score(5_000).level).toBe("critical");
    expect(score(5_000).score).toBe(87); // the foot of the 2-hop band, 87-92 (docs/decisions/0011)
    expect(score(4_900).score).toBeLessThan(80);
  });
});
