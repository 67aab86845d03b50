// The matcher on a handful of entries: each rule of the name score, and what dates, identifiers and types do.
import { describe, expect, it } from "vitest";
import type { ListEntry } from "../entry.ts";
import { type IndexedEntry, PersonMatcher } from "./matcher.ts";
import { tokenSimilarity } from "./similarity.ts";
import { DEFAULT_THRESHOLDS, verdictOf } from "./thresholds.ts";

const entry = (e: Partial<IndexedEntry> & Pick<ListEntry, "entryId" | "names">): IndexedEntry => ({
  type: "person",
  dates: [],
  countries: [],
  identifiers: [],
  programs: ["SDNTK"],
  list: "ofac-sdn",
  listVersion: "test",
  ...e,
});

const ENTRIES = [
  entry({
    entryId: "1",
    names: ["GUZMAN LOERA, Joaquin Archivaldo", "GUZMAN, Chapo"],
    dates: ["1954-04-04"],
    countries: ["MX"],
  }),
  entry({
    entryId: "2",
    names: ["TREVINO MORALES, Miguel Angel"],
    dates: ["1973-06-18"],
    identifiers: [{ kind: "curp", value: "TEMM730618HTSRRG01" }],
  }),
  entry({ entryId: "3", names: ["DE LA TORRE GARCIA, Maria Jose"], dates: ["1980"] }),
  entry({
    entryId: "4",
    names: ["GARCIA LOPEZ, Juan"],
    identifiers: [{ kind: "rfc", value: "GALJ-800101-AB1" }],
  }),
  entry({ entryId: "5", type: "entity", names: ["DISTRIBUIDORA IMPERIAL DE BAJA CALIFORNIA, S.A. DE C.V."] }),
  entry({ entryId: "6", names: ["BIN LADIN, Usama bin Muhammad bin Awad"], dates: ["1957-07-30"] }),
  entry({ entryId: "7", names: ["HERNANDEZ RAMIREZ, Rogelio"], dates: ["1966-01-12"] }),
  // A PEP whose name is all common words, and one with a rarer surname.
  entry({ entryId: "8", names: ["Juan Estrada"], list: "ftm", programs: ["role.pep"] }),
  entry({ entryId: "9", names: ["Ximena Ramírez Durán"], list: "ftm", programs: ["role.pep"] }),
  entry({ entryId: "10", names: ["José Luis Hernández García"], dates: ["1971-09-03"], list: "ftm" }),
];
const matcher = new PersonMatcher(ENTRIES);
const top = (name: string, extra: object = {}) =>
  matcher.search({ name, ...extra }, { floor: 0.3 }).candidates[0];

