// Every jurisdiction's rules at and around each threshold and each date a text changed, judged by the one loop
// (src/regulation) on a single operation valued on its local day: Mexico's UMA of each year and its 645 → 210 UMA
// reform, Colombia's start, El Salvador's two laws, Guatemala's two decrees, the travel rules; and the law texts'
// dates themselves (a rule's versions never overlap or leave a gap after the first).
import { describe, expect, it } from "vitest";
import { type ClientOperation, evaluate, type RuleBook, versionOn } from "../regulation/index.ts";
import { GUATEMALA } from "./gt/index.ts";
import { COLOMBIA, INTERNATIONAL, JURISDICTIONS, MEXICO, umaOn } from "./index.ts";
import { EL_SALVADOR } from "./sv/index.ts";

/** One operation worth `amount` (USD, or MXN at a rate of 1) on `day` in every book's valuation. */
function op(day: string, amount: number): ClientOperation {
  const valuation = (currency: string) => ({ day, priceUsd: 1, currency, perUsd: 1 });
  return {
    addressId: 1,
    chainId: 1,
    txHash: "0x01",
    logIndex: 0,
    blockTime: new Date(`${day}T18:00:00Z`),
    userId: "u",
    address: "0xa",
    direction: "in",
    counterparty: "0xb",
    token: "native",
    symbol: "ETH",
    tokenName: "Ether",
    decimals: 2,
    value: BigInt(Math.round(amount * 100)),
    laws: null,
    unjudged: null,
    internal: false,
    valuations: {
      MX: valuation("MXN"),
      CO: valuation("COP"),
      SV: valuation("USD"),
      GT: valuation("GTQ"),
      XB: valuation("USD"),
    },
    addressJurisdiction: null,
  };
}
const ids = (
  book: RuleBook,
  o: ClientOperation,
  counterparty = { category: undefined as string | undefined, vasp: false },
) => evaluate(book, o, [], counterparty).laws.map((l) => l.id);
const cents = (n: number) => Math.round(n * 100) / 100;

describe("Mexico: the aviso by amount", () => {
  it.each([
    // [day, the UMA in force, the multiple in force]
    ["2022-02-01", 96.22, 645],
    ["2023-01-31", 96.22, 645],
    ["2023-02-01", 103.74, 645],
    ["2024-01-31", 103.74, 645],
    ["2024-02-01", 108.57, 645],
    ["2025-01-31", 108.57, 645],
    ["2025-02-01", 113.14, 645],
    ["2025-07-16", 113.14, 645],
    ["2025-07-17", 113.14, 210],
    ["2026-01-31", 113.14, 210],
    ["2026-02-01", 117.31, 210],
    ["2027-01-31", 117.31, 210],
  ])("on %s (UMA %s) fires at %s UMA and not a cent below", (day, uma, multiple) => {
    const threshold = cents(multiple * uma);
    expect(ids(MEXICO, op(day, threshold))).toContain("MX-AVISO");
    expect(ids(MEXICO, op(day, threshold - 0.01))).not.toContain("MX-AVISO");
  });

  it("knows no UMA before February 2022 nor after January 2027, and judges nothing there", () => {
    expect(umaOn("2022-01-31")).toBeUndefined();
    expect(umaOn("2027-02-01")).toBeUndefined();
    const early = evaluate(MEXICO, op("2021-12-01", 1_000_000), [], { category: undefined, vasp: false });
    expect(early.laws).toEqual([]);
    expect(early.unjudged[0]?.reason).toBe("no UMA value is known for 2021-12-01");
  });

  it("cites the text in force: the 2018 fraction before the reform (not verified), the reformed law after, the RCG from 30 November 2026", () => {
    const law = (day: string) =>
      evaluate(MEXICO, op(day, 1_000_000), [], { category: undefined, vasp: false }).laws[0];
    expect(law("2025-07-16")).toMatchObject({
      verified: false,
      source: expect.stringContaining("DOF 09-03-2018"),
    });
    expect(law("2025-07-17")).toMatchObject({
      verified: true,
      source: expect.stringContaining("reforma DOF 16-07-2025"),
    });
    expect(law("2025-07-17")?.source).not.toContain("115/2026");
    expect(law("2026-11-29")?.source).not.toContain("115/2026");
    expect(law("2026-11-30")?.source).toContain("Acuerdo 115/2026");
  });

  it("fracción XVI applies from 10 September 2019, eighteen months after the decree's entry into force (10-03-2018): no rule on the 9th", () => {
    const from2019 = MEXICO.rules.filter((r) => (r.versions[0]?.validFrom ?? "").startsWith("2019"));
    expect(from2019.length).toBeGreaterThan(3);
    for (const rule of from2019) {
      expect(versionOn(rule, "2019-09-09"), rule.id).toBeUndefined();
      expect(versionOn(rule, "2019-09-10")?.source, rule.id).toMatch(
        /aplicable desde 10-09-2019|DOF 24-07-2014/,
      );
    }
  });
});

