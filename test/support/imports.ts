// The relative imports of the TypeScript files under a folder, resolved to paths from the repository root: what
// the architecture and risk-purity tests check the source against. Import specifiers are read with a regular
// expression (static `import … from`, `export … from`, bare `import "…"` and `import("…")`); every import in this code base is one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const REPO = path.resolve(new URL("../..", import.meta.url).pathname);

export interface Import {
  /** the importing file, from the repository root (src/analysis/run.ts) */
  from: string;
  /** the imported file, from the repository root; undefined for a package or a node: built-in */
  to: string | undefined;
  /** the specifier as written */
  specifier: string;
}

const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|[\s;])import\s*["']([^"']+)["']/g;

/** Every .ts file under `dir` (from the repository root), tests included unless `withTests` is false. */
export function sourceFiles(dir: string, opts: { withTests?: boolean; skipDirs?: string[] } = {}): string[] {
  const out: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (entry.isDirectory()) {
        if (!opts.skipDirs?.includes(entry.name)) walk(child);
      } else if (
        entry.name.endsWith(".ts") &&
        (opts.withTests !== false || !entry.name.endsWith(".test.ts"))
      ) {
        out.push(child);
      }
    }
  };
  walk(dir);
  return out.sort();
}

export function importsOf(file: string): Import[] {
  const text = readFileSync(path.join(REPO, file), "utf8");
  const out: Import[] = [];
  for (const match of text.matchAll(SPECIFIER)) {
    const specifier = (match[1] ?? match[2] ?? match[3]) as string;
    const to = specifier.startsWith(".")
      ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      : undefined;
    out.push({ from: file, to, specifier });
  }
  return out;
}
