#!/usr/bin/env node
// Entry point of the `vigia` command. A checkout needs no build step, and a call must not pay for compiling the
// TypeScript sources each time (through tsx it took about 10 s, `--help` included). So the first call after a change
// bundles src/ with esbuild (about a second) and every later call runs that bundle, with Node's compile cache on. The
// bundle is split: the service (HTTP, workers and the rooms they wire) is a part only `serve` and `worker` load, so
// `--help` and the light commands answer in a fraction of a second. It lives in node_modules/.cache/vigia, where it
// resolves packages as the sources do and is never committed; a change under src/ (or to the lockfile) rebuilds it.
// Stack traces point into the bundle; NODE_OPTIONS=--enable-source-maps maps them back to src/ (the build writes its
// source maps). VIGIA_CLI_TSX=1 runs the sources through tsx instead, without a bundle.
import fs from "node:fs";
import module from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = path.join(root, "node_modules", ".cache", "vigia");
// `current` names the directory of the newest build; a build writes a new directory beside the older ones and then
// renames `current` into place, so a call never imports a half-written bundle, and a running `vigia serve` that
// loads a part of its bundle late still finds it after another call rebuilt.
const pointer = path.join(cacheDir, "current");

// Node 22.1+: compiled code of the bundle and of the packages is kept on disk between calls.
module.enableCompileCache?.(path.join(cacheDir, "compile"));

/**
 * The newest modification time (ms) of `dir`, its folders and files, test files included (a few hundred stats): a
 * folder's time moves when a file in it is removed or renamed, which no remaining file's time shows.
 */
function newestUnder(dir) {
  let newest = fs.statSync(dir).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestUnder(full) : fs.statSync(full).mtimeMs;
    if (time > newest) newest = time;
  }
  return newest;
}

/** The entry file of the current build if no source changed since, else undefined. */
function freshEntry() {
  let built;
  let name;
  try {
    built = fs.statSync(pointer).mtimeMs;
    name = fs.readFileSync(pointer, "utf8").trim();
  } catch {
    return undefined;
  }
  const lockfile = fs.statSync(path.join(root, "package-lock.json"), { throwIfNoEntry: false });
  const inputs = Math.max(newestUnder(path.join(root, "src")), lockfile?.mtimeMs ?? 0);
  const entry = path.join(cacheDir, name, "main.js");
  return built >= inputs && fs.existsSync(entry) ? entry : undefined;
}

async function buildBundle() {
  const { build } = await import("esbuild");
  // A module that finds a file beside itself (the AVI's XSD, a worker script, the migrations) reads
  // import.meta.url: each source keeps its own, so those paths mean in the bundle what they mean in src/.
  const ownUrl = {
    name: "own-import-meta-url",
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
        const text = await fs.promises.readFile(args.path, "utf8");
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: text.replaceAll("import.meta.url", url), loader: "ts" };
      });
    },
  };
  const name = `build-${Date.now()}-${process.pid}`;
  // Parts loaded only by some commands (the service, its rooms and their packages) are split off: `--help` and
  // the light commands never load them.
  await build({
    entryPoints: [path.join(root, "src", "main.ts")],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node22",
    packages: "external",
    outdir: path.join(cacheDir, name),
    sourcemap: "linked",
    plugins: [ownUrl],
    logLevel: "error",
  });
  const partial = `${pointer}.${process.pid}.tmp`;
  fs.writeFileSync(partial, name);
  fs.renameSync(partial, pointer);
  pruneOldBuilds(name);
  return path.join(cacheDir, name, "main.js");
}

/** Removes builds older than an hour but the newest (a process started from one has long loaded what it needs). */
function pruneOldBuilds(keep) {
  for (const entry of fs.readdirSync(cacheDir)) {
    if (!entry.startsWith("build-") || entry === keep) continue;
    const full = path.join(cacheDir, entry);
    if (Date.now() - fs.statSync(full).mtimeMs > 3_600_000) fs.rmSync(full, { recursive: true, force: true });
  }
}

let entry;
if (process.env.VIGIA_CLI_TSX === "1") {
  const { register } = await import("tsx/esm/api");
  register();
  entry = path.join(root, "src", "main.ts");
} else {
  entry = freshEntry() ?? (await buildBundle());
}
const { main } = await import(pathToFileURL(entry).href);
await main();
