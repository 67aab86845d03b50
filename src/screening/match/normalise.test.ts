// normaliseName: accents, order, particles, legal forms, transliterations.
import { describe, expect, it } from "vitest";
import { comparedTokens, looksLikeEntity, normaliseName } from "./normalise.ts";

describe("normaliseName", () => {
  it("lower-cases, strips accents and punctuation, and puts OFAC's 'LAST, First' back in order", () => {
    expect(normaliseName("GUZMÁN LOERA, Joaquín")).toEqual(["joaquin", "guzman", "loera"]);
    expect(normaliseName("Núñez-Peña, José")).toEqual(["jose", "nunez", "pena"]);
  });
  it("drops particles and titles", () => {
    expect(normaliseName("María de los Ángeles de la Torre y Díaz")).toEqual([
      "maria",
      "angeles",
      "torre",
      "diaz",
    ]);
    expect(normaliseName("Dr. Ayman AL-ZAWAHIRI")).toEqual(["ayman", "zawahiri"]);
  });
  it("splits camelCase and expands Mexican abbreviations", () => {
    expect(normaliseName("MariaJose delaTorre")).toEqual(["maria", "jose", "dela", "torre"]);
    expect(normaliseName("Ma. Guadalupe Fco. Pérez")).toEqual(["maria", "guadalupe", "francisco", "perez"]);
  });
  it("drops legal forms from entities, and tells an entity by them", () => {
    expect(normaliseName("Distribuidora Imperial, S.A. de C.V.", "entity")).toEqual([
      "distribuidora",
      "imperial",
    ]);
    expect(normaliseName("GRUPO X, S. DE R.L. DE C.V.", "entity")).toEqual(["grupo", "x"]);
    expect(looksLikeEntity("Comercial Ltda.")).toBe(true);
    expect(looksLikeEntity("Juan Sánchez")).toBe(false);
  });
  it("folds transliteration variants, also one typo away", () => {
    for (const n of ["Mohammed", "Muhammad", "Mohamed", "Mohamad"])
      expect(normaliseName(n)).toEqual(["muhammad"]);
    expect(normaliseName("Osama")).toEqual(normaliseName("Usama"));
    expect(normaliseName("Abdulrahman")).toEqual(["abd", "rahman"]);
    expect(normaliseName("Abd al-Rahman")).toEqual(["abd", "rahman"]);
    expect(normaliseName("Isamel")).toEqual(["ismail"]);
  });
  it("reads names as shown: invisible characters, fullwidth letters and look-alikes of other scripts", () => {
    const listed = normaliseName("GUZMÁN LOERA, Joaquín");
    for (const disguised of [
      "Joaquín Guz\u200Bmán Loera",
      "Joaquín Guz\u00ADmán Lo\u2060era\uFEFF",
      "ＪＯＡＱＵＩＮ ＧＵＺＭＡＮ ＬＯＥＲＡ",
      "Jo\u0430quín Guzm\u0430n L\u043Eera",
      "GUZM\u0391N LOERA, Joaquín", // Greek Alpha
    ])
      expect(normaliseName(disguised), disguised).toEqual(listed);
  });
  it("has nothing to compare in a name of particles, titles or legal forms only", () => {
    for (const n of ["de la", "Lic. de los", "S.A. de C.V."]) expect(comparedTokens(n)).toEqual([]);
    expect(comparedTokens("de la O")).toEqual(["o"]);
    // The lists keep such entries findable by their own tokens.
    expect(normaliseName("de la")).toEqual(["de", "la"]);
  });
});
