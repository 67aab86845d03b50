// A bridge crossing in the graph index: the deposit's payment into the bridge and the relayer's payment to the
// recipient give way to the crossing's edge (the value is counted once), and the other transfers of those
// transactions (a batch that also pays somebody else) stay.
import { describe, expect, it } from "vitest";
import { addr, DAY, GraphBuilder, T0 } from "../../../test/support/graph-builder.ts";
import { exposureOf } from "../exposure.ts";
import { chainKey, splitChainKey } from "./chain-keys.ts";
import { indexGraph } from "./graph-index.ts";
import type { GraphEdge } from "./types.ts";

const OTHER_CHAIN = 8453;

/** `depositor` deposits `usd` into the bridge on chain 1 (in a batch that also pays `alsoPaid`); it reaches `to`. */
function crossing(b: GraphBuilder, depositor: string, to: string, usd: number, alsoPaid?: string) {
  b.node("spokepool", { type: "bridge", category: "bridge", label: "Across: SpokePool", isContract: true });
  const legs = [{ from: depositor, to: "spokepool", usd, token: "usd" as const }];
  if (alsoPaid) legs.push({ from: depositor, to: alsoPaid, usd: 7_000, token: "usd" as const });
  const [deposit] = b.transaction(T0 + DAY, legs) as [GraphEdge, ...GraphEdge[]];
  const [fill] = b.transaction(T0 + DAY + 60, [{ from: "relayer", to, usd, token: "usd" }]) as [GraphEdge];
  const edge: GraphEdge = {
    ...fill,
    id: "bridge:across:1:7",
    from: addr(depositor),
    bridge: {
      protocol: "Across",
      fromChainId: 1,
      toChainId: OTHER_CHAIN,
      depositTx: deposit.txHash,
      given: { token: deposit.token, symbol: "USDV", decimals: 6, value: deposit.value, usd },
    },
  };
  b.edges.push(edge);
  return edge;
}

describe("bridge crossings in the graph index", () => {
  it("stands for the deposit into the bridge and the relayer's payment, not for the batch's other transfers", () => {
    const b = new GraphBuilder();
    b.node("lazarus", { type: "sanctioned", category: "sanctioned", label: "OFAC SDN: Lazarus Group" });
    b.send("lazarus", "launderer", 20_000, T0);
    crossing(b, "launderer", "client", 10_000, "lazarus");
    const index = indexGraph(b.build(["client"]));
    const kinds = index.edges.map((e) => [e.from, e.to, e.bridge ? "crossing" : "transfer"]);
    expect(kinds).toEqual([
      [addr("lazarus"), addr("launderer"), "transfer"],
      // The batch's payment back to the sanctioned address stays; the deposit into the SpokePool does not.
      [addr("launderer"), addr("lazarus"), "transfer"],
      [addr("launderer"), addr("client"), "crossing"],
    ]);
    // The client received 10,000 once, over the bridge, from funds traced to the sanctioned address.
    const exposure = exposureOf(b.build(["client"]), addr("client"));
    expect(exposure.incomingUsd).toBe(10_000);
    expect(exposure.entries.find((e) => e.category === "sanctioned")).toMatchObject({
      hops: 2,
      bridges: [`Across, chain 1 to ${OTHER_CHAIN}`],
    });
  });

  it("keys an address of another chain with its chain, and the graph's own chain plainly", () => {
    expect(chainKey("0xabc", 1, 1)).toBe("0xabc");
    expect(chainKey("0xabc", 8453, 1)).toBe("0xabc@8453");
    expect(splitChainKey("0xabc@8453", 1)).toEqual({ address: "0xabc", chainId: 8453 });
    expect(splitChainKey("0xabc", 1)).toEqual({ address: "0xabc", chainId: 1 });
  });
});
