// Opt-in prepared statements (src/platform/db/prepared.ts): on PostgreSQL a statement marked PREPARED is prepared
// once per connection under a name derived from its text and then reused; an unmarked one is not prepared. On the
// embedded database (src/platform/db/pglite-prepared.ts) a marked statement is prepared once per PGlite instance,
// outside transactions; inside one it runs as any other statement, and sees the transaction's writes.
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

  it.skipIf(Boolean(databaseUrl))(
    "on PGlite: prepared once, reused, with array and null parameters",
    async () => {
      const pglite = database.pglite!;
      const names = async () =>
        (
          await pglite.query<{ name: string; statement: string }>(
            "SELECT name, statement FROM pg_prepared_statements",
          )
        ).rows;
      const query = (values: string[], extra: string | null) =>
        sql<{
          n: number;
          e: string | null;
        }>`${sql.raw(PREPARED)}SELECT cardinality(${values}::text[]) AS n, ${extra}::text AS e`.execute(
          database.db,
        );
      const first = await query(["a", "b", "c"], null);
      const second = await query(["x"], "y");
      expect(first.rows).toEqual([{ n: 3, e: null }]);
      expect(second.rows).toEqual([{ n: 1, e: "y" }]);
      const prepared = (await names()).filter((r) => r.statement.includes("cardinality"));
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^p_[0-9a-f]{24}$/);
    },
  );

  it.skipIf(Boolean(databaseUrl))(
    "on PGlite: re-prepared when the session lost it; errors leave it usable",
    async () => {
      const marked = (n: number) =>
        sql<{ n: number }>`${sql.raw(PREPARED)}SELECT 10 / ${n}::int AS n`.execute(database.db);
      expect((await marked(2)).rows).toEqual([{ n: 5 }]);
      await database.pglite!.exec("DEALLOCATE ALL");
      expect((await marked(5)).rows).toEqual([{ n: 2 }]);
      await expect(marked(0)).rejects.toMatchObject({ code: "22012" }); // division_by_zero
      expect((await marked(1)).rows).toEqual([{ n: 10 }]);
    },
  );

  it.skipIf(Boolean(databaseUrl))(
    "on PGlite: inside a transaction, sees the transaction's own writes",
    async () => {
      await sql`CREATE TABLE IF NOT EXISTS prepared_t (v int)`.execute(database.db);
      const count = (db: typeof database.db) =>
        sql<{
          n: number;
        }>`${sql.raw(PREPARED)}SELECT count(*)::int AS n FROM prepared_t WHERE v > ${0}::int`.execute(db);
      expect((await count(database.db)).rows).toEqual([{ n: 0 }]);
      await database.db
        .transaction()
        .execute(async (tx) => {
          await sql`INSERT INTO prepared_t VALUES (1), (2)`.execute(tx);
          expect((await count(tx)).rows).toEqual([{ n: 2 }]);
          throw new Error("roll back");
        })
        .catch(() => {});
      expect((await count(database.db)).rows).toEqual([{ n: 0 }]);
    },
  );
});
