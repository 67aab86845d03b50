// Every rule of every jurisdiction's book has its title in the catalog, in both languages.
import { describe, expect, it } from "vitest";
import { CATALOG } from "../messages/index.ts";
import { JURISDICTION_CODES, ruleBooksOf } from "./registry.ts";
import { ruleTitle } from "./rule-title.ts";

describe("rule titles", () => {
  const rules = ruleBooksOf(JURISDICTION_CODES).flatMap((book) => book.rules);

  it("has rules to check", () => {
    expect(rules.length).toBeGreaterThan(10);
  });

  it.each(rules.map((r) => [r.id, r.name]))("names %s in the catalog", (id) => {
    expect(Object.hasOwn(CATALOG.en, `rule.${id}`)).toBe(true);
  });

  it("says a title in the language asked, the law's own words kept where they are Spanish", () => {
    expect(ruleTitle("es", "XB-OFAC", "OFAC SDN: sanctioned counterparty")).toBe(
      "OFAC SDN: contraparte sancionada",
    );
    expect(ruleTitle("en", "MX-24H-LISTA", "x")).toBe(
      "LFPIORPI: 24-hour aviso (counterparty on a sanctions list)",
    );
    const mx = rules.find((r) => r.id === "MX-24H-LISTA");
    expect(ruleTitle("es", "MX-24H-LISTA", "x")).toBe(mx?.name);
    expect(ruleTitle("es", "NOT-A-RULE", "its own name")).toBe("its own name");
  });
});
