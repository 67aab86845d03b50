// `npm run build:viewer`: builds the investigation viewer's browser bundle (web/viewer -> web/viewer/dist) ahead
// of time. Optional: the service builds it on the first request when it is missing or stale (src/viewer/bundle.ts).
// `--if-stale` builds only when the sources changed since the last build.
import path from "node:path";
import { buildViewerBundle, readViewerBundle, VIEWER_DIST_DIR } from "../src/viewer/index.ts";

const ifStale = process.argv.includes("--if-stale");
const existing = ifStale ? readViewerBundle() : undefined;
const bundle = existing ?? (await buildViewerBundle());
const sizes = [...bundle.assets.values()]
  .map(
    (a) =>
      `${a.name} ${(a.body.length / 1024).toFixed(0)} KiB (${(a.gzip.length / 1024).toFixed(0)} KiB gzip)`,
  )
  .join(", ");
console.log(
  `${existing ? "up to date" : `built in ${Math.round(bundle.buildMs)} ms`}: ${path.relative(process.cwd(), VIEWER_DIST_DIR)} — ${sizes}`,
);
