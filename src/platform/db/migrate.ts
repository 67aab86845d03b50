// Applies the numbered SQL files of `migrations/` (forward only) on PGlite and PostgreSQL alike, through Kysely's
// `Migrator` (docs/decisions/0045-migrations-by-kysely-migrator.md).
//
// Each file is sent whole, as one script, so any SQL runs: a function body in dollar quotes holds semicolons at
// line ends like any other. The files a start finds pending run in one transaction (Kysely's), under an advisory
// lock keyed by the schema (migration-lock.ts): several processes starting together on one PostgreSQL apply each
// migration exactly once, and an upgrade that fails leaves nothing of itself behind.
//
// Two tables keep the books. `schema_migrations` is the project's ledger, as before Kysely: each applied file's
// number, name, time and the sha256 of its bytes (what `sha256sum migrations/<file>` prints), written in the same
// transaction as the migration. `kysely_migration` is what Kysely's Migrator reads to know what it applied. A
// database the earlier runner migrated has only the ledger: each start first copies into Kysely's table the names
// the ledger holds and it lacks, so nothing applied runs again, and records the checksum of the ledger's rows that
// have none (the file as it is at adoption).
//
// A file whose first line is `-- vigia: no-transaction` runs outside a transaction, one statement at a time (split
// at `;` ending a line), still under the lock: for CREATE INDEX CONCURRENTLY, which builds an index on a large
// table without locking its writes and refuses to run in a transaction, nor in a multi-statement script (which
// PostgreSQL runs as one implicit transaction). docs/operations.md, "Upgrades". Its statements must be plain ones
// (no dollar quotes) and safe to run again (IF NOT EXISTS, and DROP INDEX CONCURRENTLY IF EXISTS first for an index
// a failed build may have left invalid): a crash between two of them runs the file again from the top.
import crypto from "node:crypto";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type DatabaseIntrospector,
  type Kysely,
  type Migration as KyselyMigration,
  type MigrationProvider,
  Migrator,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from "kysely";
import { releaseMigrationLock, takeMigrationLock } from "./migration-lock.ts";
import { type Database, MAINTENANCE_STATEMENT_TIMEOUT_MS } from "./open.ts";
import { MULTI_STATEMENT } from "./pglite-driver.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../migrations/", import.meta.url));

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** sha256 of the file's bytes, in hex */
  checksum: string;
}

/**
 * The migrations in order. Two files with one number would leave the second silently skipped wherever the first
 * was applied, so a repeated number fails the start (as does a `.sql` file whose name does not follow the form).
 */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".sql"))
    .sort();
  const badName = files.find((file) => !/^\d{4}_[\w-]+\.sql$/.test(file));
  if (badName) throw new Error(`migration ${badName} is not named NNNN_name.sql`);
  const migrations = files.map((file) => {
    const bytes = fs.readFileSync(`${dir}${file}`);
    return {
      version: Number(file.slice(0, 4)),
      name: file.replace(/\.sql$/, ""),
      sql: bytes.toString("utf8"),
      checksum: crypto.createHash("sha256").update(bytes).digest("hex"),
    };
  });
  for (let i = 1; i < migrations.length; i++) {
    const [before, after] = [migrations[i - 1] as Migration, migrations[i] as Migration];
    if (before.version === after.version)
      throw new Error(`migrations ${before.name} and ${after.name} share the number ${after.version}`);
  }
  return migrations;
}

const NO_TRANSACTION = /^--\s*vigia:\s*no-transaction\s*$/m;

/** Whether a migration runs outside a transaction (its first line says so). */
export function runsOutsideTransaction(migration: Migration): boolean {
  const first = migration.sql.split("\n", 1)[0] ?? "";
  return NO_TRANSACTION.test(first);
}

/** The statements of a no-transaction migration: split where a line ends with `;`, comments dropped. */
export function statementsOf(sqlText: string): string[] {
  return sqlText
    .split(/;[ \t]*(?:--[^\n]*)?$/m)
    .map((part) =>
      part
        .split("\n")
        .filter((line) => !/^\s*--/.test(line))
        .join("\n")
        .trim(),
    )
    .filter(Boolean);
}

/** A migration the ledger says was applied, whose file is no longer what was applied. */
export interface ChangedMigration {
  /** the file's name now, without `.sql` */
  name: string;
  /** what differs, in words */
  change: string;
}

/**
 * An applied migration's file changed. The start is refused rather than warned about: what a database holds must
 * be what its migration files say, or no one can rebuild or vouch for its schema (a regulated deployment answers
 * for its records' structure), and a warning in a log is read after the fact if at all. The project's files are
 * therefore never edited once released, comments included: a change goes in a new migration. When an operator
 * knows a change to be harmless (a comment reworded), clearing the recorded checksum accepts it: the next start
 * records the file as it is then, and the UPDATE is the operator's own, auditable act.
 */
