// How the parts of src/ may reach one another, checked on the source so that a stray import fails the build
// (docs/decisions/0013-feature-layout.md):
//  - a feature (a folder of src/) reaches another only through an index.ts: the other feature's own, or that of
//    one of its direct subfolders (a part with its own door: chains/explorer, analysis/graph, ingest/labels, ...);
//  - platform/ knows no feature: it imports nothing of src/ outside itself;
//  - the composition roots (main.ts, service.ts, and schema.ts, which gathers each feature's tables.ts) wire the
//    features together and are exempt; tests may reach any module they test.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, sourceFiles } from "./support/imports.ts";

const ROOTS = new Set(["src/main.ts", "src/service.ts", "src/schema.ts"]);

/** "analysis" for src/analysis/graph/store.ts; undefined for a file directly in src/ or outside it. */
function featureOf(file: string): string | undefined {
  const parts = file.split("/");
  return parts[0] === "src" && parts.length > 2 ? parts[1] : undefined;
}

/** Whether `to` is a door of its feature: src/<feature>/index.ts or src/<feature>/<part>/index.ts. */
function isDoor(to: string): boolean {
  const parts = to.split("/");
  return path.posix.basename(to) === "index.ts" && (parts.length === 3 || parts.length === 4);
}

const production = sourceFiles("src", { withTests: false }).filter((f) => !ROOTS.has(f));
const crossings = production.flatMap((file) =>
  importsOf(file).filter((i) => i.to?.startsWith("src/") && featureOf(i.to) !== featureOf(file)),
);

describe("architecture", () => {
  it("has features and crossings to check", () => {
    expect(new Set(production.map(featureOf)).size).toBeGreaterThan(10);
    expect(crossings.length).toBeGreaterThan(50);
  });

  it("a feature reaches another only through an index.ts", () => {
    const offenders = crossings
      .filter((i) => featureOf(i.to as string) !== "platform" && i.to !== "src/schema.ts")
      .filter((i) => !isDoor(i.to as string))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(offenders).toEqual([]);
  });

  it("platform/ imports no feature", () => {
    const offenders = production
      .filter((f) => featureOf(f) === "platform")
      .flatMap(importsOf)
      .filter((i) => i.to !== undefined && !i.to.startsWith("src/platform/"))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(offenders).toEqual([]);
  });

  it("recognises a door, a part's door, and a module behind one", () => {
    expect(isDoor("src/chains/index.ts")).toBe(true);
    expect(isDoor("src/chains/explorer/index.ts")).toBe(true);
    expect(isDoor("src/chains/explorer/history.ts")).toBe(false);
    expect(isDoor("src/analysis/graph/deep/index.ts")).toBe(false);
    expect(featureOf("src/service.ts")).toBeUndefined();
    expect(importsOf("test/architecture.test.ts").map((i) => i.to)).toContain("test/support/imports.ts");
  });
});
