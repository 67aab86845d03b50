// The catalog is whole in both languages: every text parses as ICU, both languages take the same arguments, and a
// Spanish text that is word for word the English one is listed here as meant (names, codes), or it is a text
// nobody translated.
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { CATALOG, negotiateLang, translate } from "../../src/messages/index.ts";

/** Spanish texts that are the English ones on purpose. */
const SAME_IN_BOTH = new Set<string>([
  // "{actor} {what}.": a sentence's frame, the same order in both languages
  "case.history.sentence",
]);

function argumentsOf(text: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: ReturnType<typeof parse>) => {
    for (const node of nodes) {
      if (node.type === TYPE.literal || node.type === TYPE.pound) continue;
      if ("value" in node && typeof node.value === "string" && node.type !== TYPE.tag) names.add(node.value);
      if ("options" in node)
        for (const option of Object.values(node.options)) walk((option as { value: typeof nodes }).value);
      if (node.type === TYPE.tag) walk(node.children);
    }
  };
  walk(parse(text));
  return [...names].sort();
}

describe("the message catalog", () => {
  const ids = Object.keys(CATALOG.en) as (keyof typeof CATALOG.en)[];

  it("has the same ids in both languages", () => {
    expect(Object.keys(CATALOG.es).sort()).toEqual([...ids].sort());
  });

  it.each(ids)("%s parses and takes the same arguments in Spanish and English", (id) => {
    expect(argumentsOf(CATALOG.es[id])).toEqual(argumentsOf(CATALOG.en[id]));
  });

  it("has every Spanish text translated, apart from those listed as the same", () => {
    const untranslated = ids.filter((id) => CATALOG.es[id] === CATALOG.en[id] && !SAME_IN_BOTH.has(id));
    expect(untranslated).toEqual([]);
  });

  it("formats plurals and numbers in each language's way", () => {
    expect(translate("es", "error.rate_limited", { seconds: 1 })).toContain("1 segundo");
    expect(translate("en", "error.rate_limited", { seconds: 30 })).toContain("30 seconds");
  });
});

describe("choosing the language", () => {
  it("takes the user's setting first", () => {
    expect(negotiateLang("en", "es-MX,es;q=0.9")).toBe("en");
    expect(negotiateLang("es-MX", "en-US")).toBe("es");
  });
  it("else the Accept-Language by weight, else Spanish", () => {
    expect(negotiateLang(undefined, "fr-FR, en;q=0.8, es;q=0.5")).toBe("en");
    expect(negotiateLang(undefined, "es-MX,es;q=0.9,en;q=0.8")).toBe("es");
    expect(negotiateLang(undefined, "de-DE")).toBe("es");
    expect(negotiateLang(undefined, undefined)).toBe("es");
  });
});
