// The migration runner's books (src/platform/db/migrate.ts, docs/decisions/0045): any SQL runs, dollar-quoted
// function bodies included; each applied file's sha256 is recorded; a store the earlier runner migrated (its ledger
// without checksums, no Kysely table) is adopted without running anything again; an applied file that changed
// refuses the start, naming the file, until it is restored or its record cleared; a newer release's migrations do
// not stop an older release; a failing upgrade leaves nothing of itself; processes starting together apply each
// migration once. PGlite in memory, or a fresh PostgreSQL schema per test with DATABASE_URL.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChangedMigrationsError,
  type Migration,
  migrate,
  readMigrations,
} from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import { onPostgres, type TestDatabase, testDatabase } from "../support/database.ts";

const targets: TestDatabase[] = [];
const opened: Database<unknown>[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
  for (const target of targets.splice(0)) await target.drop();
});

/** A fresh, empty database: a new schema on PostgreSQL, a new in-memory PGlite otherwise. */
async function fresh(target = testDatabase()): Promise<Database<unknown>> {
  if (!targets.includes(target)) targets.push(target);
  const database = await openDatabase<unknown>({
    databaseUrl: target.databaseUrl,
    dataDir: "memory://",
    schema: target.schema,
  });
  opened.push(database);
  return database;
}

function migrationsDir(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-migrations-"));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return `${dir}/`;
}

const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");

async function ledger(database: Database<unknown>) {
  const { rows } = await sql<{ name: string; checksum: string | null }>`
    SELECT name, checksum FROM schema_migrations ORDER BY version`.execute(database.db);
  return rows;
}

async function kyselyNames(database: Database<unknown>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(
    database.db,
  );
  return rows.map((r) => r.name);
}

/** What the runner before Kysely's did: each file whole in a transaction, recorded by number and name only. */
async function migrateTheOldWay(database: Database<unknown>, migrations: Migration[]): Promise<void> {
  await database.rawSession((raw) =>
    raw.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`),
  );
  for (const migration of migrations)
    await database.rawTransaction(async (raw) => {
      await raw.exec(migration.sql);
      await raw.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
    });
}

const COUNTERS = `-- A table whose rows count themselves up as they are written.
CREATE TABLE counters (id integer PRIMARY KEY, n integer NOT NULL);

CREATE FUNCTION counters_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.n := NEW.n + 1;
  RETURN NEW;
END;
$$;

CREATE TRIGGER counters_bump BEFORE INSERT ON counters FOR EACH ROW EXECUTE FUNCTION counters_bump();
INSERT INTO counters VALUES (1, 41);
`;

describe("the migration runner", () => {
  it("runs a file with a dollar-quoted function body whole, and records its sha256", async () => {
    const database = await fresh();
    const migrations = readMigrations(migrationsDir({ "0001_counters.sql": COUNTERS }));
    expect(await migrate(database, migrations)).toEqual(["0001_counters"]);
    const { rows } = await sql<{ n: number }>`SELECT n FROM counters`.execute(database.db);
    expect(rows).toEqual([{ n: 42 }]);
    await sql`INSERT INTO counters VALUES (2, 1)`.execute(database.db);
    expect((await sql<{ n: number }>`SELECT n FROM counters WHERE id = 2`.execute(database.db)).rows).toEqual(
      [{ n: 2 }],
    );
    expect(await ledger(database)).toEqual([{ name: "0001_counters", checksum: sha256(COUNTERS) }]);
    expect(await kyselyNames(database)).toEqual(["0001_counters"]);
    expect(await migrate(database, migrations)).toEqual([]);
  });

  it("adopts a store the earlier runner migrated: nothing runs again, every checksum is recorded", async () => {
    const database = await fresh();
    const all = readMigrations();
    await migrateTheOldWay(database, all);
    const { rows: before } = await sql<{ n: string }>`SELECT count(*) AS n FROM labels`.execute(database.db);
    // A migration that ran again would fail (CREATE TABLE without IF NOT EXISTS) or seed its rows twice.
    expect(await migrate(database)).toEqual([]);
    const { rows: after } = await sql<{ n: string }>`SELECT count(*) AS n FROM labels`.execute(database.db);
    expect(after).toEqual(before);
    expect(await ledger(database)).toEqual(all.map((m) => ({ name: m.name, checksum: m.checksum })));
    expect(await kyselyNames(database)).toEqual(all.map((m) => m.name));
  });

  it("adopts an earlier runner's store part-way, then applies only what it lacks", async () => {
    const database = await fresh();
    const dir = migrationsDir({
      "0001_counters.sql": COUNTERS,
      "0002_more.sql":
        "ALTER TABLE counters ADD COLUMN label text;\nINSERT INTO counters VALUES (5, 0, 'five');",
    });
    const migrations = readMigrations(dir);
    await migrateTheOldWay(database, migrations.slice(0, 1));
    expect(await migrate(database, migrations)).toEqual(["0002_more"]);
    const { rows } = await sql<{ id: number; n: number }>`SELECT id, n FROM counters ORDER BY id`.execute(
      database.db,
    );
    expect(rows).toEqual([
      { id: 1, n: 42 },
      { id: 5, n: 1 },
    ]);
    expect((await ledger(database)).map((r) => r.checksum)).toEqual(migrations.map((m) => m.checksum));
  });

  it("refuses to start when an applied file changed, naming it, until the file is restored or its record cleared", async () => {
    const database = await fresh();
    const dir = migrationsDir({
      "0001_counters.sql": COUNTERS,
      "0002_more.sql": "ALTER TABLE counters ADD COLUMN label text;",
    });
    expect(await migrate(database, readMigrations(dir))).toEqual(["0001_counters", "0002_more"]);

    const edited = `${COUNTERS}-- A comment added after the fact.\n`;
    fs.writeFileSync(path.join(dir, "0001_counters.sql"), edited);
    fs.writeFileSync(path.join(dir, "0003_later.sql"), "ALTER TABLE counters ADD COLUMN note text;");
    const refusal = await migrate(database, readMigrations(dir)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ChangedMigrationsError);
    expect((refusal as ChangedMigrationsError).changed).toEqual([
      {
        name: "0001_counters",
        change: `applied with sha256 ${sha256(COUNTERS)}, the file now has ${sha256(edited)}`,
      },
    ]);
    expect((refusal as Error).message).toContain("migrations/0001_counters.sql");
    // Nothing ran: 0003 waits for the books to agree.
    expect((await ledger(database)).map((r) => r.name)).toEqual(["0001_counters", "0002_more"]);

    // Restored, the start goes on.
    fs.writeFileSync(path.join(dir, "0001_counters.sql"), COUNTERS);
    fs.rmSync(path.join(dir, "0003_later.sql"));
    expect(await migrate(database, readMigrations(dir))).toEqual([]);

    // Or the operator accepts the change: the record cleared, the next start records the file as it is.
    fs.writeFileSync(path.join(dir, "0001_counters.sql"), edited);
    await expect(migrate(database, readMigrations(dir))).rejects.toThrow(ChangedMigrationsError);
    await sql`UPDATE schema_migrations SET checksum = NULL WHERE name IN ('0001_counters')`.execute(
      database.db,
    );
    expect(await migrate(database, readMigrations(dir))).toEqual([]);
    expect((await ledger(database))[0]).toEqual({ name: "0001_counters", checksum: sha256(edited) });
  });

  it("refuses a file renamed under a number already applied", async () => {
    const database = await fresh();
    const dir = migrationsDir({ "0001_counters.sql": COUNTERS });
    await migrate(database, readMigrations(dir));
    fs.renameSync(path.join(dir, "0001_counters.sql"), path.join(dir, "0001_tallies.sql"));
    await expect(migrate(database, readMigrations(dir))).rejects.toThrow(
      "migrations/0001_tallies.sql: number 1 was applied as 0001_counters.sql",
    );
  });

  it("lets an older release start on a store a newer release migrated", async () => {
    const database = await fresh();
    const dir = migrationsDir({
      "0001_counters.sql": COUNTERS,
      "0002_more.sql": "ALTER TABLE counters ADD COLUMN label text;",
    });
    const newer = readMigrations(dir);
    expect(await migrate(database, newer)).toEqual(["0001_counters", "0002_more"]);
    expect(await migrate(database, newer.slice(0, 1))).toEqual([]);
  });

  it("applies the files of one start in one transaction: a failing one leaves none of them behind", async () => {
    const database = await fresh();
    const dir = migrationsDir({
      "0001_counters.sql": COUNTERS,
      "0002_broken.sql":
        "ALTER TABLE counters ADD COLUMN label text;\nALTER TABLE nowhere ADD COLUMN x text;",
    });
    await expect(migrate(database, readMigrations(dir))).rejects.toThrow(/^migration 0002_broken failed: /);
    const { rows } = await sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = 'counters'`.execute(database.db);
    expect(rows).toEqual([]);
    expect(await ledger(database)).toEqual([]);
    // Fixed, it applies.
    fs.writeFileSync(path.join(dir, "0002_broken.sql"), "ALTER TABLE counters ADD COLUMN label text;");
    expect(await migrate(database, readMigrations(dir))).toEqual(["0001_counters", "0002_broken"]);
  });
});

