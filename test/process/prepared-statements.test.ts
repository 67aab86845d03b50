// Opt-in prepared statements (src/platform/db/prepared.ts): on PostgreSQL a statement marked PREPARED is prepared
// once per connection under a name derived from its text and then reused; an unmarked one is not prepared; on the
// embedded database the mark is a comment and the statement runs as any other.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import { PREPARED } from "../../src/platform/db/prepared.ts";

const databaseUrl = process.env.DATABASE_URL;
let database: Database<Record<string, never>>;

beforeAll(async () => {
  database = await openDatabase(
    databaseUrl
      ? { databaseUrl, dataDir: "memory://", schema: "prepared_statements_test", poolSize: 1 }
      : { dataDir: "memory://" },
  );
});
afterAll(async () => {
  if (databaseUrl) await sql`DROP SCHEMA IF EXISTS prepared_statements_test CASCADE`.execute(database.db);
  await database?.close();
});

describe("prepared statements", () => {
  it("answer as the same statement unprepared does, with their parameters", async () => {
    const marked = await sql<{ n: number }>`${sql.raw(PREPARED)}SELECT ${21}::int * 2 AS n`.execute(
      database.db,
    );
    const again = await sql<{ n: number }>`${sql.raw(PREPARED)}SELECT ${21}::int * 2 AS n`.execute(
      database.db,
    );
    const other = await sql<{ n: number }>`${sql.raw(PREPARED)}SELECT ${5}::int * 2 AS n`.execute(
      database.db,
    );
    expect(marked.rows).toEqual([{ n: 42 }]);
    expect(again.rows).toEqual([{ n: 42 }]);
    expect(other.rows).toEqual([{ n: 10 }]);
  });

  it.skipIf(!databaseUrl)("on PostgreSQL: prepared once per connection, only when marked", async () => {
    await sql`SELECT 'unmarked' AS x`.execute(database.db);
    const names = async () =>
      (
        await sql<{
          name: string;
          statement: string;
        }>`SELECT name, statement FROM pg_prepared_statements`.execute(database.db)
      ).rows;
    // One pooled connection: every statement of this test ran on it.
    const before = await names();
    expect(before.some((r) => r.statement.includes("unmarked"))).toBe(false);
    const marked = before.filter((r) => r.statement.startsWith(PREPARED));
    expect(marked).toHaveLength(1);
    expect(marked[0]!.name).toMatch(/^p_[0-9a-f]{24}$/);
    await sql`${sql.raw(PREPARED)}SELECT ${1}::int * 2 AS n`.execute(database.db);
    expect((await names()).filter((r) => r.statement.startsWith(PREPARED))).toHaveLength(1);
  });
});
