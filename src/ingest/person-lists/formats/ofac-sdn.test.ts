// OFAC's SDN list read from a cut of the real sdn.csv/alt.csv (2021-04) and of a real OFAC XML list in SDN.XML form.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "../../labels/row-problems.ts";
import { parseRemarks, readOfacSdn } from "./ofac-sdn.ts";
import { collect, FIXTURES } from "./test-helpers.ts";

const SDN = path.join(FIXTURES, "ofac-csv/sdn.csv");
const ALT = path.join(FIXTURES, "ofac-csv/alt.csv");
const XML = path.join(FIXTURES, "ofac_cons.xml");

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "vigia-ofac-"));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe("ofac-sdn, CSV", () => {
  it("reads sdn.csv with alt.csv found beside it: persons, entities, vessels and aircraft skipped", async () => {
    const reader = await readOfacSdn([SDN], { source: "https://www.treasury.gov/ofac/downloads/sdn.csv" });
    expect(reader.info).toEqual({
      kind: "ofac-sdn",
      version: undefined,
      listDate: undefined,
      source: "https://www.treasury.gov/ofac/downloads/sdn.csv",
    });
    const { entries, skips, problems, byId } = await collect(reader);
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(25);
    expect(skips).toEqual([
      { line: 7, skip: "OFAC vessel" },
      { line: 8, skip: "OFAC vessel" },
      { line: 26, skip: "OFAC aircraft" },
    ]);
    expect(entries.filter((e) => e.type === "person")).toHaveLength(16);
    expect(byId.get("10356")).toEqual({
      entryId: "10356",
      type: "person",
      names: ["ZAMBADA NIEBLA, Modesta"],
      dates: ["1982-11-22"],
      countries: ["MX"],
      identifiers: [
        { kind: "passport", value: "95040018273", country: "MX" },
        { kind: "rfc", value: "ZANM821122H87", country: "MX" },
        { kind: "curp", value: "ZANM821122MSLMBD07", country: "MX" },
      ],
      programs: ["SDNTK"],
      remarks:
        "DOB 22 Nov 1982; POB Culiacan, Sinaloa, Mexico; nationality Mexico; citizen Mexico; Passport 95040018273 (Mexico); R.F.C. ZANM-821122-H87 (Mexico); C.U.R.P. ZANM821122MSLMBD07 (Mexico).",
    });
  });

  it("merges alt.csv's aliases and the remarks' a.k.a.s after the primary name", async () => {
    const { byId } = await collect(await readOfacSdn([SDN, ALT]));
    expect(byId.get("306")?.names).toEqual(["BANCO NACIONAL DE CUBA", "NATIONAL BANK OF CUBA", "BNC"]);
    expect(byId.get("9338")?.names).toEqual([
      "ARRIOLA MARQUEZ, Miguel Angel",
      "ARREOLA MARQUEZ, Miguel Angel",
    ]);
    expect(byId.get("7156")).toMatchObject({
      type: "entity",
      names: ["DISTRIBUIDORA IMPERIAL DE BAJA CALIFORNIA, S.A. DE C.V.", "DISTRIBUIDORA IMPERIAL", "DIBC"],
      identifiers: [{ kind: "rfc", value: "DIB771110HQ1", country: "MX" }],
    });
    expect(byId.get("6862")?.names).toHaveLength(30);
  });

  it("reads sdn.csv alone (no alt.csv beside it) with the aliases of the remarks only", async () => {
    const copy = path.join(tmp, "sdn.csv");
    await fs.copyFile(SDN, copy);
    const { byId } = await collect(await readOfacSdn([copy]));
    expect(byId.get("306")?.names).toEqual(["BANCO NACIONAL DE CUBA", "BNC"]);
  });

  it("reads dates of birth exact, by month, circa and as ranges of years, and several programmes", async () => {
    const { byId } = await collect(await readOfacSdn([SDN]));
    expect(byId.get("4106")?.dates).toEqual(["1951-08-24", "1951-07-05"]);
    expect(byId.get("7782")?.dates).toEqual(["1951"]);
    expect(byId.get("15496")?.dates).toEqual(["1929", "1930"]);
    expect(byId.get("12057")).toMatchObject({
      dates: ["1951", "1952", "1953", "1960", "1961", "1962", "1961-04"],
      countries: ["IR"],
      programs: ["SDGT", "NPWMD", "IRGC", "IFSR", "IRAN-HR", "IRAN-EO13876"],
    });
  });

  it("reads identifiers: Colombian cédula and NIT, Spanish D.N.I., tax ids, a CURP that is not one kept as other", async () => {
    const { byId } = await collect(await readOfacSdn([SDN]));
    expect(byId.get("4107")?.identifiers).toEqual([
      { kind: "national_id", value: "6068015", country: "CO" },
      { kind: "national_id", value: "6067015", country: "CO" },
      { kind: "passport", value: "T321642", country: "CO" },
      { kind: "passport", value: "6067015", country: "KM" },
      { kind: "passport", value: "77588", country: "AR" },
      { kind: "passport", value: "10545599", country: "VE" },
    ]);
    expect(byId.get("4359")?.identifiers).toEqual([{ kind: "tax_id", value: "800146749-7", country: "CO" }]);
    expect(byId.get("7178")?.identifiers).toEqual([
      { kind: "national_id", value: "78.865.882", country: "ES" },
    ]);
    expect(byId.get("10321")?.identifiers).toEqual([
      { kind: "passport", value: "97140096573", country: "MX" },
      { kind: "tax_id", value: "2665307-9", country: "GT" },
      { kind: "curp", value: "CAUP590612HJCDRR09", country: "MX" },
      { kind: "rfc", value: "CAVP590612AD1", country: "MX" },
    ]);
    // OFAC's own typo (17 characters): not a CURP, but kept as evidence.
    expect(byId.get("9338")?.identifiers).toContainEqual({
      kind: "other",
      value: "AIMM67125HCHRRG06",
      country: "MX",
    });
    // An RFC without its homoclave is still an RFC.
    expect(byId.get("11927")?.identifiers).toEqual([{ kind: "rfc", value: "SAEA740214", country: "MX" }]);
  });

  it("parses remark segments on their own", () => {
    expect(
      parseRemarks("DOB circa 1960; alt. DOB 1962 to 1963; citizen Colombia; a.k.a. 'EL GORDO'."),
    ).toMatchObject({
      births: ["1960", "1962", "1963"],
      countries: ["CO"],
      names: ["EL GORDO"],
    });
  });

  it("reports a row that is not 12 columns as a problem and goes on", async () => {
    const file = path.join(tmp, "bad-sdn.csv");
    const text = await fs.readFile(SDN, "utf8");
    const lines = text.split("\r\n");
    lines.splice(1, 0, '999,"SOMEONE",individual,SDGT');
    await fs.writeFile(file, lines.join("\r\n"), "utf8");
    const { problems, entries } = await collect(await readOfacSdn([file]));
    expect(problems).toEqual([{ line: 2, problem: "expected 12 columns (sdn.csv), got 4" }]);
    expect(entries).toHaveLength(25);
  });

  it("refuses a cut-off CSV (an unclosed quote) and a file of another format", async () => {
    const cut = path.join(tmp, "cut.csv");
    const text = await fs.readFile(SDN, "utf8");
    await fs.writeFile(cut, text.slice(0, text.indexOf("HERRERA BUITRAGO") + 5));
    await expect(collect(await readOfacSdn([cut]))).rejects.toThrow(InputError);
    await expect(readOfacSdn([path.join(FIXTURES, "sat_69b_listado_completo.csv")])).rejects.toThrow(
      /not OFAC's SDN list: expected sdn.csv .* or SDN.XML/,
    );
    await expect(readOfacSdn([ALT])).rejects.toThrow(/this is OFAC's alt.csv/);
  });
});

describe("ofac-sdn, XML", () => {
  it("reads the publish date and record count as the version, then every entry", async () => {
    const reader = await readOfacSdn([XML]);
    expect(reader.info).toMatchObject({
      version: "2024-05-06 11 records",
      listDate: "2024-05-06",
      source: XML,
    });
    const { entries, problems, byId } = await collect(reader);
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(11);
    expect(byId.get("9647")).toEqual({
      entryId: "9647",
      type: "person",
      names: ["Mahmoud Khaled ZAHHAR", "Mahmoud Khaled AL ZAHAR", "ZAHAR, Mahmoud", "AL-ZAHAR, Mahmoud"],
      dates: ["1945"],
      countries: ["PS"],
      identifiers: [],
      programs: ["NS-PLC", "SDGT"],
      remarks: "(Linked To: HAMAS)",
    });
    expect(byId.get("26182")).toMatchObject({
      dates: ["1980-02-08"],
      countries: ["TR"],
      identifiers: [{ kind: "passport", value: "U00242309", country: "TR" }],
    });
    expect(byId.get("18299")).toMatchObject({
      type: "entity",
      identifiers: [
        { kind: "tax_id", value: "CHE-309.842.573", country: "CH" },
        { kind: "other", value: "CH-660.0.257.011-8", country: "CH" },
      ],
    });
    expect(byId.get("46072")).toMatchObject({
      type: "entity",
      dates: ["1963"],
      names: ["MYANMA OIL AND GAS ENTERPRISE", "MOGE", "M.O.G.E."],
    });
  });

  it("refuses a truncated SDN.XML and one whose entries do not add up to Record_Count", async () => {
    const text = await fs.readFile(XML, "utf8");
    const cut = path.join(tmp, "cut.xml");
    await fs.writeFile(cut, text.slice(0, text.lastIndexOf("</sdnList>")));
    await expect(collect(await readOfacSdn([cut]))).rejects.toThrow(/truncated: no closing <\/sdnList>/);
    const midEntry = path.join(tmp, "mid.xml");
    await fs.writeFile(midEntry, text.slice(0, text.lastIndexOf("</sdnEntry>")));
    await expect(collect(await readOfacSdn([midEntry]))).rejects.toThrow(/truncated/);
    const short = path.join(tmp, "short.xml");
    const last = text.lastIndexOf("  <sdnEntry>");
    await fs.writeFile(
      short,
      text.slice(0, last) + text.slice(text.indexOf("</sdnEntry>", last) + "</sdnEntry>".length),
    );
    await expect(collect(await readOfacSdn([short]))).rejects.toThrow(/10 entries but Record_Count says 11/);
  });
});
