// normaliseName: accents, order, particles, legal forms, transliterations.
import { describe, expect, it } from "vitest";
import { looksLikeEntity, normaliseName } from "./normalise.ts";

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
});
