// OpenSanctions' FollowTheMoney JSON lines, read from real entities of yente's test fixtures.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readFtm } from "./ftm.ts";
import { collect, FIXTURES } from "./test-helpers.ts";

const ZALA = path.join(FIXTURES, "opensanctions_zala.ftm.jsonl");
const EU = path.join(FIXTURES, "opensanctions_eu_fsf.ftm.jsonl");
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "vigia-ftm-"));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe("ftm", () => {
  it("reads persons and companies, skips the other schemas, and takes the latest change as the version", async () => {
    const reader = await readFtm([ZALA]);
    const { entries, skips, problems, byId } = await collect(reader);
    expect(reader.info).toEqual({
      kind: "ftm",
      version: "2026-04-29T12:53:04",
      listDate: "2026-04-29",
      source: ZALA,
    });
    expect(problems).toEqual([]);
    expect(entries.filter((e) => e.type === "person")).toHaveLength(6);
    expect(entries.filter((e) => e.type === "entity")).toHaveLength(11);
    expect(skips.map((s) => s.skip).sort()).toEqual([
      "FtM Address",
      "FtM Address",
      "FtM Directorship",
      "FtM Family",
      "FtM Ownership",
      "FtM Ownership",
      "FtM Passport",
      "FtM Sanction",
      "FtM Sanction",
      "FtM Sanction",
    ]);
    const zakharov = byId.get("NK-aU5ybkbRFJucf8YMwsJvDw");
    expect(zakharov).toMatchObject({ type: "person", dates: ["1965-09-21"], countries: ["RU"] });
    expect(zakharov?.names[0]).toBe("Alexander Vyacheslavovich ZAKHAROV");
    expect(zakharov?.names).toContain("Александр Вячеславович Захаров");
    expect(zakharov?.programs).toEqual(expect.arrayContaining(["sanction", "us_ofac_sdn", "eu_fsf"]));
    expect(byId.get("NK-abdzbEBkqyT29GyREbiURZ")).toMatchObject({ type: "entity", countries: ["RU"] });
    expect(byId.get("NK-abdzbEBkqyT29GyREbiURZ")?.names).toContain("Zala Aero");
  });

  it("reads an Organization, drops countries that are not ISO codes, and reads a file without a final newline", async () => {
    const { entries, byId } = await collect(await readFtm([EU]));
    expect(entries).toHaveLength(6);
    expect(byId.get("NK-2PacmNpiLUmoz4XD2mSt7A")).toEqual({
      entryId: "NK-2PacmNpiLUmoz4XD2mSt7A",
      type: "entity",
      names: ["IRGC", "Iranian Revolutionary Guard Corps"],
      dates: [],
      countries: ["IR"],
      identifiers: [],
      programs: ["sanction", "eu_fsf"],
      remarks: "Corrigendum 267/2012 (OJ L88) [corr. 04/12/2012-2]",
    });
    expect(byId.get("NK-2Ka3UvopqbpZmVDFjWd4LA")).toMatchObject({
      names: ["Vitaly Yurievich KUZMENKO", "Vitalij Kuzmenko", "Виталий Юрьевич КУЗЬМЕНКО"],
      dates: ["1971-01-22"],
      identifiers: [{ kind: "tax_id", value: "366510784303" }],
    });
  });

  it("recognises a Mexican RFC in taxNumber and a CURP in idNumber; a broken line is a problem", async () => {
    const file = path.join(tmp, "mx.ftm.jsonl");
    const lines = [
      JSON.stringify({
        id: "test-mx-1",
        schema: "Person",
        properties: {
          name: ["Persona Inventada Prueba"],
          taxNumber: ["PUIP800101AB1"],
          idNumber: ["PUIP800101HDFRNR09", "12345"],
          nationality: ["mx", "suhh"],
          birthDate: ["1980-01-01"],
          topics: ["role.pep"],
        },
        datasets: ["mx_test"],
      }),
      '{"id": "cut", "schema": "Person", "propert',
    ];
    await fs.writeFile(file, `${lines.join("\n")}\n`);
    const { entries, problems } = await collect(await readFtm([file]));
    expect(entries[0]).toEqual({
      entryId: "test-mx-1",
      type: "person",
      names: ["Persona Inventada Prueba"],
      dates: ["1980-01-01"],
      countries: ["MX"],
      identifiers: [
        { kind: "rfc", value: "PUIP800101AB1", country: "MX" },
        { kind: "curp", value: "PUIP800101HDFRNR09", country: "MX" },
        { kind: "national_id", value: "12345" },
      ],
      programs: ["role.pep", "mx_test"],
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2 });
    expect(problems[0]?.problem).toMatch(/^not JSON/);
  });

  it("refuses a file that is not FollowTheMoney JSON lines", async () => {
    await expect(readFtm([path.join(FIXTURES, "un_consolidated.xml")])).rejects.toThrow(
      /not FollowTheMoney JSON lines/,
    );
  });
});
