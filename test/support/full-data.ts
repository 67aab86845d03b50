// The whole public data set (label files, GraphSense TagPacks, ethereum-etl samples, schemas) that the small
// fixtures of test/fixtures are cut from. The project's own machines and CI keep it beside the clone; a user's
// clone has none, so the tests that read it are optional extras: they skip with the reason this module gives.
//
// This is the only file under src/ or test/ that may name where the data set lives (.ci/run checks it); set
// VIGIA_FULL_DATA to read it from elsewhere.
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The data set's folder: VIGIA_FULL_DATA, else `shared/data` in the clone's parent folder. */
export const FULL_DATA_DIR = path.resolve(
  process.env.VIGIA_FULL_DATA ?? path.join(ROOT, "..", "shared", "data"),
);

/** A file or folder of the data set, or why a test that needs it skips. */
export type FullDataPath =
  | { path: string; skipReason?: undefined }
  | { path?: undefined; skipReason: string };

/** `relative` inside the data set (the data set's folder by default) if it is there; else a one-line reason to skip. */
export function fullData(relative = ""): FullDataPath {
  const file = path.join(FULL_DATA_DIR, relative);
  if (fs.existsSync(file)) return { path: file };
  const what = relative ? `${relative} of the full data set` : "the full data set";
  return { skipReason: `optional: ${what} is not at ${FULL_DATA_DIR} (set VIGIA_FULL_DATA to its folder)` };
}
