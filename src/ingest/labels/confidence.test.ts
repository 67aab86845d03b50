// The confidence levels are GraphSense's (its taxonomy file, committed as a fixture: test/fixtures/SOURCES.md).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/support/fixtures.ts";
import { CONFIDENCE_LEVELS, DEFAULT_CONFIDENCE, parseConfidence } from "./confidence.ts";

const CSV = fixture("graphsense-tagpack/confidence.csv");

describe("confidence", () => {
  it("has exactly the levels of GraphSense's taxonomy", () => {
    const levels = Object.fromEntries(
      fs
        .readFileSync(CSV, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => {
          const cells = line.split(",");
          return [cells[0], Number(cells.at(-1))];
        }),
    );
    expect(CONFIDENCE_LEVELS).toEqual(levels);
  });

  it("reads names and numbers", () => {
    expect(parseConfidence("authority_data")).toBe(60);
    expect(parseConfidence("Web_Crawl")).toBe(20);
    expect(parseConfidence("85")).toBe(85);
    expect(parseConfidence(undefined)).toBe(DEFAULT_CONFIDENCE);
    expect(parseConfidence("101")).toHaveProperty("error");
    expect(parseConfidence("sure")).toEqual({
      error: 'unknown confidence "sure" (a GraphSense level name or 0-100)',
    });
  });
});
