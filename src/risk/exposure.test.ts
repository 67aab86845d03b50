// Exposure by category, hop, direction, share and USD, with counterparties and transactions as evidence; funds
// traced only along time-respecting paths and never through services.
import { describe, expect, it } from "vitest";
import { DEFAULT_EXPOSURE_PARAMS, type ExposureEntry, exposureOf } from "./exposure.ts";
import { addr, DAY, GraphBuilder, HOUR, shuffled, T0 } from "./testing/graph-builder.ts";

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
