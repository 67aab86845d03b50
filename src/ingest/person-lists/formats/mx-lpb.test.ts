// Vigía's CSV for the UIF's Lista de Personas Bloqueadas, read from an invented fixture (the list is not public).
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LPB_COLUMNS, readMxLpb } from "./mx-lpb.ts";
import { collect, FIXTURES } from "./test-helpers.ts";

const FILE = path.join(FIXTURES, "mx_lpb_invented.csv");
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "vigia-lpb-"));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe("mx-lpb", () => {
  it("reads the version and date comments, the entries, and reports the bad rows", async () => {
    const reader = await readMxLpb([FILE]);
    expect(reader.info).toEqual({
      kind: "mx-lpb",
      version: "LPB-PRUEBA-2026-07",
      listDate: "2026-07-15",
      source: FILE,
    });
    const { entries, problems, byId } = await collect(reader);
    expect(entries.map((e) => e.entryId)).toEqual(["LPB-0001", "LPB-0002", "LPB-0003"]);
    expect(problems).toEqual([
      { line: 8, problem: "LPB-0004: rfc SIE900101AB3 has 12 characters; a persona física has 13" },
      { line: 9, problem: 'LPB-0005: tipo "extranjera" is neither fisica nor moral' },
      { line: 10, problem: 'LPB-0006: fecha_nacimiento "12/04/1978" is not YYYY-MM-DD, YYYY-MM or YYYY' },
    ]);
    expect(byId.get("LPB-0001")).toEqual({
      entryId: "LPB-0001",
      type: "person",
      names: ["Ficticio Ejemplo PRUEBALOPEZ INVENTADO", "El Ficticio", "F. Pruebalopez"],
      dates: ["1978-04-12"],
      countries: ["MX"],
      identifiers: [
        { kind: "rfc", value: "PUIF780412AB1", country: "MX" },
        { kind: "curp", value: "PUIF780412HDFRNC09", country: "MX" },
        { kind: "passport", value: "G99990001" },
      ],
      programs: ["LPB"],
      remarks: "alta 2026-01-20; fundamento: Art. 115 LIC; acuerdo de prueba, inventado",
    });
    expect(byId.get("LPB-0002")).toMatchObject({
      type: "entity",
      names: ["COMERCIALIZADORA DE PRUEBA INVENTADA, S.A. DE C.V.", "CPI Inventada"],
      dates: ["2015-09-01"],
      countries: ["MX"],
      identifiers: [{ kind: "rfc", value: "CPI150901XY2", country: "MX" }],
    });
    expect(byId.get("LPB-0003")).toMatchObject({ dates: ["1990"], countries: ["CO", "MX"], identifiers: [] });
  });

  it("reads a file without the comment lines (version and date left to the store)", async () => {
    const file = path.join(tmp, "plain.csv");
    const text = await fs.readFile(FILE, "utf8");
    await fs.writeFile(file, text.split("\n").slice(3).join("\n"));
    const reader = await readMxLpb([file]);
    expect(reader.info.version).toBeUndefined();
    expect(reader.info.listDate).toBeUndefined();
    const { entries, problems } = await collect(reader);
    expect(entries).toHaveLength(3);
    expect(problems[0]?.line).toBe(5);
  });

  it("refuses a file without the documented header, naming the missing columns", async () => {
    const file = path.join(tmp, "wrong.csv");
    await fs.writeFile(file, "id,nombre,rfc\n1,Alguien,AAAA000101AA1\n");
    await expect(readMxLpb([file])).rejects.toThrow(
      /not Vigía's Lista de Personas Bloqueadas CSV: missing column\(s\) tipo, apellido_paterno/,
    );
    expect(LPB_COLUMNS).toHaveLength(13);
  });

  it("refuses a file that is not UTF-8", async () => {
    const file = path.join(tmp, "latin1.csv");
    await fs.writeFile(
      file,
      Buffer.from(`${LPB_COLUMNS.join(",")}\n1,fisica,José,PÉREZ,,,,,,,MX,,\n`, "latin1"),
    );
    await expect(readMxLpb([file])).rejects.toThrow(/not UTF-8/);
  });
});
