// Optional extra, run where the full data set is present (test/support/full-data.ts): every committed fixture is a
// faithful cut of it. Files copied whole are byte-equal to their source; cut TagPacks have the source's header and
// its first tags; the cut label CSV has the source's header and a subsequence of its lines; the committed AVI
// schema is the data set's copy; and scripts/cut-fixtures.ts, run again, writes exactly the committed fixtures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cutFixtures, TAGPACK_CUTS, verbatimFixtures } from "../../scripts/cut-fixtures.ts";
import { AVI_XSD_FILE } from "../../src/jurisdictions/mx/avi-schema.ts";
import { FIXTURES, fixture } from "../support/fixtures.ts";
import { fullData } from "../support/full-data.ts";

const data = fullData();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-fixtures-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();

describe("fixtures are faithful cuts of the full data set", () => {
  it("copies files whole, byte for byte", (ctx) => {
    ctx.skip(!data.path, data.skipReason);
    const copies = Object.entries(verbatimFixtures(data.path!));
    expect(copies.length).toBeGreaterThanOrEqual(16);
    for (const [from, to] of copies) {
      expect(fs.readFileSync(fixture(to)).equals(fs.readFileSync(path.join(data.path!, from))), to).toBe(
        true,
      );
    }
  });

  it("cuts TagPacks to their header and first tags", (ctx) => {
    ctx.skip(!data.path, data.skipReason);
    for (const [name, count] of Object.entries(TAGPACK_CUTS)) {
      const read = (file: string) => parse(fs.readFileSync(file, "utf8"), { schema: "failsafe" });
      const { tags: cutTags, ...cutHeader } = read(fixture(`graphsense-tagpacks/${name}.yaml`));
      const { tags, ...header } = read(path.join(data.path!, "labels/graphsense_tagpacks", `${name}.yaml`));
      expect(cutHeader, name).toEqual(header);
      expect(cutTags, name).toEqual(tags.slice(0, count));
    }
  });

  it("cuts the normalized labels to a subsequence of their lines", (ctx) => {
    ctx.skip(!data.path, data.skipReason);
    // Split on \n alone: the source's lines end in \r\n, and the cut keeps them so.
    const lines = (file: string) => fs.readFileSync(file, "utf8").replace(/\n$/, "").split("\n");
    const cut = lines(fixture("labels/risk_labels_normalized.csv"));
    const source = lines(path.join(data.path!, "labels/risk_labels_normalized.csv"));
    expect(cut[0]).toBe(source[0]);
    let at = 1;
    for (const line of cut.slice(1)) {
      while (at < source.length && source[at] !== line) at += 1;
      expect(at, `fixture line "${line}" is not in the source after the previous one`).toBeLessThan(
        source.length,
      );
      at += 1;
    }
  });

  it("ships the data set's AVI schema", (ctx) => {
    const xsd = fullData("schemas/mx/avi.xsd");
    ctx.skip(!xsd.path, xsd.skipReason);
    expect(fs.readFileSync(AVI_XSD_FILE).equals(fs.readFileSync(xsd.path!))).toBe(true);
  });

  it("are what scripts/cut-fixtures.ts writes", async (ctx) => {
    ctx.skip(!data.path, data.skipReason);
    const written = await cutFixtures(data.path!, tmp);
    // The lists of persons and the bitcoin-etl sample are cut from public repositories, not from this data set
    // (test/fixtures/SOURCES.md).
    const committed = filesUnder(FIXTURES).filter(
      (file) =>
        file !== "SOURCES.md" && !file.startsWith("person-lists/") && !file.startsWith("bitcoin-etl/"),
    );
    expect([...written].sort()).toEqual(committed);
    for (const file of committed) {
      expect(fs.readFileSync(path.join(tmp, file)).equals(fs.readFileSync(fixture(file))), file).toBe(true);
    }
  });
});
