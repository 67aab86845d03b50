// How fast the `vigia` command answers: `vigia --help` and a command's own `--help` start in a small multiple of a
// bare `node -e ''` on the same machine at the same moment (a ratio, so that a slow or busy machine does not fail
// it). bin/vigia.js runs a bundle of src/ it builds once after a change, with Node's compile cache, and loads the
// service only for the commands that use it; through tsx every call took about 10 s. A source change is picked up:
// the next call rebuilds, and answers with it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { newcomerEnv } from "./vigia-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin", "vigia.js");
/** `vigia --help` may take this many bare starts of node. Through tsx it took 75 (Node 20) to 200 (Node 24). */
const MAX_RATIO = 40;

function seconds(args: string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(process.execPath, args, { cwd: ROOT, env: newcomerEnv({}), stdio: "pipe" });
  return Number(process.hrtime.bigint() - start) / 1e9;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

describe("the command line starts at once", () => {
  it("`vigia --help` takes a small multiple of a bare node start", () => {
    seconds([BIN, "--help"]); // builds the bundle if a source changed since the last call
    const runs: { bare: number; help: number; sub: number }[] = [];
    for (let i = 0; i < 5; i += 1)
      runs.push({
        bare: seconds(["-e", ""]),
        help: seconds([BIN, "--help"]),
        sub: seconds([BIN, "keys", "create", "--help"]),
      });
    const bare = median(runs.map((r) => r.bare));
    const help = median(runs.map((r) => r.help));
    const sub = median(runs.map((r) => r.sub));
    console.log(
      `bare node ${bare.toFixed(3)} s; vigia --help ${help.toFixed(3)} s (${(help / bare).toFixed(1)}x); vigia keys create --help ${sub.toFixed(3)} s`,
    );
    expect(help / bare).toBeLessThan(MAX_RATIO);
    expect(sub / bare).toBeLessThan(MAX_RATIO);
  });

  it("a source changed since the last call is in the next one", () => {
    const file = path.join(ROOT, "src", "cli-help.ts");
    const before = execFileSync(process.execPath, [BIN, "--help"], {
      cwd: ROOT,
      env: newcomerEnv({}),
      encoding: "utf8",
    });
    // Touching the file (a newer modification time) is what an edit does to the bundle's freshness.
    const { atime, mtime } = fs.statSync(file);
    const later = new Date(Date.now() + 2_000);
    fs.utimesSync(file, later, later);
    try {
      const pointer = path.join(ROOT, "node_modules", ".cache", "vigia", "current");
      const built = fs.readFileSync(pointer, "utf8");
      const after = execFileSync(process.execPath, [BIN, "--help"], {
        cwd: ROOT,
        env: newcomerEnv({}),
        encoding: "utf8",
      });
      expect(after).toBe(before);
      expect(fs.readFileSync(pointer, "utf8")).not.toBe(built);
    } finally {
      fs.utimesSync(file, atime, mtime);
    }
  });
});
