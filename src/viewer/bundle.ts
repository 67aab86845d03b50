// Builds the investigation viewer's and the officer's pages' browser assets (web/viewer: TypeScript, CSS, the
// viewer's page; web/desk: the Preact app of /app, with the message catalog of src/messages) with esbuild into
// web/viewer/dist (gitignored), and loads them for serving. The service calls `loadViewerBundle` on the first
// request for the page or an asset: when the bundle is missing, or was built from other sources or other
// versions of the bundled packages or esbuild (a fingerprint in dist/manifest.json says), it is rebuilt first, in about a
// second. So `npm install && npm start` on a fresh clone, CI and the tests all serve a current viewer without an
// install hook, and `npm run build:viewer` (scripts/build-viewer.ts) can build it ahead of time. Nothing is
// downloaded: cytoscape, preact, markdown-it and intl-messageformat come from node_modules and are bundled in.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

export const VIEWER_SOURCE_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../web/viewer",
);
export const VIEWER_DIST_DIR = path.join(VIEWER_SOURCE_DIR, "dist");
/** The officer's pages (a Preact app, JSX compiled by esbuild). */
export const DESK_SOURCE_DIR = path.resolve(VIEWER_SOURCE_DIR, "../desk");
/** The message catalog the pages bundle (the same texts the service answers with). */
const MESSAGES_SOURCE_DIR = path.resolve(VIEWER_SOURCE_DIR, "../../src/messages");
/** Packages bundled into the pages: their versions are part of the fingerprint. */
const BUNDLED = ["cytoscape", "preact", "markdown-it", "intl-messageformat"] as const;
/** Where the page finds its assets; src/viewer/routes.ts serves them there. */
export const ASSET_PREFIX = "/app/assets/";

/** Bump when the build itself changes in a way the sources do not show (options, file layout). */
const BUILD_FORMAT = 3;

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};

export interface ViewerAsset {
  name: string;
  contentType: string;
  body: Buffer;
  gzip: Buffer;
  /** first 16 hex digits of the body's SHA-256: the `?v=` of its URL and its ETag */
  hash: string;
}

export interface ViewerBundle {
  fingerprint: string;
  /** the investigation viewer's page */
  page: ViewerAsset;
  /** the officer's pages (/app and below: one page, routed in the browser) */
  desk: ViewerAsset;
  /** by file name (viewer.js, viewer.css, desk.js, desk.css) */
  assets: Map<string, ViewerAsset>;
  /** whether this call built it (false: read from dist) */
  built: boolean;
  buildMs: number;
}

