// Applies the numbered SQL files of `migrations/` (forward only) on PGlite and PostgreSQL alike.
// Each file runs in its own transaction under an advisory lock, so several processes starting together on one
// PostgreSQL apply each migration exactly once.
//
// A file whose first line is `-- vigia: no-transaction` runs outside a transaction, one statement at a time (split
// at `;` ending a line), under a session advisory lock: for CREATE INDEX CONCURRENTLY, which builds an index on a
// large table without locking its writes and refuses to run in a transaction (docs/operations.md, "Upgrades").
// Its statements must be safe to run again (IF NOT EXISTS, and DROP INDEX CONCURRENTLY IF EXISTS first for an
// index a failed build may have left invalid): a crash between two of them runs the file again from the top.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { type Database, MAINTENANCE_STATEMENT_TIMEOUT_MS, type RawSql } from "./open.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../migrations/", import.meta.url));
const LOCK_ID = 0x5649_4741; // "VIGA"
/**
 * The migration lock of the schema being migrated. Advisory locks are database-wide; keyed by the schema too, the
 * migrations of one schema wait for each other and never for another schema's (tests migrate a fresh schema per
 * file on one database, where a lock shared by all schemas made migrations wait across files and deadlock).
 */
const LOCK_KEY = `${LOCK_ID}, hashtext(current_schema())`;

export interface Migration {
  version: number;
  name: string;
  sql: string;
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
  const migrations = files.map((file) => ({
    version: Number(file.slice(0, 4)),
    name: file.replace(/\.sql$/, ""),
    sql: fs.readFileSync(`${dir}${file}`, "utf8"),
  }));
  for (let i = 1; i < migrations.length; i++) {
    const [before, after] = [migrations[i - 1] as Migration, migrations[i] as Migration];
    if (before.version === after.version)
      throw new Error(`migrations ${before.name} and ${after.name} share the number ${after.version}`);
  }
  return migrations;
}

const NO_TRANSACTION = /^--\s*vigia:\s*no-transaction\s*$/m;

const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

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

/**
 * Applies the migration unless schema_migrations says it was, and records it; the caller holds the lock. `run` runs
 * its SQL (whole in a transaction, or statement by statement outside one).
 */
async function applyOnce(raw: RawSql, migration: Migration, run: () => Promise<void>): Promise<boolean> {
  await raw.exec(CREATE_MIGRATIONS_TABLE);
  const done = await raw.query("SELECT version FROM schema_migrations WHERE version = $1", [
    migration.version,
  ]);
  if (done.length > 0) return false;
  await run();
  await raw.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
    migration.version,
    migration.name,
  ]);
  return true;
}

async function applyOutsideTransaction<DB>(database: Database<DB>, migration: Migration): Promise<boolean> {
  return database.rawSession(async (raw) => {
    await raw.exec(`SET statement_timeout = ${MAINTENANCE_STATEMENT_TIMEOUT_MS}`);
    await raw.query(`SELECT pg_advisory_lock(${LOCK_KEY})`);
    try {
      return await applyOnce(raw, migration, async () => {
        for (const statement of statementsOf(migration.sql)) await raw.exec(statement);
      });
    } finally {
      await raw.query(`SELECT pg_advisory_unlock(${LOCK_KEY})`).catch(() => {});
      await raw.exec("RESET statement_timeout").catch(() => {});
    }
  });
}

/** Returns the names of the migrations this call applied. */
export async function migrate<DB>(database: Database<DB>, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    if (runsOutsideTransaction(migration)) {
      if (await applyOutsideTransaction(database, migration)) applied.push(migration.name);
      continue;
    }
    const didApply = await database.rawTransaction(async (raw) => {
      // A migration may build an index over millions of rows: it gets the maintenance timeout, not the service's.
      await raw.exec(`SET LOCAL statement_timeout = ${MAINTENANCE_STATEMENT_TIMEOUT_MS}`);
      await raw.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
      return applyOnce(raw, migration, () => raw.exec(migration.sql));
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}
