// The FATF's lists by date: each plenary's list in force from the day it was published, the one before it until
// then; nothing before the first list held; a day long after the newest plenary is judged with it and said stale.
import { describe, expect, it } from "vitest";
import { FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING, fatfListOn } from "./fatf-lists.ts";

describe("the FATF's lists by date", () => {
  it("June 2026's increased monitoring from 19 June: Bosnia and Iraq in, Algeria and Namibia out", () => {
    const before = fatfListOn(FATF_INCREASED_MONITORING, "2026-06-18");
    const on = fatfListOn(FATF_INCREASED_MONITORING, "2026-06-19");
    expect(before?.countries).toContain("DZ");
    expect(before?.countries).not.toContain("BA");
    expect(on?.countries).toContain("BA");
    expect(on?.countries).toContain("IQ");
    expect(on?.countries).not.toContain("DZ");
    expect(on?.countries).not.toContain("NA");
    expect(on?.countries).toHaveLength(22);
    expect(on?.source).toMatch(/19-06-2026/);
  });
  it("February 2026 adds Kuwait and Papua New Guinea from 13 February", () => {
    expect(fatfListOn(FATF_INCREASED_MONITORING, "2026-02-12")?.countries).not.toContain("KW");
    expect(fatfListOn(FATF_INCREASED_MONITORING, "2026-02-13")?.countries).toEqual(
      expect.arrayContaining(["KW", "PG"]),
    );
  });
  it("the call for action names North Korea, Iran and Myanmar throughout", () => {
    for (const day of ["2025-02-21", "2026-11-29", "2027-06-01"])
      expect(fatfListOn(FATF_CALL_FOR_ACTION, day)?.countries).toEqual(["KP", "IR", "MM"]);
  });
  it("no list before the first held, none of an unknown name; stale five months after the newest plenary", () => {
    expect(fatfListOn(FATF_INCREASED_MONITORING, "2025-02-20")).toBeUndefined();
    expect(fatfListOn("fatf-other", "2026-06-19")).toBeUndefined();
    expect(fatfListOn(FATF_INCREASED_MONITORING, "2026-11-16")?.stale).toBe(false);
    expect(fatfListOn(FATF_INCREASED_MONITORING, "2026-11-17")?.stale).toBe(true);
  });
});
