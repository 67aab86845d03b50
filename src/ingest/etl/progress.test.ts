// Progress of `import etl`: on a terminal one line at most 4 times a second, cleared at the end; elsewhere a log
// line every 10 s with the share of the export's bytes read (a file counts once read) and the time left.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { etlProgress } from "./progress.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-etl-progress-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: number) => {
  const at = path.join(dir, name);
  fs.writeFileSync(at, Buffer.alloc(bytes, 0x61));
  return at;
};
const files = [file("blocks.csv", 1 << 20), file("transactions.csv", 3 << 20)];
const sink = (isTTY: boolean) => {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (s: string) => written.push(s) > 0 } };
};

describe("etlProgress", () => {
  it("rewrites one line at most 4 times a second on a terminal, and clears it at the end", () => {
    const { written, stream } = sink(true);
    let now = 0;
    const progress = etlProgress(files, { stream, clock: () => now });
    for (let i = 1; i <= 100; i++) {
      now = i * 20; // 2 s in all
      progress.reading({ phase: "importing", file: "transactions.csv", rows: i * 1000, transfers: i * 10 });
    }
    expect(written.length).toBeGreaterThanOrEqual(7);
    expect(written.length).toBeLessThanOrEqual(9);
    expect(written.at(-1)?.slice(4)).toMatch(
      /^import etl: importing transactions\.csv: [\d,]+ rows \([\d,]+ rows\/s\), [\d,]+ new transfers; files read 0\.0 MiB of 4\.0 MiB \(0\.0 %\)$/,
    );
    progress.done();
    expect(written.at(-1)).toBe("\r\x1b[K");
  });

  it("elsewhere writes a timed line every 10 s with the bytes read, the share and the time left, and a last one", () => {
    const { written, stream } = sink(false);
    let now = Date.parse("2026-11-30T10:00:00Z");
    const progress = etlProgress(files, { stream, clock: () => now });
    progress.reading({ phase: "importing", file: "blocks.csv", rows: 0, transfers: 0 });
    now += 10_000;
    progress.reading({ phase: "importing", file: "transactions.csv", rows: 50_000, transfers: 0 });
    now += 5_000;
    progress.reading({ phase: "importing", file: "transactions.csv", rows: 60_000, transfers: 100 });
    progress.done();
    expect(written).toEqual([
      "2026-11-30T10:00:10.000Z import etl: importing transactions.csv: 50,000 rows (5,000 rows/s), 0 new transfers; files read 1.0 MiB of 4.0 MiB (25.0 %), about 30 s left\n",
      "2026-11-30T10:00:15.000Z import etl: done, 60,000 rows in 15 s\n",
    ]);
  });
});
