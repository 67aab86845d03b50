// Report periods are months in the regulator's time zone.
import { describe, expect, it } from "vitest";
import { periodBounds, periodOf, previousPeriod } from "./period.ts";

describe("periods", () => {
  it("start and end at midnight in the time zone", () => {
    const mx = periodBounds("2026-09", "America/Mexico_City");
    expect(mx.start.toISOString()).toBe("2026-09-01T06:00:00.000Z");
    expect(mx.end.toISOString()).toBe("2026-10-01T06:00:00.000Z");
    const december = periodBounds("2026-12", "America/Bogota");
    expect(december.end.toISOString()).toBe("2027-01-01T05:00:00.000Z");
  });

  it("place an instant in its local month, and step back a month", () => {
    expect(periodOf(new Date("2026-10-01T03:00:00Z"), "America/Mexico_City")).toBe("2026-09");
    expect(periodOf(new Date("2026-10-01T07:00:00Z"), "America/Mexico_City")).toBe("2026-10");
    expect(previousPeriod("2026-01")).toBe("2025-12");
    expect(previousPeriod("2026-10")).toBe("2026-09");
  });
});
