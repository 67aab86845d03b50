// Applies the numbered SQL files of `migrations/` (forward only) on PGlite and PostgreSQL alike.
// Each file runs in its own transaction under an advisory lock, so several processes starting together on one
// PostgreSQL apply each migration exactly once.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { type Database, MAINTENANCE_STATEMENT_TIMEOUT_MS } from "./open.ts";

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../migrations/", import.meta.url));
const LOCK_ID = 0x5649_4741; // "VIGA"

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

/** Returns the names of the migrations this call applied. */
export async function migrate<DB>(database: Database<DB>, migrations = readMigrations()): Promise<string[]> {
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = await database.rawTransaction(async (raw) => {
      // A migration may build an index over millions of rows: it gets the maintenance timeout, not the service's.
      await raw.exec(`SET LOCAL statement_timeout = ${MAINTENANCE_STATEMENT_TIMEOUT_MS}`);
      await raw.query(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
      await raw.exec(
        `CREATE TABLE IF NOT EXISTS schema_migrations (
           version integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      const done = await raw.query<{ version: number }>(
        "SELECT version FROM schema_migrations WHERE version = $1",
        [migration.version],
      );
      if (done.length > 0) return false;
      await raw.exec(migration.sql);
      await raw.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return applied;
}