describe.skipIf(!onPostgres)("processes starting together", () => {
  it("apply each migration once, whoever comes first", async () => {
    const target = testDatabase();
    const databases = await Promise.all([fresh(target), fresh(target), fresh(target)]);
    const migrations = readMigrations();
    const applied = await Promise.all(databases.map((database) => migrate(database, migrations)));
    expect(applied.flat().sort()).toEqual(migrations.map((m) => m.name).sort());
    expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
    expect((await ledger(databases[0] as Database<unknown>)).map((r) => r.name)).toEqual(
      migrations.map((m) => m.name),
    );
  });
});

describe.skipIf(!onPostgres)("a database shared with others", () => {
  it("migrates while other schemas are created and dropped beside it", async () => {
    // Kysely's Migrator lists every table of the database to learn whether its own exist; a schema dropped during
    // that listing failed the migration of another (`schema "…" does not exist`). The churn below is what a
    // suite's files do to one another on CI's PostgreSQL, made dense.
    const churn = await fresh();
    let stop = false;
    let churned = 0;
    const churning = (async () => {
      while (!stop && churned < 400) {
        const name = `churn_${crypto.randomBytes(4).toString("hex")}`;
        await sql
          .raw(
            `CREATE SCHEMA ${name}; CREATE TABLE ${name}.t (id serial PRIMARY KEY, a text, b text, c text)`,
          )
          .execute(churn.db);
        await sql.raw(`DROP SCHEMA ${name} CASCADE`).execute(churn.db);
        churned++;
      }
    })();
    const migrations = readMigrations();
    try {
      for (let round = 0; round < 5; round++) {
        const database = await fresh();
        expect(await migrate(database, migrations)).toHaveLength(migrations.length);
      }
    } finally {
      stop = true;
      await churning;
    }
    expect(churned).toBeGreaterThan(0);
  });
});
