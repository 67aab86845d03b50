// A verdict's bridge gaps: in a batch, only those near its root, and its own first, so that a cut list of a busy
// neighbourhood's gaps still names the root's.
import { describe, expect, it } from "vitest";
import { nearestBridgeGaps, withBridgeGaps } from "./coverage.ts";
import type { BridgeGap } from "./graph/index.ts";

const gap = (address: string, reason: BridgeGap["reason"] = "other-leg-not-found"): BridgeGap => ({
  protocol: "Across",
  direction: "out",
  address,
  chainId: 1,
  txHash: `0x${address.slice(2).padStart(64, "0")}`,
  otherRef: "chain:10",
  otherChainId: 10,
  reason,
});

describe("bridge gaps of a verdict", () => {
  it("keeps those within the depth in a batch, nearest first, in their order at the same distance", () => {
    const gaps = ["0xa3", "0xa1", "0xroot", "0xfar", "0xa2"].map((a) => gap(a));
    const distances = new Map([
      ["0xroot", 0],
      ["0xa1", 1],
      ["0xa2", 2],
      ["0xa3", 1],
      ["0xfar", 4],
    ]);
    expect(nearestBridgeGaps(gaps, distances, 3).map((g) => g.address)).toEqual([
      "0xroot",
      "0xa3",
      "0xa1",
      "0xa2",
    ]);
    // One root's graph: every gap, nearest first (an address the index does not reach last).
    expect(
      nearestBridgeGaps([gap("0xnowhere"), ...gaps], distances, undefined).map((g) => g.address),
    ).toEqual(["0xroot", "0xa3", "0xa1", "0xa2", "0xfar", "0xnowhere"]);
  });

  it("names the root's own gap in a list cut at twenty", () => {
    const neighbours = Array.from({ length: 25 }, (_, i) => gap(`0xn${i}`, "chain-not-indexed"));
    const distances = new Map<string, number>([
      ["0xroot", 0],
      ...neighbours.map((g) => [g.address, 2] as const),
    ]);
    const near = nearestBridgeGaps([...neighbours, gap("0xroot")], distances, 3);
    const coverage = withBridgeGaps({ note: "Imported." } as never, near);
    expect(coverage.bridgeGaps).toHaveLength(20);
    expect(coverage.bridgeGaps?.[0]?.address).toBe("0xroot");
    expect(coverage.note).toBe(
      "Imported. 26 bridge crossings could not be followed to the other chain (25 to or from a chain this service " +
        "does not index); value is not traced across them.",
    );
  });
});
