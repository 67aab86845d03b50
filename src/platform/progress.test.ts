// Progress on a terminal is one line rewritten and wiped at the end; elsewhere (systemd, cron, a pipe) it is a log
// line every 10 s with the time, the share, the rate and the time left when the total is known, and a last line.
import { describe, expect, it } from "vitest";
import { commandProgress, duration, progressText } from "./progress.ts";

const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) > 0 } };
};

describe("progress", () => {
  it("rewrites one line on a terminal and clears it at the end", () => {
    const { written, stream: out } = stream(true);
    let now = 0;
    const progress = commandProgress("import tags", { stream: out, clock: () => now });
    now = 1_000;
    progress.tick(12_345);
    now = 1_100;
    progress.tick(12_346); // within 200 ms: not shown
    progress.done();
    expect(written).toEqual(["\r\x1b[Kimport tags: 12,345 rows, 12,345 rows/s", "\r\x1b[K"]);
  });

  it("elsewhere writes a line every 10 s with the time, the share, the rate and the time left, and a last one", () => {
    const { written, stream: out } = stream(false);
    let now = Date.parse("2026-11-30T10:00:00Z");
    const progress = commandProgress("import etl", {
      stream: out,
      clock: () => now,
      unit: "bytes",
      total: 100 << 20,
    });
    now += 5_000;
    progress.tick(10 << 20); // 5 s: not yet
    now += 5_000;
    progress.tick(20 << 20);
    now += 10_000;
    progress.tick(40 << 20);
    now += 30_000;
    progress.tick(100 << 20);
    progress.done();
    expect(written).toEqual([
      "2026-11-30T10:00:10.000Z import etl: 20 MiB of 100 MiB (20.0 %), 2.0 MiB/s, about 40 s left\n",
      "2026-11-30T10:00:20.000Z import etl: 40 MiB of 100 MiB (40.0 %), 2.0 MiB/s, about 30 s left\n",
      "2026-11-30T10:00:50.000Z import etl: 100 MiB of 100 MiB (100.0 %), 2.0 MiB/s\n",
      "2026-11-30T10:00:50.000Z import etl: done, 100 MiB in 50 s\n",
    ]);
  });

  it("a short work says nothing where stderr is not a terminal", () => {
    const { written, stream: out } = stream(false);
    const progress = commandProgress("lists import un", { stream: out });
    progress.tick(22);
    progress.done();
    expect(written).toEqual([]);
  });

  it("words rows, totals learnt on the way, and durations", () => {
    expect(progressText(12_345, 50_000, 10)).toBe(
      "12,345 of 50,000 rows (24.7 %), 1,235 rows/s, about 31 s left",
    );
    expect(progressText(500, undefined, 2)).toBe("500 rows, 250 rows/s");
    expect(duration(75)).toBe("1 min 15 s");
    expect(duration(3725)).toBe("1 h 2 min");
    const { written, stream: out } = stream(false);
    let now = 0;
    const progress = commandProgress("export", { stream: out, clock: () => now, logEveryMs: 1_000 });
    now = 1_000;
    progress.tick(100, 400);
    expect(written).toEqual([
      "1970-01-01T00:00:01.000Z export: 100 of 400 rows (25.0 %), 100 rows/s, about 3 s left\n",
    ]);
  });
});
