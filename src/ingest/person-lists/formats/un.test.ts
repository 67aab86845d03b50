// The UN Security Council's consolidated list, read from a cut of the real consolidated.xml of 2020-03-20.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { collect, FIXTURES } from "./test-helpers.ts";
import { readUn } from "./un.ts";

const FILE = path.join(FIXTURES, "un_consolidated.xml");
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "vigia-un-"));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

describe("un", () => {
  it("reads dateGenerated as the version and every individual and entity", async () => {
    const reader = await readUn([FILE]);
    expect(reader.info).toEqual({
      kind: "un",
      version: "2020-03-20T19:09:21.822-04:00",
      listDate: "2020-03-20",
      source: FILE,
    });
    const { entries, problems, skips, byId, items } = await collect(reader);
    expect(problems).toEqual([]);
    expect(skips).toEqual([]);
    expect(entries.filter((e) => e.type === "person")).toHaveLength(15);
    expect(entries.filter((e) => e.type === "entity")).toHaveLength(7);
    expect(items[0]?.line).toBe(3);
    // Names with stray spaces in the list ("CHO  ", "CHUN RYONG ") are joined cleanly; the trailing space of
    // "KPi.034 " would not survive either.
    expect(byId.get("KPi.038")).toEqual({
      entryId: "KPi.038",
      type: "person",
      names: ["CHO CHUN RYONG", "Jo Chun Ryong"],
      dates: ["1960-04-04"],
      countries: ["KP"],
      identifiers: [],
      programs: ["DPRK"],
    });
  });

  it("reads the original script, aliases, documents with their issuing country, and ranges of years", async () => {
    const { byId } = await collect(await readUn([FILE]));
    expect(byId.get("QDi.346")).toMatchObject({
      names: [
        "'ABD AL-MALIK MUHAMMAD YUSUF 'UTHMAN 'ABD AL-SALAM",
        "عبدالملك محمد يوسف عثمان عبد السلام",
        "'Abd al-Malik Muhammad Yusif 'Abd-al-Salam",
        "'Umar al-Qatari",
        "'Umar al-Tayyar",
      ],
      dates: ["1989-07-13"],
      countries: ["JO"],
      identifiers: [
        { kind: "passport", value: "K475336", country: "JO" },
        { kind: "national_id", value: "28940000602", country: "QA" },
      ],
      programs: ["Al-Qaida"],
    });
    expect(byId.get("QDi.420")?.dates).toEqual(["1965", "1966", "1967", "1968", "1969"]);
    expect(byId.get("CFi.002")?.countries).toEqual(["CF", "SD"]);
    expect(byId.get("QDe.001")).toMatchObject({
      type: "entity",
      names: ["ABU SAYYAF GROUP", "Al Harakat Al Islamiyya"],
      countries: [],
      programs: ["Al-Qaida"],
    });
  });

  it("refuses a truncated file, even one cut between records", async () => {
    const text = await fs.readFile(FILE, "utf8");
    const between = path.join(tmp, "between.xml");
    await fs.writeFile(between, text.slice(0, text.indexOf("</INDIVIDUALS>")));
    await expect(collect(await readUn([between]))).rejects.toThrow(
      /truncated: no closing <\/CONSOLIDATED_LIST>/,
    );
    const inside = path.join(tmp, "inside.xml");
    await fs.writeFile(inside, text.slice(0, text.indexOf("</ENTITY>")));
    await expect(collect(await readUn([inside]))).rejects.toThrow(/truncated: a <ENTITY> is not closed/);
  });

  it("refuses a file that is not the consolidated list, and more than one file", async () => {
    await expect(readUn([path.join(FIXTURES, "ofac_cons.xml")])).rejects.toThrow(
      /not the UN Security Council consolidated list/,
    );
    await expect(readUn([FILE, FILE])).rejects.toThrow(/expected one file, got 2/);
  });

  it("reports a record without a reference number as a problem", async () => {
    const text = await fs.readFile(FILE, "utf8");
    const file = path.join(tmp, "noref.xml");
    await fs.writeFile(file, text.replace("<REFERENCE_NUMBER>KPi.037</REFERENCE_NUMBER>", ""));
    const { problems, entries } = await collect(await readUn([file]));
    expect(problems).toEqual([
      { line: 5, problem: "a <INDIVIDUAL> without REFERENCE_NUMBER (DATAID 6908570)" },
    ]);
    expect(entries).toHaveLength(21);
  });
});
