// Each CoinJoin fingerprint on a round of its shape and on the look-alikes that must not match: an exchange's batch
// payout, a consolidation, a payroll of equal salaries, a payment with change, and each implementation's shape
// taken one rule too far (a sixth remix in Whirlpool, a round value in Wasabi 1, unordered outputs in WabiSabi, a
// JoinMarket round with a stray output).
import { describe, expect, it } from "vitest";
import { detectCoinJoin, WABISABI_DENOMINATIONS } from "./coinjoin.ts";
import type { ScriptKind, UtxoPart, UtxoTx } from "./types.ts";

let next = 0;
const part = (value: bigint | number, script: ScriptKind = "p2wpkh", address?: string | null): UtxoPart => ({
  address: address === undefined ? `bc1q${(next++).toString(36).padStart(8, "0")}` : address,
  value: BigInt(value),
  script,
});
const tx = (inputs: UtxoPart[], outputs: UtxoPart[]): UtxoTx => ({ txid: `t${next++}`, inputs, outputs });
const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));
const BTC = 100_000_000;

describe("CoinJoin fingerprints", () => {
  it("knows WabiSabi's standard denominations", () => {
    for (const v of [
      5_000n,
      8_192n,
      6_561n,
      13_122n,
      10_000n,
      20_000n,
      50_000n,
      1_000_000n,
      137_438_953_472n,
    ]) {
      expect(WABISABI_DENOMINATIONS.has(v)).toBe(true);
    }
    for (const v of [4_096n, 7_000n, 12_345n, 30_000n]) expect(WABISABI_DENOMINATIONS.has(v)).toBe(false);
  });

  it("reads a Whirlpool mix: 5 outputs of the pool's denomination, entrants with the fee allowance, remixes", () => {
    const pool = 1_000_000;
    const round = tx(
      [part(pool + 12_345), part(pool + 8_000), part(pool), part(pool), part(pool)],
      times(5, () => part(pool)),
    );
    expect(detectCoinJoin(round)).toMatchObject({ kind: "whirlpool", confidence: "high" });
    // Surge cycles: 8 by 8.
    expect(
      detectCoinJoin(
        tx(
          [...times(2, () => part(pool + 5_000)), ...times(6, () => part(pool))],
          times(8, () => part(pool)),
        ),
      ),
    ).toMatchObject({ kind: "whirlpool" });
    // Five remixes and no entrant, or an entrant beyond the allowance: not a Whirlpool mix.
    expect(
      detectCoinJoin(
        tx(
          times(5, () => part(pool)),
          times(5, () => part(pool)),
        ),
      )?.kind,
    ).not.toBe("whirlpool");
    expect(
      detectCoinJoin(
        tx(
          [part(pool + 200_000), ...times(4, () => part(pool))],
          times(5, () => part(pool)),
        ),
      )?.kind,
    ).not.toBe("whirlpool");
  });

  it("reads a Whirlpool tx0: premixes, an OP_RETURN, a fee and change; its inputs are one wallet's", () => {
    const premix = 5_000_000 + 9_000;
    const tx0 = tx(
      [part(60_000_000)],
      [...times(10, () => part(premix)), part(0, "op_return", null), part(175_000), part(9_700_000)],
    );
    expect(detectCoinJoin(tx0)).toMatchObject({ kind: "whirlpool-tx0", confidence: "medium" });
  });

  it("reads a WabiSabi round by its denominations and order, and by its shape alone", () => {
    const denominations = [...WABISABI_DENOMINATIONS].filter((v) => v > 10_000n && v < 50_000_000n);
    const outputs = times(60, (i) => part(denominations[(i * 7) % denominations.length] as bigint))
      .concat([part(123_457)])
      .sort((a, b) => (a.value > b.value ? -1 : a.value < b.value ? 1 : 0));
    const inputs = times(40, (i) => part(90_000_000 - i * 1_000_000, i % 3 === 0 ? "p2tr" : "p2wpkh"));
    expect(detectCoinJoin(tx(inputs, outputs))).toMatchObject({ kind: "wabisabi", confidence: "high" });
    // Shuffled: not signed by the coordinator's order; the shape still reads, with less confidence.
    const shuffled = [...outputs].sort((a, b) => (a.address as string).localeCompare(b.address as string));
    expect(detectCoinJoin(tx(inputs, shuffled))).toMatchObject({ kind: "wabisabi", confidence: "medium" });
    // 20 inputs of one address (a consolidation into many outputs): no.
    expect(
      detectCoinJoin(
        tx(
          times(20, () => part(1_000_000, "p2wpkh", "bc1qsame")),
          shuffled,
        ),
      ),
    ).toBeUndefined();
  });

  it("reads a Wasabi 1 round: many equal outputs of about 0.1 BTC, change and a fee, all native segwit", () => {
    const base = 9_974_210;
    const round = tx(
      times(60, (i) => part(base + 100_000 + i * 12_345)),
      [...times(50, () => part(base)), ...times(8, (i) => part(50_000 + i * 7_777)), part(1_496_131)],
    );
    expect(detectCoinJoin(round)).toMatchObject({ kind: "wasabi-1", confidence: "high" });
    // Fifty payouts of exactly 0.1 BTC are an exchange's, not a round's base.
    const payouts = tx(
      times(60, (i) => part(base + 100_000 + i * 12_345)),
      [...times(50, () => part(0.1 * BTC)), part(31_234), part(1_496_131)],
    );
    expect(detectCoinJoin(payouts)?.kind).not.toBe("wasabi-1");
    // Spending from a labelled exchange: never Wasabi 1.
    expect(detectCoinJoin(round, (a) => a === round.inputs[0]?.address)?.kind).not.toBe("wasabi-1");
  });

  it("reads a JoinMarket round: n equal outputs, n - 1 or n changes, n inputs of n addresses, one script type", () => {
    const amount = 12_345_678;
    const round = tx(
      times(9, (i) => part(20_000_000 + i * 1_000_003)),
      [...times(9, () => part(amount)), ...times(8, (i) => part(3_000_000 + i * 54_321))],
    );
    expect(detectCoinJoin(round)).toMatchObject({ kind: "joinmarket", confidence: "medium" });
    // A stray output too many, or mixed script types: no.
    expect(
      detectCoinJoin(tx(round.inputs as UtxoPart[], [...round.outputs, part(77_777), part(88_888)])),
    ).toBeUndefined();
    const mixed = [
      ...times(9, () => part(amount)),
      ...times(8, (i) => part(3_000_000 + i, i === 0 ? "p2pkh" : "p2wpkh")),
    ];
    expect(detectCoinJoin(tx(round.inputs as UtxoPart[], mixed))).toBeUndefined();
  });

  it("reads Stonewall's shape as a veto: four outputs, one value paid twice", () => {
    const sw = tx(
      [part(3_000_000), part(2_500_000)],
      [part(1_000_000), part(1_000_000), part(1_997_000), part(1_497_000)],
    );
    expect(detectCoinJoin(sw)).toMatchObject({ kind: "stonewall", confidence: "medium" });
  });

  it("leaves the look-alikes alone: a batch payout, a consolidation, equal salaries, a payment with change", () => {
    // An exchange's batch: two inputs, 40 payouts of varied amounts, three of which happen to match.
    const batch = tx(
      [part(5 * BTC), part(3 * BTC)],
      [
        ...times(37, (i) => part(1_000_000 + i * 37_123)),
        ...times(3, () => part(2_500_000)),
        part(1.2 * BTC),
      ],
    );
    expect(detectCoinJoin(batch)).toBeUndefined();
    // A consolidation: 80 inputs into one output.
    expect(
      detectCoinJoin(
        tx(
          times(80, (i) => part(100_000 + i)),
          [part(8_000_000)],
        ),
      ),
    ).toBeUndefined();
    // Payroll: one input, 12 equal salaries and change (fewer inputs than equal outputs).
    expect(
      detectCoinJoin(tx([part(2 * BTC)], [...times(12, () => part(1_500_000)), part(1.8 * BTC)])),
    ).toBeUndefined();
    // A payment with change.
    expect(
      detectCoinJoin(tx([part(1_000_000), part(700_000)], [part(1_200_000), part(498_000)])),
    ).toBeUndefined();
  });
});
