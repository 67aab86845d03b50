// The category mapping: source names to the normalised set, the riskiest of several wins, docs/labels.md lists it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { categoryOf, LABEL_CATEGORIES, normalizeCategories } from "./categories.ts";

describe("label categories", () => {
  it("maps GraphSense concepts, explorer slugs and the normalized CSV categories", () => {
    expect(categoryOf("mixing_service")).toBe("mixer");
    expect(categoryOf("coinjoin")).toBe("mixer");
    expect(categoryOf("mixer_pool")).toBe("mixer");
    expect(categoryOf("mixer_governance")).toBe("other");
    expect(categoryOf("tornado-cash")).toBe("mixer");
    expect(categoryOf("sanction")).toBe("sanctioned");
    expect(categoryOf("ofac-sanctions-lists")).toBe("sanctioned");
    expect(categoryOf("sanctioned_historical")).toBe("sanctioned_historical");
    for (const name of [
      "phish-hack",
      "heist",
      "exploit",
      "scam",
      "ransomware",
      "ponzi_scheme",
      "service_hack",
    ]) {
      expect(categoryOf(name)).toBe("illicit");
    }
    expect(categoryOf("black_list")).toBe("blocklisted");
    expect(categoryOf("blacklisted_by_issuer")).toBe("blocklisted");
    expect(categoryOf("blocked")).toBe("other"); // Etherscan: a token with a blocklist, not a risky address
    expect(categoryOf("defi_bridge")).toBe("bridge");
    expect(categoryOf("defi_dex")).toBe("defi");
    expect(categoryOf("Exchange")).toBe("exchange");
    expect(categoryOf("market")).toBe("other"); // GraphSense: legitimate or illegitimate
    expect(categoryOf("user")).toBe("other");
  });

  it("keeps the riskiest of several categories and the original text", () => {
    expect(normalizeCategories(["", "user", "sanction"])).toEqual({
      category: "sanctioned",
      original: "user;sanction",
    });
    expect(normalizeCategories(["exchange;phish-hack|bridge"])).toEqual({
      category: "illicit",
      original: "exchange;phish-hack;bridge",
    });
    expect(normalizeCategories(["", ""])).toEqual({ category: "other", original: null });
  });

  it("is documented in docs/labels.md", () => {
    const docs = fs.readFileSync(new URL("../../../docs/labels.md", import.meta.url), "utf8");
    for (const category of LABEL_CATEGORIES) expect(docs).toContain(`| \`${category}\``);
  });
});