describe("Colombia", () => {
  it("reports from USD 150, from 1 July 2022", () => {
    expect(ids(COLOMBIA, op("2026-03-01", 150))).toEqual(["CO-TX-150"]);
    expect(ids(COLOMBIA, op("2026-03-01", 149.99))).toEqual([]);
    expect(ids(COLOMBIA, op("2022-06-30", 1_000))).toEqual([]);
    expect(ids(COLOMBIA, op("2022-07-01", 1_000))).toEqual(["CO-TX-150"]);
  });
});

describe("El Salvador", () => {
  it("is an indicator over USD 25,000 under each law, never a cash rule", () => {
    expect(ids(EL_SALVADOR, op("2026-03-01", 25_000))).toEqual([]);
    expect(ids(EL_SALVADOR, op("2026-03-01", 25_000.01))).toEqual(["SV-REGULADA"]);
    const before = evaluate(EL_SALVADOR, op("2025-10-16", 30_000), [], { category: undefined, vasp: false })
      .laws[0];
    const after = evaluate(EL_SALVADOR, op("2025-10-17", 30_000), [], { category: undefined, vasp: false })
      .laws[0];
    expect(before?.source).toContain("D.L. 498");
    expect(after?.source).toContain("D.L. 426");
    for (const law of [before, after]) {
      expect(law).toMatchObject({ verified: false, description: expect.stringContaining("Not verified") });
      expect(law?.description).not.toMatch(/cash/i);
    }
  });
});

describe("Guatemala", () => {
  it("is an indicator from USD 10,000 saying no regime is in force, under each decree", () => {
    expect(ids(GUATEMALA, op("2026-03-01", 9_999.99))).toEqual([]);
    const before = evaluate(GUATEMALA, op("2026-09-16", 10_000), [], { category: undefined, vasp: false })
      .laws[0];
    const after = evaluate(GUATEMALA, op("2026-09-17", 10_000), [], { category: undefined, vasp: false })
      .laws[0];
    expect(before).toMatchObject({
      verified: false,
      description: expect.stringContaining("no virtual-asset regime in force"),
    });
    expect(after).toMatchObject({ verified: false, source: expect.stringContaining("Decreto 15-2026") });
  });
});

describe("travel rules", () => {
  const vasp = { category: "exchange", vasp: true };
  it("FATF: from USD 1,000 with a virtual-asset service provider only", () => {
    expect(ids(INTERNATIONAL, op("2026-03-01", 1_000), vasp)).toEqual(["XB-TRAVEL-1000"]);
    expect(ids(INTERNATIONAL, op("2026-03-01", 999.99), vasp)).toEqual([]);
    expect(ids(INTERNATIONAL, op("2026-03-01", 50_000))).toEqual([]);
  });
  it("Mexico: with a provider at any amount, from the 2025 reform", () => {
    expect(ids(MEXICO, op("2025-07-16", 1), vasp)).toEqual([]);
    expect(ids(MEXICO, op("2025-07-17", 1), vasp)).toEqual(["MX-TRAVEL"]);
  });
});

describe("the rule tables", () => {
  it("give every version a source and a description, and dates that follow on", () => {
    for (const book of [...JURISDICTIONS, INTERNATIONAL])
      for (const rule of book.rules) {
        rule.versions.forEach((v, i) => {
          expect(v.source, rule.id).not.toBe("");
          expect(v.description.length, rule.id).toBeGreaterThan(40);
          if (v.validFrom && v.validTo) expect(v.validFrom <= v.validTo, rule.id).toBe(true);
          const next = rule.versions[i + 1];
          if (next) {
            expect(v.validTo, rule.id).toBeDefined();
            const after = new Date(Date.parse(`${v.validTo}T00:00:00Z`) + 86_400_000)
              .toISOString()
              .slice(0, 10);
            expect(next.validFrom, `${rule.id}: the version after ${v.validTo}`).toBe(after);
          }
        });
        if (!rule.versions[0]?.verified)
          expect(rule.versions[0]?.description, rule.id).toMatch(/not verified|Indicator only/i);
      }
  });
});
