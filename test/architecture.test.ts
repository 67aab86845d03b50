// How the parts of src/ may reach one another, checked on the source so that a stray import fails the build
// (docs/decisions/0013-feature-layout.md):
//  - a feature (a folder of src/) reaches another only through an index.ts: the other feature's own, or that of
//    one of its direct subfolders (a part with its own door: chains/explorer, analysis/graph, ingest/labels, ...);
//  - platform/ knows no feature: it imports nothing of src/ outside itself;
//  - no cycle between features: if a feature reaches another, directly or through others, the other never reaches
//    it back (a concept has one owner, and the rooms form layers);
//  - the composition roots (main.ts, service.ts, and schema.ts, which gathers each feature's tables.ts) wire the
//    features together and are exempt; tests may reach any module they test;
//  - the product stands apart from the evaluation tools and the tests: nothing under src/ imports eval/ (the
//    benchmark world, its cases and the scoring), and no module of src/ imports test/; a test under src/ may use
//    test/support's builders, nothing else of test/.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, REPO, sourceFiles } from "./support/imports.ts";

const ROOTS = new Set(["src/main.ts", "src/service.ts", "src/schema.ts"]);

/** "analysis" for src/analysis/graph/layer.ts; undefined for a file directly in src/ or outside it. */
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

/** Which features each feature imports (platform and the roots left out). */
function featureGraph(imports: { from: string; to: string | undefined }[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const i of imports) {
    const from = featureOf(i.from);
    const to = i.to === undefined ? undefined : featureOf(i.to);
    if (!from || !to || from === to || to === "platform") continue;
    graph.set(from, (graph.get(from) ?? new Set()).add(to));
  }
  return graph;
}

/** Every cycle of the graph, each once, as the path that closes it ("a -> b -> a"). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const walk = (path: string[]) => {
    const last = path[path.length - 1] as string;
    for (const next of [...(graph.get(last) ?? [])].sort()) {
      const at = path.indexOf(next);
      if (at >= 0) {
        // The same cycle from its smallest member, so that it is reported once.
        const loop = path.slice(at);
        const start = loop.indexOf([...loop].sort()[0] as string);
        const turned = [...loop.slice(start), ...loop.slice(0, start)];
        found.add([...turned, turned[0]].join(" -> "));
      } else walk([...path, next]);
    }
  };
  for (const feature of [...graph.keys()].sort()) walk([feature]);
  return [...found].sort();
}

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

  it("no feature reaches itself through others: no cycle between features", () => {
    expect(cycles(featureGraph(crossings))).toEqual([]);
  });

  it("nothing under src/ imports the evaluation tools (eval/), and only src/ tests import test/support", () => {
    const all = sourceFiles("src").flatMap(importsOf);
    const toEval = all.filter((i) => i.to?.startsWith("eval/")).map((i) => `${i.from} -> ${i.to}`);
    expect(toEval).toEqual([]);
    const toTest = all
      .filter((i) => i.to?.startsWith("test/"))
      .filter((i) => !(i.from.endsWith(".test.ts") && i.to?.startsWith("test/support/")))
      .map((i) => `${i.from} -> ${i.to}`);
    expect(toTest).toEqual([]);
    // The check reads the paths it must: eval/ exists and imports src/ (the reverse direction is allowed).
    expect(
      sourceFiles("eval")
        .flatMap(importsOf)
        .some((i) => i.to?.startsWith("src/")),
    ).toBe(true);
  });

  it("the composition root wires the rooms and builds none: each room's wiring.ts makes its context, routes and loops", () => {
    const root = readFileSync(path.join(REPO, "src/service.ts"), "utf8");
    // The values service.ts takes from the rooms (types aside): their `wire…` functions, and these few.
    const values = [...root.matchAll(/import\s*\{([^}]*)\}\s*from\s*"\.\/(?!platform\/)([^"]+)"/g)].flatMap(
      (m) =>
        (m[1] as string)
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name && !name.startsWith("type "))
          .map((name) => `${name} from ${m[2]}`),
    );
    expect(values.filter((v) => v.startsWith("wire")).length).toBeGreaterThan(15);
    expect(values.filter((v) => !v.startsWith("wire")).sort()).toEqual(
      [
        // the chains' file is read before the database opens: a bad one fails the start first
        "loadChainRegistry from chains/index.ts",
        // the audit log's one-time upgrade spans two rooms, in the process that applied its migration
        "sealChainsAtUpgrade from projects/index.ts",
        "startHistoryAudit from alerts/index.ts",
        "upgradedToAuditHeads from projects/index.ts",
        // the HTTP app's own: its documents' examples and webhooks, its language, its sessions, its metrics
        "devnetApiExamples from devnet/examples.ts",
        "errorDetail from messages/index.ts",
        "errorMessage from messages/index.ts",
        "followsDevnetChain from devnet/when.ts",
        "notificationWebhooks from integrator/index.ts",
        "requestLang from messages/index.ts",
        "resolveSession from users/index.ts",
        "serviceMetrics from operations/index.ts",
      ].sort(),
    );
    // No route registered, no loop started, no room's context or worker made here.
    expect(root).not.toMatch(
      /(?<!assembly\.)register\w*Routes\(|start(?!Service|SocketBridge|HistoryAudit)[A-Z]\w*\(|new (?!Assembly|JobQueue|OutboundClient|SharedRateCounter|AddressAllowList|Error)[A-Z]/,
    );
  });

  it("finds a cycle, however long, and only cycles", () => {
    const graph = (edges: string) =>
      featureGraph(
        edges.split(" ").map((e) => {
          const [a, b] = e.split(">");
          return { from: `src/${a}/x.ts`, to: `src/${b}/index.ts` };
        }),
      );
    expect(cycles(graph("monitoring>notifications notifications>monitoring"))).toEqual([
      "monitoring -> notifications -> monitoring",
    ]);
    expect(cycles(graph("a>b b>c c>a a>platform"))).toEqual(["a -> b -> c -> a"]);
    expect(cycles(graph("a>b b>c a>c"))).toEqual([]);
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
