// One migrated embedded database for the whole run, as a dump every test's in-memory database starts from.
//
// A new PGlite initialises its cluster in seconds of WebAssembly and then applies every migration; most test
// files open one or several. Vitest runs this once before the files (globalSetup) and the files' databases load
// the dump instead (test/support/database.ts), in a fraction of the time. The migrations themselves are still
// run: here, on the files of this checkout, and from empty by the migration tests (test/operations/migration*.ts).
// On PostgreSQL (DATABASE_URL) each file migrates its own schema as before.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";

/** Where the run's dump is, for the test files (the workers inherit the environment of the run). */
export const MIGRATED_DUMP_ENV = "VIGIA_TEST_MIGRATED_DUMP";

export default async function makeMigratedDump(): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const database = await openDatabase<unknown>({ dataDir: "memory://" });
  try {
    await migrate(database);
    const dump = await database.pglite?.dumpDataDir("none");
    if (!dump) throw new Error("the embedded database gave no dump");
    const file = path.join(os.tmpdir(), `vigia-migrated-${process.pid}.tar`);
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    process.env[MIGRATED_DUMP_ENV] = file;
    return () => fs.rmSync(file, { force: true });
  } finally {
    await database.close();
  }
}
