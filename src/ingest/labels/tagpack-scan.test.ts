// The streaming TagPack reader reads real TagPacks (the fixtures, cut from GraphSense's packs) exactly as a
// whole-document YAML parse does, and names the line of what it cannot read. test/full-data/labels.test.ts does the
// same on every pack of the full data set when it is present.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixture } from "../../../test/support/fixtures.ts";
import { readTagPackBothWays } from "../../../test/support/tagpack-agreement.ts";
import { InputError } from "./row-problems.ts";
import { readTagPackHeader, readTagPackItems } from "./tagpack-scan.ts";

const PACKS = fixture("graphsense-tagpacks");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-tagpack-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function read(file: string) {
  const header = await readTagPackHeader(file);
  const tags: { line: number; tag: Record<string, unknown> }[] = [];
  for await (const item of readTagPackItems(file)) tags.push(item);
  return { header, tags };
}

describe("TagPack reader", () => {
  it("agrees with a whole-document parse on every fixture TagPack", async () => {
    const files = fs.readdirSync(PACKS).filter((name) => name.endsWith(".yaml"));
    expect(files).toHaveLength(8);
    let total = 0;
    for (const name of files) {
      const { streamed, whole } = await readTagPackBothWays(path.join(PACKS, name));
      expect(streamed.header, name).toEqual(whole.header);
      expect(streamed.tags, name).toEqual(whole.tags);
      total += streamed.tags.length;
    }
    // 61 + 86 + 59 + 21 + 150 + 6 + 39 + 100 tags (test/fixtures/SOURCES.md).
    expect(total).toBe(522);
  });

  it("gives each tag its line, reads header fields after the list, and YAML the simple reader can't", async () => {
    const file = write(
      "pack.yaml",
      [
        "title: Test",
        "tags:",
        "  # a comment",
        "  - address: '0xAB'",
        "    label: 'it''s'",
        "",
        "  - address: 1abc",
        "    concepts:",
        "      - exchange",
        "    context: |",
        "      # not a comment",
        "      two",
        "creator: someone",
        "",
      ].join("\n"),
    );
    const { header, tags } = await read(file);
    expect(header).toEqual({ title: "Test", creator: "someone" });
    expect(tags).toEqual([
      { line: 4, tag: { address: "0xAB", label: "it's" } },
      { line: 7, tag: { address: "1abc", concepts: ["exchange"], context: "# not a comment\ntwo\n" } },
    ]);
  });

  it("names the file and line of bad YAML and refuses what is not a TagPack", async () => {
    const bad = write("bad.yaml", "title: x\ntags:\n- address: a\n  label: [unclosed\n- address: b\n");
    await expect(read(bad)).rejects.toThrow(new RegExp(`^${bad}:4: invalid YAML`));
    const flow = write("flow.yaml", "title: x\ntags: [{address: a}]\n");
    await expect(read(flow)).rejects.toThrow(`${flow}:2: "tags" must be a block list`);
    const none = write("none.yaml", "title: x\n");
    await expect(read(none)).rejects.toThrow(InputError);
    const scalar = write("scalar.yaml", "title: x\ntags:\n- just text\n");
    await expect(read(scalar)).rejects.toThrow(`${scalar}:3: a tag must be a mapping of fields`);
  });
});
