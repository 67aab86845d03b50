// Progress: nothing unless stderr is a terminal, and then at most 4 updates a second.
import { describe, expect, it } from "vitest";
import { NO_PROGRESS, terminalProgress } from "./progress.ts";

describe("terminalProgress", () => {
  it("prints nothing when the stream is not a terminal", () => {
    const written: string[] = [];
    const progress = terminalProgress({ isTTY: false, write: (s: string) => written.push(s) > 0 });
    expect(progress).toBe(NO_PROGRESS);
    progress.reading({ phase: "importing", file: "transactions.csv", rows: 1, transfers: 1 });
    progress.done();
    expect(written).toEqual([]);
  });

  it("rewrites one line at most 4 times a second on a terminal, and clears it at the end", () => {
    const written: string[] = [];
    let now = 0;
    const progress = terminalProgress({ isTTY: true, write: (s: string) => written.push(s) > 0 }, () => now);
    for (let i = 1; i <= 100; i++) {
      now = i * 20; // 2 s in all
      progress.reading({ phase: "importing", file: "transactions.csv", rows: i * 1000, transfers: i * 10 });
    }
    expect(written.length).toBeGreaterThanOrEqual(7);
    expect(written.length).toBeLessThanOrEqual(9);
    expect(written.at(-1)?.startsWith("\r\x1b[K")).toBe(true);
    expect(written.at(-1)?.slice(4)).toMatch(
      /^import etl: importing transactions\.csv: [\d,]+ rows \([\d,]+ rows\/s\), [\d,]+ new transfers$/,
    );
    progress.done();
    expect(written.at(-1)).toBe("\r\x1b[K");
  });
});
