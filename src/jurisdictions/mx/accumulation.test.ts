// Mexico's accumulation at its edges (Reglamento LFPIORPI Art. 7; RCG Art. 19): the threshold reached or passed as
// the text in force says, the count starting again after each aviso, receipts and sends apart (or together when the
// project says so), operations at or over the single threshold left out, and the six-month period on Mexico City's
// calendar, a month's end included.
import { describe, expect, it } from "vitest";
import { type ClientOperation, evaluate } from "../../regulation/index.ts";
import { withinPeriod } from "./accumulation.ts";
import { MEXICO } from "./index.ts";

let n = 0;
/** An operation of `mxn` on a Mexico City day (USD 1 per token, the rate 1: MXN reads as the value). */
function op(
  day: string,
  mxn: number,
  direction: "in" | "out" = "in",
  laws: string[] | null = null,
): ClientOperation {
  n += 1;
  return {
    addressId: 1,
    chainId: 1,
    txHash: `0x${n.toString(16).padStart(64, "0")}`,
    logIndex: 0,
    blockTime: new Date(`${day}T18:00:00Z`),
    userId: "u",
    address: "0xa",
    direction,
    counterparty: "0xb",
    token: "native",
    symbol: "ETH",
    tokenName: "Ether",
    decimals: 2,
    value: BigInt(Math.round(mxn * 100)),
    laws,
    unjudged: null,
    internal: false,
    valuations: { MX: { day, priceUsd: 1, currency: "MXN", perUsd: 1 } },
    addressJurisdiction: null,
  };
}
const none = { category: undefined, vasp: false };

/** Judges each operation in turn, recording its verdict as the checker does; the laws of each. */
function play(ops: ClientOperation[], settings?: object): string[][] {
  const done: ClientOperation[] = [];
  return ops.map((current) => {
    const laws = evaluate(MEXICO, current, done, none, settings).laws.map((l) => l.id);
    done.push({ ...current, laws });
    return laws;
  });
}

describe("Mexico's accumulation", () => {
  it("reaches 210 UMA from 28 March 2026 (≥) and passes it before (>)", () => {
    const threshold = 210 * 117.31; // 24,635.10
    expect(play([op("2026-03-20", 12_000), op("2026-03-27", threshold - 12_000)])[1]).toEqual([]);
    expect(play([op("2026-03-20", 12_000), op("2026-03-27", threshold - 12_000 + 0.01)])[1]).toEqual([
      "MX-ACUMULACION",
    ]);
    expect(play([op("2026-03-21", 12_000), op("2026-03-28", threshold - 12_000)])[1]).toEqual([
      "MX-ACUMULACION",
    ]);
    expect(play([op("2026-03-21", 12_000), op("2026-03-28", threshold - 12_000 - 0.01)])[1]).toEqual([]);
  });

  it("starts counting again after each aviso", () => {
    const laws = play(["04", "05", "06", "07", "08", "09"].map((d) => op(`2026-05-${d}`, 12_400)));
    expect(laws).toEqual([[], ["MX-ACUMULACION"], [], ["MX-ACUMULACION"], [], ["MX-ACUMULACION"]]);
  });

  it("accumulates receipts and sends apart, or together with `combined`", () => {
    const ops = () => [
      op("2026-05-04", 14_600, "in"),
      op("2026-05-05", 14_600, "out"),
      op("2026-05-06", 14_600, "in"),
    ];
    expect(play(ops())).toEqual([[], [], ["MX-ACUMULACION"]]);
    expect(play(ops(), { accumulation: "combined" })).toEqual([[], ["MX-ACUMULACION"], []]);
  });

  it("leaves out an operation at or over the single threshold (an aviso on its own)", () => {
    expect(play([op("2026-05-04", 24_635.1), op("2026-05-05", 1_000)])).toEqual([["MX-AVISO"], []]);
  });

  it("keeps the operations of the six months from the period's first one", () => {
    expect(withinPeriod("2025-10-10", "2026-04-09")).toBe(true);
    expect(withinPeriod("2025-10-10", "2026-04-10")).toBe(false);
    // A month without the day: 31 August's period covers up to 27 February (28 February is six months on).
    expect(withinPeriod("2025-08-31", "2026-02-27")).toBe(true);
    expect(withinPeriod("2025-08-31", "2026-02-28")).toBe(false);
    expect(play([op("2025-10-10", 20_000), op("2026-04-09", 5_000)])[1]).toEqual(["MX-ACUMULACION"]);
    expect(play([op("2025-10-10", 20_000), op("2026-04-10", 5_000)])[1]).toEqual([]);
  });

  it("is not judged without a value, and says why", () => {
    const blind = {
      ...op("2026-05-04", 100),
      valuations: { MX: { day: "2026-05-04", priceUsd: null, currency: "MXN", perUsd: 1 } },
    };
    const result = evaluate(MEXICO, blind, [], none);
    expect(result.laws).toEqual([]);
    expect(result.unjudged.map((u) => u.id)).toEqual(["MX-AVISO", "MX-ACUMULACION"]);
    expect(result.unjudged[0]?.reason).toContain("no USD price");
  });
});