export class ChangedMigrationsError extends Error {
  constructor(readonly changed: readonly ChangedMigration[]) {
    super(
      [
        "migrations applied to this database have changed since they were applied; refusing to start on a schema its files no longer describe:",
        ...changed.map((c) => `  migrations/${c.name}.sql: ${c.change}`),
        "Restore each file as it was applied (`git log -p -- migrations/<file>` shows the change) and make the change a new migration.",
        `A change known to be harmless (a comment) is accepted by clearing its record, after which the next start records the file as it is: UPDATE schema_migrations SET checksum = NULL WHERE name IN (${changed.map((c) => `'${c.name}'`).join(", ")});`,
      ].join("\n"),
    );
    this.name = "ChangedMigrationsError";
  }
}

interface LedgerRow {
  version: number;
  name: string;
  checksum: string | null;
}

/** The applied migrations whose file is not what was applied: another name under the number, other bytes. */
function changedMigrations(
  ledger: readonly LedgerRow[],
  migrations: readonly Migration[],
): ChangedMigration[] {
  const byVersion = new Map(migrations.map((m) => [m.version, m]));
  const changed: ChangedMigration[] = [];
  for (const row of ledger) {
    const file = byVersion.get(row.version);
    // No file: a newer release's migration, on a database that release migrated (docs/operations.md, "Upgrades").
    if (!file) continue;
    if (file.name !== row.name)
      changed.push({ name: file.name, change: `number ${row.version} was applied as ${row.name}.sql` });
    else if (row.checksum !== null && row.checksum !== file.checksum)
      changed.push({
        name: file.name,
        change: `applied with sha256 ${row.checksum}, the file now has ${file.checksum}`,
      });
  }
  return changed;
}

/**
 * Kysely's view of the migrations: each file, run whole (or statement by statement outside a transaction) and
 * recorded in the ledger with its checksum, in the migration's transaction. Names Kysely's table holds without a
 * file here (a newer release's, on a database it migrated) are listed as applied ones that never run, as Kysely
 * refuses to migrate a database whose applied migrations it cannot all find.
 */
class SqlFileProvider implements MigrationProvider {
  constructor(
    private readonly migrations: readonly Migration[],
    private readonly appliedElsewhere: readonly string[],
  ) {}

  async getMigrations(): Promise<Record<string, KyselyMigration>> {
    const all: Record<string, KyselyMigration> = {};
    for (const name of this.appliedElsewhere)
      all[name] = {
        up: async () => {
          throw new Error(`migration ${name} has no file in this release and was applied by another`);
        },
      };
    for (const migration of this.migrations) all[migration.name] = { up: (db) => apply(db, migration) };
    return all;
  }
}

async function apply(db: Kysely<unknown>, migration: Migration): Promise<void> {
  if (runsOutsideTransaction(migration))
    for (const statement of statementsOf(migration.sql)) await sql.raw(statement).execute(db);
  else await sql.raw(`${MULTI_STATEMENT}${migration.sql}`).execute(db);
  await sql`INSERT INTO schema_migrations (version, name, checksum)
    VALUES (${migration.version}, ${migration.name}, ${migration.checksum})`.execute(db);
}

/** The ledger, with the checksum column the earlier runner's lacked. */
async function prepareLedger(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    checksum text
  )`.execute(db);
  // Looked up first: ALTER TABLE takes an exclusive lock even when the column is there, and readers of the ledger
  // (`vigia export`) would queue behind it at every start.
  const { rows } = await sql<{ found: number }>`SELECT 1 AS found FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'schema_migrations' AND column_name = 'checksum'`.execute(
    db,
  );
  if (rows.length === 0) await sql`ALTER TABLE schema_migrations ADD COLUMN checksum text`.execute(db);
}

/**
 * Kysely's table as its Migrator creates it, and in it every migration the ledger holds: the earlier runner's, on
 * the first start after it, and any a crash left recorded in the ledger only (between a no-transaction migration's
 * ledger row and Kysely's).
 */
async function adoptLedger(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS kysely_migration (
    name varchar(255) NOT NULL PRIMARY KEY,
    timestamp varchar(255) NOT NULL
  )`.execute(db);
  await sql`INSERT INTO kysely_migration (name, timestamp)
    SELECT name, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM schema_migrations s
    WHERE NOT EXISTS (SELECT 1 FROM kysely_migration k WHERE k.name = s.name)`.execute(db);
}

