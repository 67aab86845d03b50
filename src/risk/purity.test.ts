// The risk core does no I/O: no Node built-ins, no database, network or file system, no clock, no randomness.
// (Tests are exempt; their builders live in test/support.) A source scan, so that a stray import fails the build.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf } from "../../test/support/imports.ts";

const ROOT = new URL(".", import.meta.url).pathname;
const REPO = new URL("../..", import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return sources(path);
    return d.name.endsWith(".ts") && !d.name.endsWith(".test.ts") ? [path] : [];
  });
}

const FORBIDDEN: [string, RegExp][] = [
  ["a Node built-in", /from\s+"node:|require\(/],
  ["the clock", /Date\.now|new Date\(|performance\.now/],
  ["randomness", /Math\.random|crypto\./],
  ["the network", /\bfetch\(/],
  ["the process", /\bprocess\./],
  ["timers", /setTimeout|setInterval/],
];

describe("risk core purity", () => {
  const files = sources(ROOT);

  it("has source files to check", () => {
    expect(files.length).toBeGreaterThan(15);
  });

  it("imports no module outside the risk core, and no package", () => {
    const offenders = files
      .flatMap((f) => importsOf(relative(REPO, f)))
      .filter((i) => i.to === undefined || !i.to.startsWith("src/risk/"))
      .map((i) => `${i.from} -> ${i.specifier}`);
    expect(offenders).toEqual([]);
  });

  it.each(FORBIDDEN)("uses no %s", (_what, pattern) => {
    const offenders = files
      .filter((f) => pattern.test(readFileSync(f, "utf8")))
      .map((f) => relative(ROOT, f));
    expect(offenders).toEqual([]);
  });

  it("starts every file with a header comment", () => {
    const bare = files.filter((f) => !readFileSync(f, "utf8").startsWith("//")).map((f) => relative(ROOT, f));
    expect(bare).toEqual([]);
  });
});
