// The law rules at and just around every threshold and every date where a value changes: Mexico's 645 → 210 UMA
// reform (17 July 2025) and the UMA's yearly change (1 February), Colombia's USD 150 single and USD 450 monthly,
// El Salvador's and Guatemala's figures (strictly over), the FATF travel rule, the counterparty rules, the
// accumulation windows, several laws at once, and what cannot be judged without a price or a rate.
import { describe, expect, it } from "vitest";
import { evaluateTransfer, type TransferFacts } from "./evaluate.ts";
import { LAW_RULES } from "./law-rules.ts";

/** A transfer of `usd` on `day`; the MXN rate is 1 so that MXN amounts read as the USD value. */
function facts(day: string, usd: number | null, extra: Partial<TransferFacts> = {}): TransferFacts {
  return {
    day,
    usd,
    mxnPerUsd: 1,
    counterpartyCategory: undefined,
    earlier: { sixMonthsSubThresholdMxn: 0, calendarMonthUsd: 0 },
    ...extra,
  };
}
const ids = (jurisdictions: string[], f: TransferFacts) =>
  evaluateTransfer(jurisdictions, f).laws.map((l) => l.id);

describe("Mexico: aviso por monto", () => {
  it.each([
    // [day, UMA in force, rule in force, its UMA multiple]
    ["2025-01-31", 108.57, "MX-AV-645-LEGACY", 645],
    ["2025-02-01", 113.14, "MX-AV-645-LEGACY", 645],
    ["2025-07-16", 113.14, "MX-AV-645-LEGACY", 645],
    ["2025-07-17", 113.14, "MX-AV-210", 210],
    ["2026-01-31", 113.14, "MX-AV-210", 210],
    ["2026-02-01", 117.31, "MX-AV-210", 210],
  ])("on %s (UMA %s) %s fires at %s UMA and not a cent below", (day, uma, id, multiple) => {
    const threshold = Math.round(multiple * uma * 100) / 100;
    expect(ids(["MX"], facts(day, threshold))).toContain(id);
    expect(ids(["MX"], facts(day, threshold - 0.01))).not.toContain(id);
  });

  it("converts at the day's MXN rate: USD 1,200 at 20 MXN/USD is over 210 UMA of 2025 (23,759.40 MXN)", () => {
    expect(ids(["MX"], facts("2025-09-01", 1_200, { mxnPerUsd: 20 }))).toContain("MX-AV-210");
    expect(ids(["MX"], facts("2025-09-01", 1_150, { mxnPerUsd: 20 }))).not.toContain("MX-AV-210");
  });

  it("applies only to projects with MX", () => {
    expect(ids(["CO"], facts("2025-09-01", 50_000))).not.toContain("MX-AV-210");
  });
});

describe("Mexico: six-month accumulation of sub-threshold operations", () => {
  const threshold = 210 * 113.14; // 23,759.40 MXN on 2025-09-01
  it("fires on the operation that takes the total past 210 UMA, once", () => {
    const earlier = (mxn: number) => ({ earlier: { sixMonthsSubThresholdMxn: mxn, calendarMonthUsd: 0 } });
    expect(ids(["MX"], facts("2025-09-01", 5_000, earlier(threshold - 4_999)))).toContain("MX-AV-ACC6M");
    expect(ids(["MX"], facts("2025-09-01", 5_000, earlier(threshold - 5_000)))).not.toContain("MX-AV-ACC6M");
    expect(ids(["MX"], facts("2025-09-01", 100, earlier(threshold + 1)))).not.toContain("MX-AV-ACC6M");
  });

  it("leaves an operation over the threshold to the single-operation rule", () => {
    const laws = ids(
      ["MX"],
      facts("2025-09-01", 30_000, { earlier: { sixMonthsSubThresholdMxn: 20_000, calendarMonthUsd: 0 } }),
    );
    expect(laws).toContain("MX-AV-210");
    expect(laws).not.toContain("MX-AV-ACC6M");
  });

  it("counts 645 UMA before the reform", () => {
    const legacy = 645 * 113.14;
    const f = facts("2025-07-16", 1_000, {
      earlier: { sixMonthsSubThresholdMxn: legacy - 999, calendarMonthUsd: 0 },
    });
    expect(ids(["MX"], f)).toEqual(expect.arrayContaining(["MX-AV-ACC6M-LEGACY"]));
    expect(ids(["MX"], f)).not.toContain("MX-AV-ACC6M");
  });
});

