// Fails when code or tests reach outside the repository for data: a file under src/, test/, eval/ or bench/ that names the
// project's shared folder (`../shared`, `shared/data`, ...) would pass on the project's own machines, where that
// folder sits beside the clone, and fail on a user's fresh clone. Real data the tests need is committed under
// test/fixtures; the optional tests on the whole data set find it only through test/support/full-data.ts, the one
// file allowed to name it. Run by .ci/run:
//
//   node bin/run-ts.js scripts/check-stands-alone.ts
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
const CHECKED = ["src", "test", "eval", "bench"];
/** The only file that may name where the full data set lives. */
export const ALLOWED = new Set(["test/support/full-data.ts"]);

// `../shared` as a path, `shared/data` (or spec, reference, DESIGN.md) in any path, and "..", "shared" as parts.
const OUTSIDE =
  /\.\.[/\\]shared\b|\bshared[/\\](?:data|spec|reference|hooks|DESIGN)\b|["'`]\.\.["'`]\s*,\s*["'`]shared["'`]/;

export interface Reference {
  file: string;
  line: number;
  text: string;
}

/** The lines of `text` that name the shared folder. */
export function referencesIn(file: string, text: string): Reference[] {
  return text
    .split("\n")
    .flatMap((line, index) => (OUTSIDE.test(line) ? [{ file, line: index + 1, text: line.trim() }] : []));
}

/** Every reference under the checked folders of `root`, outside the allowed file. */
export function findReferences(root: string): Reference[] {
  const found: Reference[] = [];
  for (const top of CHECKED) {
    const dir = path.join(root, top);
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
      if (ALLOWED.has(file)) continue;
      found.push(...referencesIn(file, fs.readFileSync(path.join(root, file), "utf8")));
    }
  }
  return found;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const found = findReferences(ROOT);
  for (const ref of found)
    process.stderr.write(`${ref.file}:${ref.line}: names the shared folder: ${ref.text}\n`);
  if (found.length > 0) {
    process.stderr.write(
      `${found.length} reference(s) outside the repository: commit a fixture under test/fixtures, or make the test ` +
        "an optional extra that finds the data through test/support/full-data.ts\n",
    );
    process.exit(1);
  }
  process.stdout.write(
    "src/, test/, eval/ and bench/ stand alone: nothing names the shared folder outside test/support/full-data.ts\n",
  );
}
