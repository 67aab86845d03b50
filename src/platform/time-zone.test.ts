// A deadline on the law's wall clock: the instant and the offset of the zone at that instant, across a change of
// offset (Mexico City has kept -06:00 since 2022; Santiago moves in April and September).
import { describe, expect, it } from "vitest";
import { zonedIso } from "./time-zone.ts";

describe("zonedIso", () => {
  it("writes Mexico's monthly deadline as the 17th at 23:59:59 in Mexico City", () => {
    expect(zonedIso(new Date("2026-12-18T05:59:59.999Z"), "America/Mexico_City")).toBe(
      "2026-12-17T23:59:59-06:00",
    );
  });
  it("names the offset in force at the instant on either side of a change", () => {
    expect(zonedIso(new Date("2026-04-05T02:30:00Z"), "America/Santiago")).toBe("2026-04-04T23:30:00-03:00");
    expect(zonedIso(new Date("2026-04-05T04:30:00Z"), "America/Santiago")).toBe("2026-04-05T00:30:00-04:00");
  });
  it("writes a zone east of UTC and UTC itself", () => {
    expect(zonedIso(new Date("2026-01-01T00:00:00Z"), "Asia/Kolkata")).toBe("2026-01-01T05:30:00+05:30");
    expect(zonedIso(new Date("2026-01-01T00:00:00Z"), "UTC")).toBe("2026-01-01T00:00:00+00:00");
  });
});
