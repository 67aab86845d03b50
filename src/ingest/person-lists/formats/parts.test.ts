// The shared pieces of the readers: country names, dates and identifiers as the lists write them.
import { describe, expect, it } from "vitest";
import { countryCode, isAlpha2 } from "./countries.ts";
import { ofacDates, oneDate, yearRange } from "./dates.ts";
import { identifier, identifierKind, isCurp, isRfc } from "./identifiers.ts";

describe("countries", () => {
  it("reads English and Spanish names, codes, and the lists' own spellings", () => {
    expect(countryCode("Mexico")).toBe("MX");
    expect(countryCode("México")).toBe("MX");
    expect(countryCode("Estados Unidos")).toBe("US");
    expect(countryCode("Korea, North")).toBe("KP");
    expect(countryCode("Democratic People's Republic of Korea ")).toBe("KP");
    expect(countryCode("Iran (Islamic Republic of)")).toBe("IR");
    expect(countryCode("Bosnia-Herzegovina")).toBe("BA");
    expect(countryCode("mx")).toBe("MX");
    expect(countryCode("COL")).toBe("CO");
    expect(countryCode("Region: Gaza")).toBeUndefined();
    expect(countryCode("")).toBeUndefined();
    expect(isAlpha2("ru")).toBe(true);
    expect(isAlpha2("zz")).toBe(false);
    expect(isAlpha2("suhh")).toBe(false);
  });
});

describe("dates", () => {
  it("reads OFAC's forms and ISO dates, and nothing invalid", () => {
    expect(oneDate("12 Jan 1960")).toBe("1960-01-12");
    expect(oneDate("Jan 1960")).toBe("1960-01");
    expect(oneDate("1960-01-12T00:00:00")).toBe("1960-01-12");
    expect(oneDate("31 Feb 1960")).toBeUndefined();
    expect(oneDate("12/01/1960")).toBeUndefined();
    expect(ofacDates("circa 1960")).toEqual(["1960"]);
    expect(ofacDates("1960 to 1962")).toEqual(["1960", "1961", "1962"]);
    expect(ofacDates("12 Jan 1960 to 14 Jan 1960")).toEqual(["1960-01-12", "1960-01-14"]);
    expect(yearRange(1900, 1990)).toEqual(["1900", "1990"]);
  });
});

describe("identifiers", () => {
  it("names the kinds and writes RFC and CURP compact", () => {
    expect(identifierKind("R.F.C.")).toBe("rfc");
    expect(identifierKind("C.U.R.P.")).toBe("curp");
    expect(identifierKind("Passport")).toBe("passport");
    expect(identifierKind("Cedula No.")).toBe("national_id");
    expect(identifierKind("NIT #")).toBe("tax_id");
    expect(identifierKind("Registration ID")).toBe("other");
    expect(identifierKind("Gender")).toBeUndefined();
    expect(identifierKind("Secondary sanctions risk:")).toBeUndefined();
    expect(identifier("rfc", "ZANM-821122-H87")).toEqual({ kind: "rfc", value: "ZANM821122H87" });
    expect(identifier("curp", "bugs640327mslnrn01", "MX")).toEqual({
      kind: "curp",
      value: "BUGS640327MSLNRN01",
      country: "MX",
    });
    expect(isRfc("AD&061011ET5")).toBe(true);
    expect(isCurp("AIMM67125HCHRRG06")).toBe(false);
  });
});