describe("Colombia", () => {
  it("reports a single transaction from USD 150", () => {
    expect(ids(["CO"], facts("2026-03-01", 150))).toContain("CO-TX-150");
    expect(ids(["CO"], facts("2026-03-01", 149.99))).not.toContain("CO-TX-150");
  });

  it("reports the month's transactions when they reach USD 450, on the one that reaches it", () => {
    const month = (usd: number) => ({ earlier: { sixMonthsSubThresholdMxn: 0, calendarMonthUsd: usd } });
    expect(ids(["CO"], facts("2026-03-20", 50, month(400)))).toContain("CO-TX-450");
    expect(ids(["CO"], facts("2026-03-20", 49.99, month(400)))).not.toContain("CO-TX-450");
    expect(ids(["CO"], facts("2026-03-20", 50, month(450)))).not.toContain("CO-TX-450");
  });
});

describe("El Salvador and Guatemala (figures marked unverified)", () => {
  it.each([
    ["SV", "SV-CASH-10K", 10_000],
    ["SV", "SV-OTHER-25K", 25_000],
    ["GT", "GT-CASH-10K", 10_000],
  ])("%s %s: strictly over USD %s", (country, id, usd) => {
    expect(ids([country], facts("2026-03-01", usd))).not.toContain(id);
    const laws = evaluateTransfer([country], facts("2026-03-01", usd + 0.01)).laws;
    expect(laws.find((l) => l.id === id)).toMatchObject({
      verified: false,
      countryCode: country,
      risk: "warn",
    });
  });
});

describe("international rules, for every project", () => {
  it("travel rule from USD 1,000", () => {
    expect(ids([], facts("2026-03-01", 1_000))).toEqual(["XB-TRAVEL-1000"]);
    expect(ids([], facts("2026-03-01", 999.99))).toEqual([]);
  });

  it("a sanctioned counterparty is illegal; in MX also the 24-hour list notice", () => {
    const f = facts("2026-03-01", 10, { counterpartyCategory: "sanctioned" });
    const laws = evaluateTransfer(["MX"], f).laws;
    expect(laws.map((l) => [l.id, l.risk])).toEqual([
      ["MX-LIST", "illegal"],
      ["XB-OFAC", "illegal"],
    ]);
  });

  it("a mixer counterparty is a warning; in MX also the 24-hour notice", () => {
    expect(ids(["MX"], facts("2026-03-01", 10, { counterpartyCategory: "mixer" }))).toEqual([
      "MX-24H-SUSP",
      "XB-MIXER",
    ]);
    expect(ids(["CO"], facts("2026-03-01", 10, { counterpartyCategory: "mixer" }))).toEqual(["XB-MIXER"]);
  });
});

describe("several laws, nothing, and what cannot be judged", () => {
  it("lists every law one transfer infringes, with name, source, risk and country", () => {
    const f = facts("2026-03-01", 40_000, { mxnPerUsd: 17, counterpartyCategory: "sanctioned" });
    const laws = evaluateTransfer(["MX", "CO", "SV", "GT"], f).laws;
    expect(laws.map((l) => l.id)).toEqual([
      "MX-AV-210",
      "MX-LIST",
      "CO-TX-150",
      "CO-TX-450",
      "SV-OTHER-25K",
      "SV-CASH-10K",
      "GT-CASH-10K",
      "XB-OFAC",
      "XB-TRAVEL-1000",
    ]);
    for (const law of laws) {
      expect(law.name.length).toBeGreaterThan(0);
      expect(law.source.length).toBeGreaterThan(0);
      expect(["warn", "illegal"]).toContain(law.risk);
    }
  });

  it("an ordinary small transfer infringes nothing", () => {
    expect(evaluateTransfer(["MX", "CO", "SV", "GT"], facts("2026-03-01", 25))).toEqual({
      laws: [],
      unjudged: [],
    });
  });

  it("without a price, amount rules are reported as unjudged, counterparty rules still apply", () => {
    const result = evaluateTransfer(["CO"], facts("2026-03-01", null, { counterpartyCategory: "mixer" }));
    expect(result.laws.map((l) => l.id)).toEqual(["XB-MIXER"]);
    expect(result.unjudged.map((u) => u.id)).toEqual(["CO-TX-150", "CO-TX-450", "XB-TRAVEL-1000"]);
  });

  it("without an MXN rate, the UMA rules are unjudged and the USD ones judged", () => {
    const result = evaluateTransfer(["MX"], facts("2026-03-01", 2_000, { mxnPerUsd: null }));
    expect(result.laws.map((l) => l.id)).toEqual(["XB-TRAVEL-1000"]);
    expect(result.unjudged.map((u) => u.id)).toEqual(["MX-AV-210", "MX-AV-ACC6M"]);
  });

  it("every rule has a unique id, a source and a country", () => {
    expect(new Set(LAW_RULES.map((r) => r.id)).size).toBe(LAW_RULES.length);
    for (const rule of LAW_RULES) expect(rule.source).not.toBe("");
  });
});
