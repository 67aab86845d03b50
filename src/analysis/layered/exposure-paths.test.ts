// The exposure a layer carries: the risk core's exposure entries as paths (the labelled addresses, the
// intermediaries, the transactions), the one the score rests on marked.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { analyseGraph } from "../../risk/index.ts";
import { layerExposure } from "./exposure-paths.ts";

describe("layerExposure", () => {
  it("gives the path from a sanctioned address three hops away, and marks it as the score's", () => {
    const b = new GraphBuilder(4);
    b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });
    const txs = [
      b.send("lazarus", "hop1", 10_000, T0),
      b.send("hop1", "hop2", 9_000, T0 + DAY),
      b.send("hop2", "root", 8_000, T0 + 2 * DAY),
    ].map((e) => e.txHash);
    b.exchange("binance");
    b.send("root", "binance", 500, T0 + 3 * DAY);
    const risk = analyseGraph(b.build(["root"]), addr("root"));
    const exposure = layerExposure(risk.exposure, risk.contributions);

    const sanctioned = exposure.find((e) => e.category === "sanctioned");
    expect(sanctioned).toEqual({
      category: "sanctioned",
      direction: "incoming",
      hops: 3,
      usd: expect.any(Number),
      share: expect.any(Number),
      counterparties: [{ address: addr("lazarus"), label: "OFAC SDN: Lazarus Group" }],
      via: [addr("hop1"), addr("hop2")].sort(),
      txHashes: [...txs].sort(),
      drivesScore: true,
    });
    // Every entry is there, riskiest first; only one drives the score.
    expect(exposure.map((e) => e.category)).toEqual(["sanctioned", "exchange"]);
    expect(exposure.filter((e) => e.drivesScore)).toHaveLength(1);
  });

  it("marks unsolicited dust as such, as the wallet verdict does, and scores it at most low", () => {
    const b = new GraphBuilder(3);
    b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });
    b.send("employer", "root", 4_775, T0 - 5 * DAY);
    b.send("lazarus", "root", 2.39, T0);
    const risk = analyseGraph(b.build(["root"]), addr("root"));
    const exposure = layerExposure(risk.exposure, risk.contributions);
    expect(exposure.find((e) => e.category === "sanctioned")).toMatchObject({
      direction: "incoming",
      hops: 1,
      usd: 2.39,
      unsolicited: true,
    });
    // Only dust carries the mark; it is absent, not false, elsewhere (the API adds the field only when true).
    expect(exposure.filter((e) => "unsolicited" in e).map((e) => e.category)).toEqual(["sanctioned"]);
    expect(risk.level).toBe("low");
  });

  it("is empty without exposure", () => {
    const b = new GraphBuilder();
    b.send("root", "friend", 100, T0);
    const risk = analyseGraph(b.build(["root"]), addr("root"));
    expect(layerExposure(risk.exposure, risk.contributions)).toEqual([]);
  });
});
