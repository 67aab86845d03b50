// `vigia lists import` (src/ingest/person-lists, written by src/screening/lists/import.ts) on the database: each
// list's committed fixture imported with its version and date; all or nothing (a malformed row fails the import
// and nothing of it is seen, unless --skip-invalid); the same content imported again changes nothing; a new version
// replaces the old one's entries while its row stays; an entry id read twice is one entry; an empty or truncated
// file never empties a list. PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPersonListFiles } from "../../src/ingest/index.ts";
import type { ListKind } from "../../src/screening/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/person-lists");
const at = (...p: string[]) => path.join(FIXTURES, ...p);
let database: Awaited<ReturnType<typeof openTestDatabase>>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-lists-"));
/** The project whose own LPB is imported (the UIF delivers it to each provider). */
let project: number;

beforeAll(async () => {
  database = await openTestDatabase();
  const row = await database.db
    .insertInto("projects")
    .values({ name: "LPB holder" })
    .returning("id")
    .executeTakeFirstOrThrow();
  project = row.id;
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const lists = () =>
  database.db
    .selectFrom("person_lists")
    .select(["kind", "version", "list_date", "entries", "current"])
    .orderBy("id")
    .execute();
const entriesOf = async (kind: ListKind) =>
  (
    await database.db
      .selectFrom("person_list_entries")
      .innerJoin("person_lists", "person_lists.id", "person_list_entries.list_id")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .where("person_lists.kind", "=", kind)
      .executeTakeFirstOrThrow()
  ).n;

describe("each list from its fixture", () => {
  it.each([
    ["ofac-sdn", [at("ofac-csv/sdn.csv"), at("ofac-csv/alt.csv")], /^sha256:/, null],
    ["un", [at("un_consolidated.xml")], /^2020-03-20/, "2020-03-20"],
    ["sat-69b", [at("sat_69b_listado_completo.csv")], /^2022-11-30/, "2022-11-30"],
    ["ftm", [at("opensanctions_zala.ftm.jsonl")], /./, null],
  ] as const)("%s", async (kind, files, version, listDate) => {
    const summary = await importPersonListFiles(database.db, kind, [...files]);
    expect(summary).toMatchObject({ kind, status: "imported", replaced: null, rejected: 0 });
    expect(summary.version).toMatch(version);
    if (listDate) expect(summary.list_date).toBe(listDate);
    expect(summary.entries).toBeGreaterThan(5);
    expect(Number(await entriesOf(kind))).toBe(summary.entries);
  });

  it("an entry id read twice (a taxpayer in two situations of the SAT's list) is one entry with both", async () => {
    const rows = await database.db
      .selectFrom("person_list_entries")
      .innerJoin("person_lists", "person_lists.id", "person_list_entries.list_id")
      .select(["entry"])
      .where("person_lists.kind", "=", "sat-69b")
      .execute();
    const ids = rows.map((r) => r.entry.entryId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("all or nothing, and idempotent", () => {
  it("a malformed row fails the whole import: nothing of it is seen, and the run says where", async () => {
    await expect(
      importPersonListFiles(database.db, "mx-lpb", [at("mx_lpb_invented.csv")], { projectId: project }),
    ).rejects.toThrow(/mx_lpb_invented\.csv:\d+: .*\(and 2 more rejected rows\)/);
    expect((await lists()).filter((l) => l.kind === "mx-lpb")).toEqual([]);
    const run = await database.db
      .selectFrom("import_runs")
      .select(["status", "error"])
      .where("kind", "=", "person-list:mx-lpb")
      .executeTakeFirstOrThrow();
    expect(run.status).toBe("failed");
  });

  it("--skip-invalid leaves the bad rows out and says how many", async () => {
    const summary = await importPersonListFiles(database.db, "mx-lpb", [at("mx_lpb_invented.csv")], {
      skipInvalid: true,
      projectId: project,
    });
    expect(summary).toMatchObject({ status: "imported", rejected: 3, version: "LPB-PRUEBA-2026-07" });
    expect(summary.rejected_rows).toHaveLength(3);
  });

  it("the same content again changes nothing", async () => {
    const before = await lists();
    const again = await importPersonListFiles(database.db, "ofac-sdn", [
      at("ofac-csv/sdn.csv"),
      at("ofac-csv/alt.csv"),
    ]);
    expect(again.status).toBe("unchanged");
    expect(await lists()).toEqual(before);
  });

  it("a new version replaces the old one's entries; the old version's row stays", async () => {
    const old = (await lists()).find((l) => l.kind === "ofac-sdn" && l.current);
    const xml = await importPersonListFiles(database.db, "ofac-sdn", [at("ofac_cons.xml")]);
    expect(xml).toMatchObject({
      status: "imported",
      version: "2024-05-06 11 records",
      list_date: "2024-05-06",
    });
    expect(xml.replaced).toEqual({ version: old?.version, entries: old?.entries });
    const ofac = (await lists()).filter((l) => l.kind === "ofac-sdn");
    expect(ofac.map((l) => l.current)).toEqual([false, true]);
    expect(Number(await entriesOf("ofac-sdn"))).toBe(xml.entries);
  });

  it("a file with no entry, or cut short, never empties a list", async () => {
    const before = await lists();
    const empty = path.join(tmp, "empty.xml");
    fs.writeFileSync(
      empty,
      '<?xml version="1.0" encoding="UTF-8"?><CONSOLIDATED_LIST dateGenerated="2026-11-01T00:00:00Z"><INDIVIDUALS/><ENTITIES/></CONSOLIDATED_LIST>\n',
    );
    await expect(importPersonListFiles(database.db, "un", [empty])).rejects.toThrow(/no un entry was read/);
    const cut = path.join(tmp, "cut.xml");
    const full = fs.readFileSync(at("un_consolidated.xml"), "utf8");
    fs.writeFileSync(cut, full.slice(0, Math.floor(full.length / 2)));
    await expect(importPersonListFiles(database.db, "un", [cut])).rejects.toThrow();
    expect(await lists()).toEqual(before);
  });

  it("an unknown file is refused with what was expected", async () => {
    await expect(importPersonListFiles(database.db, "sat-69b", [at("un_consolidated.xml")])).rejects.toThrow(
      /69-B|header|RFC/i,
    );
  });
});
