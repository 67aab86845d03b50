// A year's UMA imported after the release: its figures checked against the law that defines them (Ley para
// Determinar el Valor de la UMA, Arts. 4 and 5), a shipped year unchangeable, and the imported year in force from 1
// February to 31 January. The 2027 figures are invented for the test.
import { afterEach, describe, expect, it } from "vitest";
import { umaOn, useImportedUma } from "./uma.ts";
import { umaProblem } from "./uma-store.ts";

const Y2027 = { year: 2027, daily: 121.5, monthly: 3693.6, annual: 44323.2, dofDate: "2027-01-08" };

afterEach(() => useImportedUma([]));

describe("importing a year's UMA", () => {
  it("takes figures that agree with Art. 4 (monthly = daily × 30.4, annual = monthly × 12) published in January", () => {
    expect(umaProblem(Y2027)).toBeUndefined();
    // The 2026 figures as INEGI published them agree too.
    expect(
      umaProblem({ year: 2026, daily: 117.31, monthly: 3566.22, annual: 42794.64, dofDate: "2026-01-09" }),
    ).toBeUndefined();
  });
  it("refuses a mistyped figure naming what it should be, a publication outside January, three decimals, a shipped year changed", () => {
    expect(umaProblem({ ...Y2027, monthly: 3693 })).toMatch(/121\.5 × 30\.4 = 3693\.60, not 3693/);
    expect(umaProblem({ ...Y2027, annual: 44000 })).toMatch(/3693\.6 × 12 = 44323\.20/);
    expect(umaProblem({ ...Y2027, dofDate: "2027-03-01" })).toMatch(/in January 2027/);
    expect(umaProblem({ ...Y2027, daily: 121.505 })).toMatch(/at most two decimals/);
    expect(
      umaProblem({ year: 2026, daily: 118, monthly: 3587.2, annual: 43046.4, dofDate: "2026-01-09" }),
    ).toMatch(/ships the 2026 UMA as MXN 117\.31/);
  });
  it("an imported year is in force from 1 February to 31 January; without it the days have no UMA", () => {
    expect(umaOn("2027-02-01")).toBeUndefined();
    useImportedUma([{ year: 2027, daily: 121.5, source: "test" }]);
    expect(umaOn("2027-01-31")).toBe(117.31);
    expect(umaOn("2027-02-01")).toBe(121.5);
    expect(umaOn("2028-01-31")).toBe(121.5);
    expect(umaOn("2028-02-01")).toBeUndefined();
    // A shipped year is never replaced by an import.
    useImportedUma([{ year: 2026, daily: 1, source: "test" }]);
    expect(umaOn("2026-06-01")).toBe(117.31);
  });
});
