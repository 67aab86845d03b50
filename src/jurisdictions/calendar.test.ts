// Filing deadlines fall at the end of the deadline's day on the regulator's clock: Mexico's day 17 and Colombia's
// day 20 of the next month, across a year's end.
import { describe, expect, it } from "vitest";
import { COLOMBIA, MEXICO } from "./index.ts";

describe("filing deadlines", () => {
  it("Mexico: the last instant of day 17 of the next month in Mexico City (UTC-6)", () => {
    const [avi] = MEXICO.calendar("2026-12");
    expect(avi?.deadline.toISOString()).toBe("2027-01-18T05:59:59.999Z");
    expect(avi?.fileKinds).toEqual(["monthly", "zero"]);
  });
  it("Colombia: day 20 of the next month in Bogotá (UTC-5), for the transactions and the absence of ROS", () => {
    const filings = COLOMBIA.calendar("2026-04");
    expect(filings.map((f) => [f.id, f.deadline.toISOString(), f.fileKinds])).toEqual([
      ["CO-TRANSACTIONS", "2026-05-21T04:59:59.999Z", ["monthly"]],
      ["CO-ROS-ABSENCE", "2026-05-21T04:59:59.999Z", null],
    ]);
  });
  it("Colombia's 20 days are marked unverified (secondary sources), Mexico's day 17 is not", () => {
    expect(COLOMBIA.calendar("2026-04").map((f) => [f.verified, /not verified/.test(f.source)])).toEqual([
      [false, true],
      [false, true],
    ]);
    expect(MEXICO.calendar("2026-04").every((f) => f.verified !== false)).toBe(true);
  });
});