interface Manifest {
  fingerprint: string;
  files: string[];
}

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (!fs.existsSync(path.join(dir, "package.json")) || path.basename(dir) !== name) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the package directory of ${name}`);
    dir = parent;
  }
  return dir;
}

function packageVersion(name: string): string {
  const json = JSON.parse(fs.readFileSync(path.join(packageDir(name), "package.json"), "utf8")) as {
    version: string;
  };
  return json.version;
}

function sourceFiles(dir = VIEWER_SOURCE_DIR): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== VIEWER_DIST_DIR && entry.name !== "node_modules") files.push(...sourceFiles(full));
    } else if (/\.(ts|tsx|css|html|json)$/.test(entry.name)) files.push(full);
  }
  return files.sort();
}

/** What the bundle is built from: every source file (the catalog's too), the bundled packages' and esbuild's versions. */
export function viewerFingerprint(): string {
  const hash = createHash("sha256");
  hash.update(`format ${BUILD_FORMAT}\0esbuild ${packageVersion("esbuild")}\0`);
  for (const name of BUNDLED) hash.update(`${name} ${packageVersion(name)}\0`);
  const files = [...sourceFiles(), ...sourceFiles(DESK_SOURCE_DIR), ...sourceFiles(MESSAGES_SOURCE_DIR)];
  for (const file of files) {
    hash.update(path.relative(path.dirname(VIEWER_SOURCE_DIR), file));
    hash.update("\0");
    hash.update(fs.readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex").slice(0, 32);
}

const shortHash = (body: Buffer) => createHash("sha256").update(body).digest("hex").slice(0, 16);

function asset(name: string, body: Buffer): ViewerAsset {
  return {
    name,
    contentType: CONTENT_TYPES[path.extname(name)] ?? "application/octet-stream",
    body,
    gzip: zlib.gzipSync(body, { level: 9 }),
    hash: shortHash(body),
  };
}

/** Writes a file so that a reader (another process building at the same time) never sees half of it. */
function writeAtomic(file: string, body: Buffer | string): void {
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(temp, body);
  fs.renameSync(temp, file);
}

/** Builds the bundle from the sources and writes it to `outDir` (the manifest last). */
export async function buildViewerBundle(outDir = VIEWER_DIST_DIR): Promise<ViewerBundle> {
  const started = performance.now();
  const fingerprint = viewerFingerprint();
  const esbuild = await import("esbuild");
  // cytoscape's MIT licence travels with the bundle (its sources carry no @license comment esbuild would keep).
  const license = fs
    .readFileSync(path.join(packageDir("cytoscape"), "LICENSE"), "utf8")
    .replaceAll("*/", "* /");
  const result = await esbuild.build({
    entryPoints: [
      { in: path.join(VIEWER_SOURCE_DIR, "main.ts"), out: "viewer" },
      { in: path.join(VIEWER_SOURCE_DIR, "viewer.css"), out: "viewer" },
      { in: path.join(DESK_SOURCE_DIR, "main.tsx"), out: "desk" },
      { in: path.join(DESK_SOURCE_DIR, "desk.css"), out: "desk" },
    ],
    outdir: outDir,
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    // Browsers an office is likely to run in 2025; the code itself is ES2020.
    target: ["chrome109", "firefox115", "safari16", "edge109"],
    minify: true,
    // The pages' JSX, compiled by esbuild for Preact (web/desk/tsconfig.json says the same to tsc).
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    banner: {
      js:
        `/*! Vigía's pages. Bundles preact ${packageVersion("preact")} (MIT), markdown-it ${packageVersion("markdown-it")} ` +
        `(MIT), intl-messageformat ${packageVersion("intl-messageformat")} (BSD-3-Clause), and cytoscape ` +
        `${packageVersion("cytoscape")}:\n${license}*/`,
    },
    tsconfig: path.join(VIEWER_SOURCE_DIR, "tsconfig.json"),
    logLevel: "silent",
  });
  const assets = new Map<string, ViewerAsset>();
  for (const file of result.outputFiles) {
    const name = path.basename(file.path);
    assets.set(name, asset(name, Buffer.from(file.contents)));
  }
  const js = assets.get("viewer.js");
  const css = assets.get("viewer.css");
  const deskJs = assets.get("desk.js");
  const deskCss = assets.get("desk.css");
  if (!js || !css || !deskJs || !deskCss)
    throw new Error("the viewer build produced no viewer.js, viewer.css, desk.js or desk.css");
  const fill = (template: string) =>
    fs
      .readFileSync(template, "utf8")
      .replaceAll("%VIEWER_JS%", `${ASSET_PREFIX}viewer.js?v=${js.hash}`)
      .replaceAll("%DESK_JS%", `${ASSET_PREFIX}desk.js?v=${deskJs.hash}`)
      .replaceAll("%DESK_CSS%", `${ASSET_PREFIX}desk.css?v=${deskCss.hash}`)
      .replaceAll("%VIEWER_CSS%", `${ASSET_PREFIX}viewer.css?v=${css.hash}`);
  const page = asset("index.html", Buffer.from(fill(path.join(VIEWER_SOURCE_DIR, "index.html"))));
  const desk = asset("desk.html", Buffer.from(fill(path.join(DESK_SOURCE_DIR, "index.html"))));

  try {
    fs.mkdirSync(outDir, { recursive: true });
    for (const a of [...assets.values(), page, desk]) writeAtomic(path.join(outDir, a.name), a.body);
    const manifest: Manifest = { fingerprint, files: [...assets.keys(), page.name, desk.name] };
    writeAtomic(path.join(outDir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  } catch {
    // A read-only checkout still serves the viewer: built in memory on each start instead of once.
  }
  return { fingerprint, page, desk, assets, built: true, buildMs: performance.now() - started };
}

/** The bundle in `outDir` when it matches the sources; undefined when it is missing or stale. */
export function readViewerBundle(outDir = VIEWER_DIST_DIR): ViewerBundle | undefined {
  const started = performance.now();
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8")) as Manifest;
    if (manifest.fingerprint !== viewerFingerprint()) return undefined;
    const assets = new Map<string, ViewerAsset>();
    let page: ViewerAsset | undefined;
    let desk: ViewerAsset | undefined;
    for (const name of manifest.files) {
      const a = asset(name, fs.readFileSync(path.join(outDir, name)));
      if (name === "index.html") page = a;
      else if (name === "desk.html") desk = a;
      else assets.set(name, a);
    }
    if (!page || !desk || !["viewer.js", "viewer.css", "desk.js", "desk.css"].every((n) => assets.has(n)))
      return undefined;
    return {
      fingerprint: manifest.fingerprint,
      page,
      desk,
      assets,
      built: false,
      buildMs: performance.now() - started,
    };
  } catch {
    return undefined;
  }
}

/** The current bundle: read from `outDir`, or built there first when missing or stale. */
export async function loadViewerBundle(outDir = VIEWER_DIST_DIR): Promise<ViewerBundle> {
  return readViewerBundle(outDir) ?? (await buildViewerBundle(outDir));
}
