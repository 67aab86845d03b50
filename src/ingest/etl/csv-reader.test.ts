// The CSV reader: RFC 4180 quoting, line numbers, line endings and chunk boundaries.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { readCsvBatches } from "./csv-reader.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-csv-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function read(text: string, chunkBytes?: number) {
  const file = path.join(dir, `f${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(file, text);
  const out: { line: number; fields: string[] }[] = [];
  for await (const batch of readCsvBatches(file, chunkBytes ? { chunkBytes } : {})) out.push(...batch);
  return out;
}

describe("readCsvBatches", () => {
  it("reads plain and quoted fields with the line each record starts on", async () => {
    const text = 'a,b,c\n1,"x,y",3\r\n\n4,"multi\nline ""q""",6\n7,,\n"",8,"9"';
    const records = await read(text);
    expect(records).toEqual([
      { line: 1, fields: ["a", "b", "c"] },
      { line: 2, fields: ["1", "x,y", "3"] },
      { line: 4, fields: ["4", 'multi\nline "q"', "6"] },
      { line: 6, fields: ["7", "", ""] },
      { line: 7, fields: ["", "8", "9"] },
    ]);
    // The same as csv-parse (which wants one kind of line break), blank lines aside.
    expect(records.map((r) => r.fields)).toEqual(
      parse(text.replace("\r\n", "\n"), { skip_empty_lines: true }),
    );
  });

  it("gives the same records whatever the chunk size", async () => {
    const rows = Array.from({ length: 300 }, (_, i) =>
      i % 7 === 0 ? `${i},"q,${i}\n""x""",z` : `${i},0x${"ab".repeat(20)},${"9".repeat(i % 30)}`,
    );
    const text = `n,a,b\r\n${rows.join("\r\n")}\r\n`;
    const whole = await read(text);
    for (const size of [1, 3, 17, 64, 1000]) expect(await read(text, size)).toEqual(whole);
    expect(whole).toHaveLength(301);
    expect(whole.at(-1)?.line).toBe(1 + 300 + Math.ceil(300 / 7));
  });

  it("skips a byte order mark and reads a last line without a line break", async () => {
    expect(await read("\ufeffh1,h2\nx,y")).toEqual([
      { line: 1, fields: ["h1", "h2"] },
      { line: 2, fields: ["x", "y"] },
    ]);
  });

  it("names the line of an unterminated quote or a stray quote", async () => {
    await expect(read('h\n"ok"\n"open\nmore')).rejects.toThrow(/:3: unterminated quoted field/);
    await expect(read('h,i\nab"c,d')).rejects.toThrow(/:2: a quote inside an unquoted field/);
  });
});
