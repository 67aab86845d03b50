// The repository stands alone: nothing under src/ or test/ reads data from the project's shared folder beside the
// clone (scripts/check-stands-alone.ts, also run by .ci/run), and the check recognises the ways a path to it is
// written. The references below are assembled from pieces so that this file does not name the folder itself.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findReferences, referencesIn } from "../scripts/check-stands-alone.ts";

const SHARED = ["sha", "red"].join("");
const ROOT = path.resolve(import.meta.dirname, "..");

describe("stands alone", () => {
  it("finds no reference to the shared folder under src/ or test/", () => {
    expect(findReferences(ROOT)).toEqual([]);
  });

  it("recognises relative paths, data paths and path parts, and leaves the word alone", () => {
    const flagged = [
      `const PACKS = new URL("../../../${SHARED}/data/labels/", import.meta.url);`,
      `path.resolve(ROOT, "../${SHARED}/data/samples")`,
      `// see ..\\${SHARED}\\spec\\interface.md`,
      `// thresholds in ${SHARED}/reference/regulation.md`,
      `path.join(ROOT, "..", "${SHARED}", "data")`,
    ];
    const kept = [
      `outcome: play?.outcome ?? "${SHARED}",`,
      `const ${SHARED} = coalescing.get(db);`,
      `// the ${SHARED} store writers are idempotent`,
    ];
    const text = [...flagged, ...kept].join("\n");
    expect(referencesIn("x.ts", text).map((ref) => ref.line)).toEqual([1, 2, 3, 4, 5]);
  });
});
