// utcDay agrees with Date's UTC calendar on every day from 1970 to 2100 and on day boundaries.
import { describe, expect, it } from "vitest";
import { utcDay } from "./format.ts";

describe("utcDay", () => {
  it("agrees with Date's UTC day, including the first and last second of days and leap days", () => {
    for (let day = 0; day < 47_500; day += 1) {
      for (const second of [0, 86_399]) {
        const t = day * 86_400 + second;
        expect(utcDay(t)).toBe(new Date(t * 1000).toISOString().slice(0, 10));
      }
    }
    expect(utcDay(Date.UTC(2024, 1, 29, 12) / 1000)).toBe("2024-02-29");
  });
});
