// Progress goes to stderr only when it is a terminal, and is wiped when the import ends.
import { describe, expect, it } from "vitest";
import { terminalProgress } from "./progress.ts";

const stream = (isTTY: boolean) => {
  const written: string[] = [];
  return {
    written,
    stream: { isTTY, write: (text: string) => written.push(text) } as unknown as NodeJS.WriteStream,
  };
};

describe("progress", () => {
  it("writes nothing when stderr is not a terminal", () => {
    const { written, stream: out } = stream(false);
    const progress = terminalProgress("import tags", out);
    progress.tick(1000);
    progress.done();
    expect(written).toEqual([]);
  });

  it("rewrites one line on a terminal and clears it at the end", () => {
    const { written, stream: out } = stream(true);
    const progress = terminalProgress("import tags", out);
    progress.tick(12345);
    progress.tick(12346); // within 200 ms: not shown
    progress.done();
    expect(written).toEqual(["\rimport tags: 12,345 rows", "\r\x1b[K"]);
  });
});
