#!/usr/bin/env node
// Runs a TypeScript file through tsx: `node bin/run-ts.js FILE.ts [ARGS...]` (used by `npm run bench`).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { register } from "tsx/esm/api";

const file = process.argv[2];
if (!file) {
  process.stderr.write("usage: node bin/run-ts.js FILE.ts [ARGS...]\n");
  process.exit(2);
}
register();
// The script sees its own path as argv[1], as if it had been run directly.
process.argv.splice(1, 2, path.resolve(file));
await import(pathToFileURL(path.resolve(file)).href);
