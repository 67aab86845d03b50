// pg-boss's database interface ({ executeSql(text, values) }) over the process's own connections: the embedded
// PGlite, or the node-postgres pool the service already holds.
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import type { Db } from "pg-boss";

type Rows = { rows: unknown[] };
const flatten = (results: { rows?: unknown[] }[]): Rows => ({ rows: results.flatMap((r) => r.rows ?? []) });

/**
 * pg-boss on the process's PGlite. PGlite is one connection shared with the service's Kysely driver, which holds
 * PGlite's transaction lock for the length of a transaction; every call here takes the same lock, so pg-boss's
 * statements never land inside another transaction, nor another's inside pg-boss's.
 *
 * - With parameters: one statement, `query` (extended protocol).
 * - Without: possibly several statements (schema installation, maintenance), `exec` (simple protocol). pg-boss
 *   wraps its multi-statement blocks in `BEGIN; ... COMMIT;`. A failure in such a block would leave the one
 *   connection in an aborted transaction until a ROLLBACK, and another caller could get the lock in between; so
 *   a block that begins a transaction runs inside `PGlite.transaction()`, whose ROLLBACK on failure happens before
 *   the lock is released. (Its own BEGIN and COMMIT inside then only raise notices, which PGlite ignores.)
 *   Statements that cannot run in a transaction block (REINDEX CONCURRENTLY) never start with BEGIN.
 */
export function pgliteDb(pglite: PGlite): Db {
  const db: Db = {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return await pglite.query(text, values);
      if (/^\s*BEGIN\b/i.test(text)) return flatten(await pglite.transaction((tx) => tx.exec(text)));
      return flatten(await pglite.exec(text));
    },
  };
  // LISTEN/NOTIFY within the process, as pg-boss's own PGlite adapter does (used only with useListenNotify).
  db.listen = async (channel, onNotification, onReconnect) => {
    const unsubscribe = await pglite.listen(channel, onNotification);
    onReconnect();
    return { close: async () => unsubscribe() };
  };
  return db;
}

/**
 * pg-boss on the service's node-postgres pool (PostgreSQL, or the embedded database through its socket bridge).
 * `pool.query` runs a parameterless multi-statement text in the simple protocol and, like pg-boss's own pool,
 * discards a connection whose query failed (so an aborted `BEGIN` block never returns to the pool).
 */
export function poolDb(pool: pg.Pool): Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return (await pool.query(text, values as unknown[] | undefined)) as unknown as Rows;
    },
  };
}
