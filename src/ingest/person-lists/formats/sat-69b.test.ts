// The SAT's 69-B list read from a cut of the real Listado_Completo_69-B.csv (Latin-1, updated 2022-11-30).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decodeWindows1252 } from "./csv.ts";
import { readSat69b, spanishDate } from "./sat-69b.ts";
import { collect, FIXTURES } from "./test-helpers.ts";

const FILE = path.join(FIXTURES, "sat_69b_listado_completo.csv");
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "vigia-sat-"));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe("sat-69b", () => {
  it("reads the update date, every taxpayer with its situation, and skips the withheld rows", async () => {
    const reader = await readSat69b([FILE]);
    expect(reader.info).toEqual({
      kind: "sat-69b",
      version: "2022-11-30",
      listDate: "2022-11-30",
      source: FILE,
    });
    const { entries, problems, skips, byId } = await collect(reader);
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(25);
    // The first withheld row's name runs over three lines (a quoted field): the next row is on line 30.
    expect(skips).toEqual([
      { line: 27, skip: "RFC withheld by the SAT (información suprimida)" },
      { line: 30, skip: "RFC withheld by the SAT (información suprimida)" },
    ]);
    expect(byId.get("ZULM591126520")).toBeDefined();
    expect(byId.get("AAA080808HL8")).toEqual({
      entryId: "AAA080808HL8",
      type: "entity",
      names: ["ASESORES EN AVALÚOS Y ACTIVOS, S.A. DE C.V."],
      dates: [],
      countries: ["MX"],
      identifiers: [{ kind: "rfc", value: "AAA080808HL8", country: "MX" }],
      programs: ["Sentencia Favorable"],
    });
    expect(byId.get("ZUMA760304AH6")).toMatchObject({
      type: "person",
      names: ["ZUÑIGA MARTINEZ JOSÉ ASCENCION"],
    });
    const situations = new Set(entries.flatMap((e) => e.programs));
    expect(situations).toEqual(new Set(["Definitivo", "Presunto", "Desvirtuado", "Sentencia Favorable"]));
    expect(entries.filter((e) => e.type === "person")).toHaveLength(9);
  });

  it("decodes Latin-1 with Windows' curly quotes, and no-break spaces, as the SAT writes them", async () => {
    const { byId } = await collect(await readSat69b([FILE]));
    expect(byId.get("AAL081211JP0")?.names).toEqual(["“A&L CONSULTORES”, S.C."]);
    expect(byId.get("ABO0201151J7")?.names).toEqual(["ABOAFF, S.A. DE C.V."]);
    expect(byId.get("GCS140219980")?.names).toEqual([
      "GRUPO COMERCIALIZADOR Y DE SERVICIOS FACTORY SYSTEM’S, S.A. DE C.V.",
    ]);
    expect(byId.get("AD&061011ET5")?.identifiers).toEqual([
      { kind: "rfc", value: "AD&061011ET5", country: "MX" },
    ]);
  });

  it("reads the same list saved as UTF-8", async () => {
    const utf8 = path.join(tmp, "utf8.csv");
    const text = decodeWindows1252(await fs.readFile(FILE));
    await fs.writeFile(utf8, text, "utf8");
    const latin = await collect(await readSat69b([FILE]));
    const unicode = await collect(await readSat69b([utf8]));
    expect(unicode.items).toEqual(latin.items);
  });

  it("reports a row whose RFC is not an RFC, and keeps both rows of an RFC listed twice", async () => {
    const bad = path.join(tmp, "bad.csv");
    const bytes = await fs.readFile(FILE);
    await fs.writeFile(
      bad,
      Buffer.from(bytes.toString("latin1").replace("AAA091014835", "AAA0910148"), "latin1"),
    );
    const { problems, entries } = await collect(await readSat69b([bad]));
    expect(problems).toEqual([
      {
        line: 5,
        problem: 'RFC "AAA0910148" is not an RFC (12 or 13 characters: letters, YYMMDD, homoclave)',
      },
    ]);
    expect(entries.filter((e) => e.entryId === "CIE1002042L8").map((e) => e.programs)).toEqual([
      ["Definitivo"],
      ["Sentencia Favorable"],
    ]);
  });

  it("refuses a file without the 69-B header", async () => {
    await expect(readSat69b([path.join(FIXTURES, "ofac-csv/sdn.csv")])).rejects.toThrow(
      /not the SAT's 69-B list: no header row "No,RFC,Nombre del Contribuyente/,
    );
  });

  it("reads the Spanish update date", () => {
    expect(spanishDate("Información actualizada al 30 de noviembre de 2022")).toBe("2022-11-30");
    expect(spanishDate("Informacion actualizada al 1 de Septiembre del 2025")).toBe("2025-09-01");
    expect(spanishDate("sin fecha")).toBeUndefined();
  });
});