describe("PersonMatcher", () => {
  it("finds a name whatever its accents, case and order", () => {
    for (const q of [
      "Joaquín Archivaldo Guzmán Loera",
      "GUZMAN LOERA JOAQUIN ARCHIVALDO",
      "Loera Guzman, Joaquin Archivaldo",
    ]) {
      const c = top(q);
      expect(c?.entry.entryId).toBe("1");
      expect(c?.score).toBe(1);
      expect(c?.matchedFields).toContain("name");
    }
  });
  it("matches two surnames swapped and particles written or not", () => {
    expect(top("Miguel Angel Morales Treviño")?.score).toBe(1);
    expect(top("María José Delatorre García")?.score).toBeGreaterThanOrEqual(0.9);
    expect(top("MariaJose de la Torre Garcia")?.score).toBeGreaterThanOrEqual(0.9);
  });
  it("keeps a name lacking its maternal surname or a middle name in review", () => {
    const missingSurname = top("Joaquin Archivaldo Guzman");
    expect(missingSurname?.entry.entryId).toBe("1");
    expect(missingSurname?.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS["ofac-sdn"].review);
    const missingMiddle = top("Joaquin Guzman Loera");
    expect(missingMiddle?.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS["ofac-sdn"].review);
  });
  it("tolerates a typo", () => {
    expect(tokenSimilarity("garcia", "gracia")).toBeGreaterThanOrEqual(0.85);
    const c = top("Joaquin Archivaldo Guzman Loeras");
    expect(c?.entry.entryId).toBe("1");
    expect(c?.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS["ofac-sdn"].match);
  });
  it("matches transliterations", () => {
    const c = top("Osama bin Mohammed bin Awad Bin Laden");
    expect(c?.entry.entryId).toBe("6");
    expect(c?.score).toBeGreaterThanOrEqual(0.9);
  });
  it("matches an entity with or without its legal form", () => {
    const c = matcher.search(
      { name: "Distribuidora Imperial de Baja California SA de CV", type: "entity" },
      { floor: 0.5 },
    );
    expect(c.candidates[0]?.entry.entryId).toBe("5");
    expect(c.candidates[0]?.score).toBe(1);
    expect(top("DISTRIBUIDORA IMPERIAL DE BAJA CALIFORNIA")?.score).toBe(1);
    // a person's name against an entity's is strongly lowered
    expect(top("Distribuidora Imperial de Baja California", { type: "person" })?.score).toBeLessThan(0.7);
  });
  it("does not make a candidate of one common surname", () => {
    const r = matcher.search({ name: "García" }, { floor: DEFAULT_THRESHOLDS["ofac-sdn"].review });
    expect(r.candidates).toEqual([]);
    const r2 = matcher.search({ name: "Pedro Hernández Gómez" }, { floor: 0.5 });
    expect(r2.candidates).toEqual([]);
    expect(verdictOf(matcher.search({ name: "José García Pérez" }, { floor: 0.3 }).candidates)).toBe("clear");
  });
  it("rules out a namesake by birthdate, and raises a match by it", () => {
    const r = matcher.search({ name: "Rogelio Hernández Ramírez", date: "1990-05-01" }, { floor: 0.5 });
    expect(r.candidates).toEqual([]);
    expect(r.ruledOut[0]?.entry.entryId).toBe("7");
    expect(r.ruledOut[0]?.reason).toMatch(/birthdate 1990-05-01 differs/);
    const same = top("Rogelio Hernandez", { date: "1966-01-12" });
    expect(same?.matchedFields).toContain("date");
    expect(same?.notes).toContain("birthdate 1966-01-12 matches");
    expect(same?.score).toBeGreaterThan(same?.nameScore ?? 1);
    // a year apart neither rules out nor confirms
    expect(top("Rogelio Hernandez Ramirez", { date: "1967" })?.entry.entryId).toBe("7");
  });
  it("confirms a different-looking name by its RFC, and rules out by a different CURP", () => {
    const c = top("J. García", { identifiers: [{ kind: "rfc", value: "galj800101ab1" }] });
    expect(c?.entry.entryId).toBe("4");
    expect(c?.score).toBe(1);
    expect(c?.matchedFields).toContain("identifier");
    const r = matcher.search(
      { name: "Miguel Angel Treviño Morales", identifiers: [{ kind: "curp", value: "TEMM900101HNLRRG09" }] },
      { floor: 0.5 },
    );
    expect(r.candidates).toEqual([]);
    expect(r.ruledOut[0]?.reason).toMatch(/CURP/);
  });
  it("reads an identifier as shown: a Cyrillic look-alike, a fullwidth letter or an invisible character in a CURP neither hides nor rules out", () => {
    // Treviño's CURP on the list is TEMM730618HTSRRG01; written with a Cyrillic Т and М, a fullwidth Ｒ and a
    // zero-width space, it is the same CURP.
    const r = matcher.search(
      {
        name: "Miguel Angel Treviño Morales",
        identifiers: [{ kind: "curp", value: "\u0422E\u041CM730618HTS\uFF32\u200BRG01" }],
      },
      { floor: 0.5 },
    );
    expect(r.ruledOut).toEqual([]);
    expect(r.candidates[0]?.matchedFields).toContain("identifier");
  });
  it("notes a differing nationality and lowers slightly", () => {
    const c = top("Joaquin Archivaldo Guzman Loera", { country: "VE" });
    expect(c?.notes).toContain("nationality VE differs from MX");
    expect(c?.score).toBeLessThan(1);
    expect(c?.score).toBeGreaterThan(0.9);
  });
  it("reports its size and keeps limits", () => {
    expect(matcher.size).toBe(ENTRIES.length);
    expect(matcher.search({ name: "Guzman" }, { floor: 0, limit: 1 }).candidates.length).toBeLessThanOrEqual(
      1,
    );
  });

  it("a word where the list name has another lowers the score under review", () => {
    const c = matcher.search({ name: "Ximena Ramírez Alvarado" }, { floor: 0.3 }).candidates;
    const pep = c.find((x) => x.entry.entryId === "9");
    expect(pep?.score ?? 0).toBeLessThan(DEFAULT_THRESHOLDS.ftm.review);
    expect(top("Ximena Ramírez Durán")?.entry.entryId).toBe("9");
  });

  it("a partial name agreeing only on common words is no candidate by itself, but a matching birthdate makes it one", () => {
    const extra = matcher.search({ name: "Juan Estrada Hernández" }, { floor: 0.3 }).candidates;
    expect(extra.find((x) => x.entry.entryId === "8")?.score ?? 0).toBeLessThan(
      DEFAULT_THRESHOLDS.ftm.review,
    );
    const missing = matcher.search({ name: "José Luis Hernández" }, { floor: 0.3 }).candidates;
    expect(missing.find((x) => x.entry.entryId === "10")?.score ?? 0).toBeLessThan(
      DEFAULT_THRESHOLDS.ftm.review,
    );
    const dated = matcher.search(
      { name: "José Luis Hernández", date: "1971-09-03" },
      { floor: 0.3 },
    ).candidates;
    expect(dated.find((x) => x.entry.entryId === "10")?.score).toBeGreaterThanOrEqual(
      DEFAULT_THRESHOLDS.ftm.review,
    );
    // The whole name, even of common words only, is a candidate.
    expect(top("Estrada Juan")?.entry.entryId).toBe("8");
    expect(top("Estrada Juan")?.score).toBeGreaterThanOrEqual(DEFAULT_THRESHOLDS.ftm.review);
  });
});
