// Which database a test file runs on: an in-memory PGlite by default, or a fresh schema of the PostgreSQL
// named by DATABASE_URL (CI runs the whole suite both ways).
import crypto from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { MIGRATED_DUMP_ENV } from "./migrated-dump.ts";

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  databaseUrl: string | undefined;
  dataDir: string;
  schema: string | undefined;
  /** On the embedded database: the run's migrated database, to start from (test/support/migrated-dump.ts). */
  startFrom: Blob | undefined;
  drop(): Promise<void>;
}

let migratedDump: Blob | undefined;

/** The run's migrated database, read once per file; none outside Vitest's run (a child process, a script). */
function migrated(): Blob | undefined {
  const file = process.env[MIGRATED_DUMP_ENV];
  if (!migratedDump && file && fs.existsSync(file)) migratedDump = new Blob([fs.readFileSync(file)]);
  return migratedDump;
}

export function testDatabase(): TestDatabase {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const schema = databaseUrl ? `t_${crypto.randomBytes(6).toString("hex")}` : undefined;
  return {
    databaseUrl,
    dataDir: "memory://",
    schema,
    startFrom: databaseUrl ? undefined : migrated(),
    async drop() {
      if (!databaseUrl || !schema) return;
      const url = new URL(databaseUrl);
      if (!url.username && !process.env.USER && !process.env.PGUSER) url.username = "postgres";
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
