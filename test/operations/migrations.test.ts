// Migrations for a rolling upgrade (docs/operations.md, "Upgrades"): a file marked `-- vigia: no-transaction`
// runs outside a transaction, one statement at a time, so that CREATE INDEX CONCURRENTLY builds an index without
// locking the table's writes; it is applied once, whoever runs it, and the marked statements are split as written.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import {
  migrate,
  readMigrations,
  runsOutsideTransaction,
  statementsOf,
} from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import { onPostgres, testDatabase } from "../support/database.ts";

const target = testDatabase();
afterAll(() => target.drop());

function migrationsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-migrations-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return `${dir}/`;
}

describe("no-transaction migrations", () => {
  it("split their statements where a line ends with a semicolon, without comments", () => {
    expect(
      statementsOf(
        "-- vigia: no-transaction\n-- why\nDROP INDEX CONCURRENTLY IF EXISTS a_b;\nCREATE INDEX CONCURRENTLY IF NOT EXISTS a_b\n  ON a (b); -- the build\n",
      ),
    ).toEqual([
      "DROP INDEX CONCURRENTLY IF EXISTS a_b",
      "CREATE INDEX CONCURRENTLY IF NOT EXISTS a_b\n  ON a (b)",
    ]);
  });

  it("build an index CONCURRENTLY outside a transaction, once", async () => {
    const dir = migrationsDir({
      "0001_table.sql":
        "CREATE TABLE wide (id bigint PRIMARY KEY, owner text NOT NULL);\nINSERT INTO wide SELECT g, 'o' || (g % 97) FROM generate_series(1, 5000) g;",
      "0002_owner_index.sql":
        "-- vigia: no-transaction\n-- Built without locking writes to `wide`.\nDROP INDEX CONCURRENTLY IF EXISTS wide_owner;\nCREATE INDEX CONCURRENTLY IF NOT EXISTS wide_owner ON wide (owner);\n",
    });
    const migrations = readMigrations(dir);
    expect(migrations.map(runsOutsideTransaction)).toEqual([false, true]);
    const database = await openDatabase({
      databaseUrl: target.databaseUrl,
      dataDir: "memory://",
      schema: target.schema,
    });
    try {
      expect(await migrate(database, migrations)).toEqual(["0001_table", "0002_owner_index"]);
      const { rows } = await sql<{ valid: boolean }>`
        SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = 'wide_owner'`.execute(database.db);
      expect(rows).toEqual([{ valid: true }]);
      expect(await migrate(database, migrations)).toEqual([]);
    } finally {
      await database.close();
    }
  });

  it("the project's own migrations that say so are the only ones run outside a transaction", () => {
    for (const m of readMigrations())
      expect(runsOutsideTransaction(m), m.name).toBe(/^--\s*vigia:\s*no-transaction/.test(m.sql));
  });
});

describe.skipIf(!onPostgres)("the migration lock", () => {
  const other = testDatabase();
  afterAll(() => other.drop());

  it("holds back the migrations of its own schema only", async () => {
    const dir = migrationsDir({ "0001_table.sql": "CREATE TABLE t (id bigint PRIMARY KEY);" });
    const migrations = readMigrations(dir);
    const open = (t: typeof target) =>
      openDatabase({ databaseUrl: t.databaseUrl, dataDir: "memory://", schema: t.schema });
    const [mine, theirs] = [await open(other), await open({ ...other, schema: `${other.schema}_b` })];
    try {
      // Another process of this schema is migrating: it holds the lock until it commits.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const lockTaken = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = mine.rawTransaction(async (raw) => {
        await raw.query("SELECT pg_advisory_xact_lock(1447642945, hashtext(current_schema()))");
        locked();
        await held;
      });
      await lockTaken;
      // Another schema of the same database migrates meanwhile (tests migrate one schema per file at once).
      expect(await migrate(theirs, migrations)).toEqual(["0001_table"]);
      let mineDone = false;
      const waiting = migrate(mine, migrations).then((applied) => {
        mineDone = true;
        return applied;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mineDone).toBe(false);
      release();
      await holder;
      expect(await waiting).toEqual(["0001_table"]);
    } finally {
      await theirs.rawSession((raw) => raw.exec(`DROP SCHEMA IF EXISTS ${other.schema}_b CASCADE`));
      await Promise.all([mine.close(), theirs.close()]);
    }
  });
});
