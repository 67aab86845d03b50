// The value-proportional projection of a Bitcoin transaction into transfers: each input pays each output its share,
// change to an input's own address is no transfer, parts without an address count, a coinbase gives none, and a
// CoinJoin or a transaction of too many pairs goes through a node of its own.
import { describe, expect, it } from "vitest";
import { MAX_PAIRS, projectTransaction } from "./project.ts";

const base = { hash: "ab".repeat(32), block: "100", time: "2024-01-01T00:00:00.000Z", coinbase: false };

describe("projecting a Bitcoin transaction", () => {
  it("splits each input over the outputs in proportion to value, fee aside", () => {
    // 3,000 + 1,000 in; 2,500 to x and 1,400 back to b (change); 100 of fee.
    const { transfers, withoutAddress } = projectTransaction({
      ...base,
      inputs: [
        { address: "a", value: 3_000n },
        { address: "b", value: 1_000n },
      ],
      outputs: [
        { address: "x", value: 2_500n },
        { address: "b", value: 1_400n },
      ],
    });
    expect(transfers.map((t) => [t.from, t.to, t.value, t.logIndex])).toEqual([
      ["a", "x", "1875", 0],
      ["a", "b", "1050", 1],
      ["b", "x", "625", 2],
      // b -> b: change to its own address, no transfer.
    ]);
    expect(withoutAddress).toBe(0);
    expect(transfers[0]).toMatchObject({ token: "native", txHash: base.hash, block: "100", time: base.time });
  });

  it("sums an address's inputs and outputs: four coins of one address spent together are one payment", () => {
    // Four coins of `a` (each near a threshold) into one payment to `x`, with change to `c`; `x` paid twice.
    const { transfers } = projectTransaction({
      ...base,
      inputs: [
        { address: "a", value: 950n },
        { address: "b", value: 200n },
        { address: "a", value: 940n },
        { address: "a", value: 960n },
        { address: "a", value: 950n },
      ],
      outputs: [
        { address: "x", value: 2_500n },
        { address: "c", value: 400n },
        { address: "x", value: 1_000n },
      ],
    });
    // a: 3,800 of the 4,000 in; x: 3,500 of the 3,900 out; 100 of fee. Rows at a's first input and x's first output.
    expect(transfers.map((t) => [t.from, t.to, t.value, t.logIndex])).toEqual([
      ["a", "x", "3325", 0],
      ["a", "c", "380", 1],
      ["b", "x", "175", 3],
      ["b", "c", "20", 4],
    ]);
  });

  it("counts parts without an address, which still take their share of the sums", () => {
    const { transfers, withoutAddress } = projectTransaction({
      ...base,
      inputs: [
        { address: "a", value: 1_000n },
        { address: null, value: 1_000n },
      ],
      outputs: [
        { address: "x", value: 1_000n },
        { address: null, value: 900n },
      ],
    });
    expect(transfers.map((t) => [t.from, t.to, t.value])).toEqual([["a", "x", "500"]]);
    expect(withoutAddress).toBe(2);
  });

  it("gives no transfer for a coinbase", () => {
    expect(
      projectTransaction({ ...base, coinbase: true, inputs: [], outputs: [{ address: "m", value: 5n }] }),
    ).toEqual({
      transfers: [],
      withoutAddress: 0,
    });
  });

  it("sends a CoinJoin through a node of its own, and a transaction of more than MAX_PAIRS pairs through another", () => {
    const tx = {
      ...base,
      inputs: [
        { address: "a", value: 1_000_100n },
        { address: "b", value: 1_000_000n },
      ],
      outputs: [
        { address: "x", value: 1_000_000n },
        { address: "y", value: 1_000_000n },
      ],
    };
    const mix = projectTransaction(tx, { kind: "whirlpool", confidence: "high", reason: "5 by 5" });
    const hub = `coinjoin:${base.hash}`;
    expect(mix.through).toBe(hub);
    // Each input pays the node its value less its share of the 100 sats of fee (rounded down); the node pays each
    // output.
    expect(mix.transfers.map((t) => [t.from, t.to, t.value, t.logIndex])).toEqual([
      ["a", hub, "1000049", 0],
      ["b", hub, "999950", 1],
      [hub, "x", "1000000", 2],
      [hub, "y", "1000000", 3],
    ]);
    // A Stonewall or a tx0 is one wallet's (or looks it): projected as any spend.
    expect(
      projectTransaction(tx, { kind: "stonewall", confidence: "medium", reason: "" }).through,
    ).toBeUndefined();
    const many = Array.from({ length: 101 }, (_, i) => ({ address: `p${i}`, value: 1_000n }));
    expect(MAX_PAIRS).toBeLessThan(101 * 101);
    const large = projectTransaction({ ...base, inputs: many, outputs: many });
    expect(large.through).toBe(`tx:${base.hash}`);
    expect(large.transfers).toHaveLength(202);
  });
});
