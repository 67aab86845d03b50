// docs/regulation.md lists every law rule of the table, with its risk and whether its figures are verified.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LAW_RULES } from "./law-rules.ts";

describe("docs/regulation.md", () => {
  const doc = readFileSync(new URL("../../docs/regulation.md", import.meta.url), "utf8");
  it.each(LAW_RULES.map((r) => [r.id, r] as const))("lists %s", (id, rule) => {
    // A table row, its cells trimmed (the formatter pads them to align the columns).
    const cells = doc
      .split("\n")
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .find((row) => row[1] === `\`${id}\``);
    expect(cells, id).toBeDefined();
    expect(cells?.[2]).toBe(rule.countryCode ?? "all");
    expect(cells?.[4]).toBe(rule.risk);
    expect(cells?.[5]).toBe(rule.verified ? "yes" : "**no**");
    expect(cells?.[6]).toBe(rule.source);
  });
});
