// visibleForm and visibleName: invisible characters, compatibility forms and look-alike letters read as shown.
import { describe, expect, it } from "vitest";
import { visibleForm, visibleName } from "./visible-text.ts";

describe("visibleForm", () => {
  it("leaves plain and accented Latin names as they are", () => {
    for (const n of ["Joaquín Guzmán Loera", "José Ñúñez", "O'Brien", "GÜEMES"])
      expect(visibleForm(n)).toBe(n);
  });
  it("drops what renders as nothing: zero-width space, soft hyphen, word joiner, U+FEFF, a variation selector", () => {
    for (const c of [
      "\u200B",
      "\u00AD",
      "\u2060",
      "\uFEFF",
      "\uFE0F",
      "\u200C",
      "\u200D",
      "\u034F",
      "\u3164",
    ])
      expect(visibleForm(`Guz${c}mán`), `U+${c.codePointAt(0)?.toString(16)}`).toBe("Guzmán");
  });
  it("reads fullwidth and mathematical letters as the plain ones", () => {
    expect(visibleForm("ＧＵＺＭＡＮ")).toBe("GUZMAN");
    expect(visibleForm("𝐆𝐮𝐳𝐦𝐚𝐧")).toBe("Guzman");
  });
  it("reads Cyrillic, Greek and Armenian look-alikes as the Latin letters they imitate, keeping case", () => {
    expect(visibleForm("Guzm\u0430n L\u043Eera")).toBe("Guzman Loera"); // Cyrillic а, о
    expect(visibleForm("\u0406VAN \u03A1ETROV")).toBe("IVAN PETROV"); // Cyrillic І, Greek Ρ
    expect(visibleForm("\u0408\u043E\u0455\u0435")).toBe("Jose"); // all Cyrillic
    expect(visibleForm("\u0570\u0585\u057D\u0565")).not.toContain("\u0585"); // Armenian օ → o
  });
  it("leaves a name written in a script that imitates nothing alone", () => {
    expect(visibleForm("محمد")).toBe("محمد");
    expect(visibleForm("李小龍")).toBe("李小龍");
  });
});

describe("visibleName", () => {
  it("says nothing of a name that reads as stored", () => {
    expect(visibleName("José Peña")).toEqual({ visible: "José Peña", hidden: [], mixedScripts: false });
    // A no-break space reads as the space it is.
    expect(visibleName("José\u00A0Peña").hidden).toEqual([]);
  });
  it("names each hiding character with its code point and position", () => {
    const read = visibleName("Guz\u200Bm\u0430n");
    expect(read.visible).toBe("Guzman");
    expect(read.hidden).toEqual([
      { kind: "invisible", character: "U+200B", at: 3, readsAs: "" },
      { kind: "look-alike", character: "U+0430", at: 5, readsAs: "a" },
    ]);
    expect(read.mixedScripts).toBe(true);
    expect(visibleName("ＧＵＺ").hidden.map((h) => h.kind)).toEqual([
      "compatibility",
      "compatibility",
      "compatibility",
    ]);
  });
  it("a name wholly in Cyrillic is that script's own, not a disguise; one whose every letter reads as Latin is", () => {
    expect(visibleName("Владимир Путин")).toMatchObject({ hidden: [], mixedScripts: false });
    expect(visibleName("\u0408\u043E\u0455\u0435").hidden).toHaveLength(4);
  });
});
