// docs/regulation.md lists every law rule of the table, with its risk and whether its figures are verified.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { LAW_RULES } from "./law-rules.ts";

describe("docs/regulation.md", () => {
  const doc = readFileSync(new URL("../../docs/regulation.md", import.meta.url), "utf8");
  it.each(LAW_RULES.map((r) => [r.id, r] as const))("lists %s", (id, rule) => {
    const row = doc.split("\n").find((line) => line.startsWith(`| \`${id}\` |`));
    expect(row, id).toBeDefined();
    const cells = (row as string).split(" | ");
    expect(cells[1]).toBe(rule.countryCode ?? "all");
    expect(cells[3]).toBe(rule.risk);
    expect(cells[4]).toBe(rule.verified ? "yes" : "**no**");
    expect(row).toContain(rule.source);
  });
});
