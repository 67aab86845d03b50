// Which enabled jurisdiction governs a client: the address's own, the profile's country (residence by default, or
// nationality), the project's map of countries, its `otherwise`, and a single jurisdiction's default.
import { describe, expect, it } from "vitest";
import { filingJurisdictions, governingJurisdiction } from "./governing.ts";

const client = (residence?: string, nationality?: string) => ({
  ...(residence ? { address: { country: residence } } : {}),
  ...(nationality ? { nationality } : {}),
});

describe("the governing jurisdiction", () => {
  const both = ["CO", "MX"];
  it("is the residence's, else the nationality's, when the project enables it", () => {
    expect(governingJurisdiction(both, null, client("MX", "CO"), null)).toBe("MX");
    expect(governingJurisdiction(both, null, client(undefined, "co"), null)).toBe("CO");
    expect(governingJurisdiction(both, { basis: "nationality" }, client("MX", "CO"), null)).toBe("CO");
  });
  it("follows the project's map of countries", () => {
    expect(governingJurisdiction(both, { countries: { US: "MX" } }, client("US"), null)).toBe("MX");
    expect(governingJurisdiction(both, { countries: { US: "SV" } }, client("US"), null)).toBeNull();
  });
  it("is none for a client of no enabled jurisdiction, unless `otherwise` says", () => {
    expect(governingJurisdiction(both, null, client("US"), null)).toBeNull();
    expect(governingJurisdiction(both, { otherwise: "CO" }, client("US"), null)).toBe("CO");
    expect(governingJurisdiction(both, null, client(), null)).toBeNull();
  });
  it("is the only jurisdiction of a project that enables one, unless `otherwise` is null", () => {
    expect(governingJurisdiction(["MX"], null, client("US"), null)).toBe("MX");
    expect(governingJurisdiction(["MX"], { otherwise: null }, client("US"), null)).toBeNull();
    expect(governingJurisdiction(["MX"], null, undefined, null)).toBe("MX");
  });
  it("is the address's own when it was registered with one, if enabled", () => {
    expect(governingJurisdiction(both, null, client("MX"), "CO")).toBe("CO");
    expect(governingJurisdiction(both, null, client("MX"), "GT")).toBeNull();
  });
});

describe("filing by nationality too (alsoByNationality, LFPIORPI Art. 17 XVI as reformed in 2025)", () => {
  const mexicanInBogota = { nationality: "MX", address: { country: "CO" } };
  const also = { alsoByNationality: ["MX"] };
  it("a Mexican living in Colombia is filed in Colombia by residence and in Mexico by nationality", () => {
    expect(filingJurisdictions(["MX", "CO"], also, mexicanInBogota, null)).toEqual(["CO", "MX"]);
  });
  it("not without the setting, not for another nationality, not when Mexico is not enabled, not twice", () => {
    expect(filingJurisdictions(["MX", "CO"], null, mexicanInBogota, null)).toEqual(["CO"]);
    expect(
      filingJurisdictions(["MX", "CO"], also, { nationality: "AR", address: { country: "CO" } }, null),
    ).toEqual(["CO"]);
    expect(filingJurisdictions(["CO"], also, mexicanInBogota, null)).toEqual(["CO"]);
    expect(
      filingJurisdictions(["MX", "CO"], also, { nationality: "MX", address: { country: "MX" } }, null),
    ).toEqual(["MX"]);
  });
  it("an address registered under a jurisdiction is that one's alone; a client no one governs is filed nowhere", () => {
    expect(filingJurisdictions(["MX", "CO"], also, mexicanInBogota, "CO")).toEqual(["CO"]);
    expect(
      filingJurisdictions(
        ["MX", "CO"],
        { ...also, otherwise: null },
        { nationality: "MX", address: { country: "AR" } },
        null,
      ),
    ).toEqual([]);
  });
});
