// The jurisdictions' reporting thresholds: only the enabled ones; MX's 210 UMA (645 before the 2025 reform) in
// USD at each day's MXN rate, the nearest earlier rate on days without one; left out without any MXN rate.
import { describe, expect, it } from "vitest";
import { currenciesNeeded, reportingThresholds } from "./thresholds.ts";
import { umaOn } from "./uma.ts";

const mxn = (entries: [string, number][]) => ({ MXN: new Map(entries) });

describe("reporting thresholds", () => {
  it("gives only the enabled jurisdictions' thresholds", () => {
    expect(reportingThresholds([], ["2025-08-01"], {})).toEqual([]);
    expect(reportingThresholds(["CO"], ["2025-08-01"], {})).toEqual([
      { name: "CO UIAF Res. 314/2021 single transaction", usd: 150 },
    ]);
    expect(reportingThresholds(["SV", "GT"], [], {}).map((t) => t.usd)).toEqual([10_000, 25_000, 10_000]);
    expect(currenciesNeeded(["CO", "MX", "SV"])).toEqual(["MXN"]);
    expect(currenciesNeeded(["CO"])).toEqual([]);
  });

  it("converts MX's UMA threshold at each day's rate, before and after the 2025 reform", () => {
    const rates = mxn([
      ["2025-07-16", 18.5],
      ["2025-07-18", 19],
    ]);
    const [mx] = reportingThresholds(["MX"], ["2025-07-16", "2025-07-17", "2025-07-18"], rates);
    expect(umaOn("2025-07-16")).toBe(113.14);
    expect(umaOn("2026-02-01")).toBe(117.31);
    expect(umaOn("2024-06-01")).toBe(108.57);
    expect(mx?.usdByDay).toEqual({
      // 645 UMA the day before the reform, 210 UMA from it; the 17th takes the 16th's rate.
      "2025-07-16": Math.round(((645 * 113.14) / 18.5) * 100) / 100,
      "2025-07-17": Math.round(((210 * 113.14) / 18.5) * 100) / 100,
      "2025-07-18": Math.round(((210 * 113.14) / 19) * 100) / 100,
    });
    // 210 UMA of 2025 is MXN 23,759.40 (the figure regulation texts quote); at 18.5 MXN per USD, USD 1,284.29.
    expect(mx?.usdByDay?.["2025-07-17"]).toBe(1284.29);
    expect(mx?.usd).toBe(Math.round(((210 * 113.14) / 19) * 100) / 100);
  });

  it("takes the earliest known rate for days before it, and leaves MX out without any rate", () => {
    const [mx] = reportingThresholds(["MX"], ["2025-08-01"], mxn([["2025-09-01", 20]]));
    expect(mx?.usdByDay?.["2025-08-01"]).toBe(Math.round(((210 * 113.14) / 20) * 100) / 100);
    expect(reportingThresholds(["MX"], ["2025-08-01"], {})).toEqual([]);
    expect(reportingThresholds(["MX"], ["2025-08-01"], mxn([]))).toEqual([]);
  });
});
