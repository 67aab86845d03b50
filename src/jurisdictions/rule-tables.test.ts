// docs/regulation.md shows every rule of every jurisdiction, each version with its dates, check, verification and
// source, exactly as the rule data says (scripts/regulation-tables.ts writes the tables).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { tablesOnly, withRuleTables } from "./rule-tables.ts";

describe("docs/regulation.md", () => {
  it("holds the rule tables of the data", () => {
    const page = readFileSync(new URL("../../docs/regulation.md", import.meta.url), "utf8");
    expect(
      tablesOnly(page) === tablesOnly(withRuleTables(page)),
      "run: node bin/run-ts.js scripts/regulation-tables.ts",
    ).toBe(true);
  });
});