/**
 * Kysely's introspection, seeing one schema. The Migrator asks whether its tables exist by listing every table of
 * the database with its columns and sequences; on a database where another process drops a schema meanwhile (the
 * test suites, each in its own schema, or tenants of one PostgreSQL), that listing fails with `schema "…" does not
 * exist` for a schema that is not ours. Asking about our schema alone is also what the question is.
 */
function introspectingOnly(schema: string, db: Kysely<unknown>): DatabaseIntrospector {
  return {
    async getSchemas(): Promise<SchemaMetadata[]> {
      const { rows } = await sql<{ name: string }>`SELECT nspname AS name FROM pg_catalog.pg_namespace
        WHERE nspname = ${schema}`.execute(db);
      return rows;
    },
    async getTables(): Promise<TableMetadata[]> {
      const { rows } = await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = ${schema}`.execute(db);
      return rows.map((row) => ({ name: row.name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
}

/** The session, as the Migrator sees it: the same in all but introspection, which sees our schema alone. */
function seeingOnly(schema: string, db: Kysely<unknown>): Kysely<unknown> {
  const introspection = introspectingOnly(schema, db);
  return new Proxy(db, {
    get(target, property) {
      if (property === "introspection") return introspection;
      const value = Reflect.get(target, property, target);
      // Kysely's methods read private fields, which exist on the instance, not on a proxy of it.
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Consecutive pending migrations of one kind (in a transaction or outside one), in order. */
function runsOf(pending: readonly Migration[]): { outside: boolean; last: Migration }[] {
  const runs: { outside: boolean; last: Migration }[] = [];
  for (const migration of pending) {
    const outside = runsOutsideTransaction(migration);
    const current = runs.at(-1);
    if (current && current.outside === outside) current.last = migration;
    else runs.push({ outside, last: migration });
  }
  return runs;
}

/** The work of `migrate`, on one session that holds the migration lock. */
async function migrateLocked(db: Kysely<unknown>, migrations: readonly Migration[]): Promise<string[]> {
  const { rows: schemas } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  const schema = schemas[0]?.schema;
  if (!schema) throw new Error("no current schema to migrate (check the search_path)");
  await prepareLedger(db);
  await adoptLedger(db);
  const { rows: ledger } = await sql<LedgerRow>`SELECT version, name, checksum FROM schema_migrations
    ORDER BY version`.execute(db);
  const changed = changedMigrations(ledger, migrations);
  if (changed.length > 0) throw new ChangedMigrationsError(changed);
  const byName = new Map(migrations.map((m) => [m.name, m]));
  for (const row of ledger) {
    const file = byName.get(row.name);
    if (row.checksum === null && file)
      await sql`UPDATE schema_migrations SET checksum = ${file.checksum}
        WHERE version = ${row.version} AND checksum IS NULL`.execute(db);
  }
  const appliedVersions = new Set(ledger.map((row) => row.version));
  const pending = migrations.filter((m) => !appliedVersions.has(m.version));
  if (pending.length === 0) return [];

  const { rows: recorded } = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const provider = new SqlFileProvider(
    migrations,
    recorded.map((r) => r.name).filter((name) => !byName.has(name)),
  );
  const applied: string[] = [];
  for (const run of runsOf(pending)) {
    const migrator = new Migrator({
      db: seeingOnly(schema, db),
      provider,
      // Kysely looks its table up in every schema of the database unless told which (tests share a database).
      migrationTableSchema: schema,
      // As before Kysely: a pending file runs even when one numbered after it was applied (branches merged).
      allowUnorderedMigrations: true,
      disableTransactions: run.outside,
    });
    const { error, results = [] } = await migrator.migrateTo(run.last.name);
    for (const result of results)
      if (result.direction === "Up" && result.status === "Success") applied.push(result.migrationName);
    if (error) {
      const failed = results.find((r) => r.status === "Error")?.migrationName;
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(failed ? `migration ${failed} failed: ${message}` : message, { cause: error });
    }
  }
  return applied;
}

/** Returns the names of the migrations this call applied. */
export async function migrate<DB>(database: Database<DB>, migrations = readMigrations()): Promise<string[]> {
  const db = database.db as unknown as Kysely<unknown>;
  // One session for all of it: the lock is the session's, and Kysely's Migrator runs on the session it is given.
  return db.connection().execute(async (session) => {
    // A migration may build an index over millions of rows: it gets the maintenance timeout, not the service's
    // (so does the wait for another process's migrations).
    await sql.raw(`SET statement_timeout = ${MAINTENANCE_STATEMENT_TIMEOUT_MS}`).execute(session);
    try {
      await takeMigrationLock(session);
      try {
        return await migrateLocked(session, migrations);
      } finally {
        await releaseMigrationLock(session).catch(() => {});
      }
    } finally {
      await sql`RESET statement_timeout`.execute(session).catch(() => {});
    }
  });
}
