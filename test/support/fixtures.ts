// The small fixtures committed under test/fixtures, cut from public data sets (test/fixtures/SOURCES.md gives each
// file's origin, commit and licence, and scripts/cut-fixtures.ts how it was cut).
import path from "node:path";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

/** The path of a fixture, `relative` to test/fixtures. */
export const fixture = (relative: string) => path.join(FIXTURES, relative);
