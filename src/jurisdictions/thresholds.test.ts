// The jurisdictions' reporting thresholds as the structuring detector takes them (src/regulation converts them):
// only the enabled ones; MX's 210 UMA (645 before the 2025 reform) in USD at each day's MXN rate, the nearest earlier
// rate on days without one; left out without any MXN rate; SV's and GT's indicators in USD.
import { describe, expect, it } from "vitest";
import { currenciesNeeded, reportingThresholds } from "../regulation/index.ts";
import { jurisdictionsOf } from "./index.ts";

const specs = (codes: string[]) => jurisdictionsOf(codes).flatMap((j) => j.thresholds);
const mxn = (entries: [string, number][]) => ({ MXN: new Map(entries) });
const usd = (mxnAmount: number, rate: number) => Math.round((mxnAmount / rate) * 100) / 100;

describe("reporting thresholds", () => {
  it("gives only the enabled jurisdictions' thresholds", () => {
    expect(reportingThresholds(specs([]), ["2025-08-01"], {})).toEqual([]);
    expect(reportingThresholds(specs(["CO"]), ["2025-08-01"], {})).toEqual([
      { name: "CO UIAF Res. 314/2021 single transaction", usd: 150 },
    ]);
    expect(reportingThresholds(specs(["SV", "GT"]), [], {}).map((t) => t.usd)).toEqual([25_000, 10_000]);
    expect(currenciesNeeded(specs(["CO", "MX", "SV"]))).toEqual(["MXN"]);
    expect(currenciesNeeded(specs(["CO"]))).toEqual([]);
  });

  it("converts MX's UMA threshold at each day's rate, before and after the 2025 reform", () => {
    const rates = mxn([
      ["2025-07-16", 18.5],
      ["2025-07-18", 19],
    ]);
    const [mx] = reportingThresholds(specs(["MX"]), ["2025-07-16", "2025-07-17", "2025-07-18"], rates);
    expect(mx?.usdByDay).toEqual({
      // 645 UMA the day before the reform, 210 UMA from it; the 17th takes the 16th's rate.
      "2025-07-16": usd(645 * 113.14, 18.5),
      "2025-07-17": usd(210 * 113.14, 18.5),
      "2025-07-18": usd(210 * 113.14, 19),
    });
    // 210 UMA of 2025 is MXN 23,759.40; at 18.5 MXN per USD, USD 1,284.29.
    expect(mx?.usdByDay?.["2025-07-17"]).toBe(1284.29);
    expect(mx?.usd).toBe(usd(210 * 113.14, 19));
  });

  it("takes the earliest known rate for days before it, and leaves MX out without any rate or UMA", () => {
    const [mx] = reportingThresholds(specs(["MX"]), ["2025-08-01"], mxn([["2025-09-01", 20]]));
    expect(mx?.usdByDay?.["2025-08-01"]).toBe(usd(210 * 113.14, 20));
    expect(reportingThresholds(specs(["MX"]), ["2025-08-01"], {})).toEqual([]);
    expect(reportingThresholds(specs(["MX"]), ["2025-08-01"], mxn([]))).toEqual([]);
    // A day without a UMA (before February 2022) has no threshold.
    const rates = mxn([
      ["2021-01-01", 20],
      ["2025-08-01", 20],
    ]);
    const [old] = reportingThresholds(specs(["MX"]), ["2021-06-01", "2025-08-01"], rates);
    expect(Object.keys(old?.usdByDay ?? {})).toEqual(["2025-08-01"]);
  });
});
