// Which database a test file runs on: an in-memory PGlite by default, or a fresh schema of the PostgreSQL
// named by DATABASE_URL (CI runs the whole suite both ways).
import crypto from "node:crypto";
import pg from "pg";

export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestDatabase {
  databaseUrl: string | undefined;
  dataDir: string;
  schema: string | undefined;
  drop(): Promise<void>;
}

export function testDatabase(): TestDatabase {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const schema = databaseUrl ? `t_${crypto.randomBytes(6).toString("hex")}` : undefined;
  return {
    databaseUrl,
    dataDir: "memory://",
    schema,
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
