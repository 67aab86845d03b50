// `vigia lists import` (src/ingest/person-lists, written by src/screening/lists/import.ts) on the database: each
// list's committed fixture imported with its version and date; all or nothing (a malformed row fails the import
// and nothing of it is seen, unless --skip-invalid); the same content imported again changes nothing; a new version
// replaces the old one's entries while its row stays; an entry id read twice is one entry; an empty or truncated
// file never empties a list; a list dated earlier than the current one is refused unless forced. PGlite, or
// PostgreSQL with DATABASE_URL.
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

describe("a list is never rolled back unless forced", () => {
  const un = fs.readFileSync(at("un_consolidated.xml"), "utf8");
  /** The UN fixture as the publisher would have dated it `generated`, with one name changed (another content). */
  const unDated = (generated: string, name = "RI") => {
    const file = path.join(tmp, `un-${generated.slice(0, 10)}-${name}.xml`);
    fs.writeFileSync(
      file,
      un
        .replace(/dateGenerated="[^"]*"/, `dateGenerated="${generated}"`)
        .replace("<FIRST_NAME> RI </FIRST_NAME>", `<FIRST_NAME> ${name} </FIRST_NAME>`),
    );
    return file;
  };
  const current = async (kind: ListKind) => (await lists()).find((l) => l.kind === kind && l.current);

  it("an older UN list after a newer one is refused, says how to force it, and changes nothing", async () => {
    const newer = await importPersonListFiles(database.db, "un", [unDated("2026-01-05T10:00:00Z", "RII")]);
    expect(newer).toMatchObject({ status: "imported", list_date: "2026-01-05" });
    const before = await lists();
    // The reviewer's import: the 2020 list over the 2026 one.
    const old = at("un_consolidated.xml");
    await expect(importPersonListFiles(database.db, "un", [old])).rejects.toThrow(
      `${old}: this un list is dated 2020-03-20, older than the current version 2026-01-05T10:00:00Z (dated 2026-01-05); importing it would roll the list back, so nothing was changed. To import it anyway, run the command again with --force`,
    );
    expect(await lists()).toEqual(before);
    const run = await database.db
      .selectFrom("import_runs")
      .select(["status", "error"])
      .where("kind", "=", "person-list:un")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(run.status).toBe("failed");
  });

  it("forced, the older list is imported and the summary says what it went back from", async () => {
    const forced = await importPersonListFiles(database.db, "un", [at("un_consolidated.xml")], {
      force: true,
    });
    expect(forced).toMatchObject({
      status: "imported",
      list_date: "2020-03-20",
      rolled_back_from: "2026-01-05",
    });
    expect((await current("un"))?.list_date).toBe("2020-03-20");
    // A newer one is imported again without force, and says nothing of a rollback.
    const again = await importPersonListFiles(database.db, "un", [unDated("2026-01-05T10:00:00Z", "RII")]);
    expect(again.status).toBe("imported");
    expect(again.rolled_back_from).toBeUndefined();
  });

  it("the same date: the same content changes nothing, other content (the day's correction) is imported", async () => {
    const same = await importPersonListFiles(database.db, "un", [unDated("2026-01-05T10:00:00Z", "RII")]);
    expect(same.status).toBe("unchanged");
    const corrected = await importPersonListFiles(database.db, "un", [
      unDated("2026-01-05T18:00:00Z", "RIII"),
    ]);
    expect(corrected).toMatchObject({ status: "imported", list_date: "2026-01-05" });
    expect(corrected.rolled_back_from).toBeUndefined();
  });

  it("the SAT's list by its 'Información actualizada al' date; the same entries republished later take that date", async () => {
    const sat = fs.readFileSync(at("sat_69b_listado_completo.csv"));
    const newer = path.join(tmp, "69b-2026.csv");
    fs.writeFileSync(
      newer,
      Buffer.from(sat.toString("latin1").replace("30 de noviembre de 2022", "31 de enero de 2026"), "latin1"),
    );
    // No entry changed, so nothing is written but the later date: an older list is then compared with it.
    expect(await importPersonListFiles(database.db, "sat-69b", [newer])).toMatchObject({
      status: "unchanged",
      version: "2026-01-31",
      list_date: "2026-01-31",
    });
    expect(await current("sat-69b")).toMatchObject({ version: "2026-01-31", list_date: "2026-01-31" });
    const before = await lists();
    await expect(
      importPersonListFiles(database.db, "sat-69b", [at("sat_69b_listado_completo.csv")]),
    ).rejects.toThrow(/dated 2022-11-30, older than .* \(dated 2026-01-31\).*--force/);
    expect(await lists()).toEqual(before);
  });

  it("FollowTheMoney, whose date is known only once the whole file is read, is refused at its end", async () => {
    const ftm = fs.readFileSync(at("opensanctions_zala.ftm.jsonl"), "utf8");
    const older = path.join(tmp, "older.ftm.jsonl");
    fs.writeFileSync(older, ftm.replace(/"(last_change|last_seen)": "\d{4}-/g, '"$1": "2019-'));
    const before = await lists();
    expect((await current("ftm"))?.list_date).toMatch(/^202[0-9]-/);
    await expect(importPersonListFiles(database.db, "ftm", [older])).rejects.toThrow(
      /this ftm list is dated 2019-.*older than the current version .*--force/,
    );
    expect(await lists()).toEqual(before);
  });

  it("a list that would lose more than the allowed share of its entries is refused with both counts, unless allowed", async () => {
    const sat = fs.readFileSync(at("sat_69b_listado_completo.csv")).toString("latin1");
    const lines = sat.split("\n");
    const head = lines.slice(0, 3);
    const rows = lines.slice(3).filter((line) => line.trim() !== "");
    const dated = (date: string, kept: string[]) => {
      const file = path.join(tmp, `69b-${date.replaceAll(" ", "-")}-${kept.length}.csv`);
      const text = [...head, ...kept, ""].join("\n").replace("31 de enero de 2026", date);
      fs.writeFileSync(file, Buffer.from(text.replace("30 de noviembre de 2022", date), "latin1"));
      return file;
    };
    const held = (await current("sat-69b"))?.entries as number;
    expect(held).toBeGreaterThan(20);
    // One taxpayer fewer: well within 10 %.
    const fewer = await importPersonListFiles(
      database.db,
      "sat-69b",
      [dated("28 de febrero de 2026", rows.slice(1))],
      {
        maxShrink: 0.1,
      },
    );
    expect(fewer).toMatchObject({ status: "imported", entries: held - 1 });
    // A truncated download: four rows where the list holds the rest.
    const truncated = dated("31 de marzo de 2026", rows.slice(1, 5));
    const before = await lists();
    const refused = importPersonListFiles(database.db, "sat-69b", [truncated], { maxShrink: 0.1 });
    await expect(refused).rejects.toThrow(
      `${truncated}: this sat-69b list holds 4 entries where the current version holds ${held - 1}; importing it would remove ${held - 5}`,
    );
    await expect(refused).rejects.toThrow(
      /more than the 10 % allowed \(VIGIA_LIST_MAX_SHRINK_PERCENT\).*--allow-shrink/,
    );
    expect(await lists()).toEqual(before);
    const allowed = await importPersonListFiles(database.db, "sat-69b", [truncated], {
      maxShrink: 0.1,
      allowShrink: true,
    });
    expect(allowed).toMatchObject({ status: "imported", entries: 4 });
  });
});
