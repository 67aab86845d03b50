// The connections of one import and how its writes are grouped into transactions.
//
// - PostgreSQL and PGlite owned by this process: atomic. All the data goes in ONE transaction, committed only
//   after the last row was read and checked, together with the run's 'completed' mark; a bad row or a killed
//   process leaves the store as it was. The run's bookkeeping uses a connection of its own (PostgreSQL) so the
//   'running' row and the progress counts are visible meanwhile.
// - PGlite behind the socket bridge (`vigia serve` owns the data dir): batched. One long transaction would stall
//   the service (docs/decisions/0001), so import.ts first checks every row without writing, then writes in
//   short transactions, one per batch; a killed run leaves whole batches, and a re-run completes them.
import { Kysely } from "kysely";
import type { Database } from "../../platform/db/open.ts";
import { PGliteDialect } from "../../platform/db/pglite-driver.ts";
import type { DB } from "../../schema.ts";
import { type Conn, pgConn, pgliteConn } from "./connection.ts";

export interface EtlSession {
  atomic: boolean;
  /** for the run's bookkeeping, outside the data transaction */
  book: Conn;
  /**
   * Runs `fn` with the connection that writes the data, inside the one transaction when atomic; `unit` groups
   * one batch's writes (its own transaction when batched).
   */
  writing<T>(fn: (conn: Conn, unit: <U>(work: () => Promise<U>) => Promise<U>) => Promise<T>): Promise<T>;
  release(): void;
}

const inline = <U>(work: () => Promise<U>) => work();

export async function openSession(database: Database<DB>): Promise<EtlSession> {
  const { pglite, pool } = database;
  if (pglite) {
    return {
      atomic: true,
      book: pgliteConn(pglite, database.db),
      writing: (fn) =>
        pglite.transaction((tx) =>
          fn(pgliteConn(tx, new Kysely<DB>({ dialect: new PGliteDialect(tx as never) })), inline),
        ),
      release: () => {},
    };
  }
  if (!pool) throw new Error("no database connection");
  if (database.kind === "postgres") {
    const book = pgConn(await pool.connect(), false);
    let data: Conn;
    try {
      data = pgConn(await pool.connect(), true);
    } catch (error) {
      book.release();
      throw error;
    }
    return {
      atomic: true,
      book,
      async writing(fn) {
        await data.query("BEGIN");
        try {
          const result = await fn(data, inline);
          await data.query("COMMIT");
          return result;
        } catch (error) {
          await data.query("ROLLBACK").catch(() => {});
          throw error;
        }
      },
      release() {
        data.release();
        book.release();
      },
    };
  }
  // Through the socket bridge: its pool has one connection, for everything.
  const conn = pgConn(await pool.connect(), false);
  return {
    atomic: false,
    book: conn,
    writing: (fn) =>
      fn(conn, async (work) => {
        await conn.query("BEGIN");
        try {
          const result = await work();
          await conn.query("COMMIT");
          return result;
        } catch (error) {
          await conn.query("ROLLBACK").catch(() => {});
          throw error;
        }
      }),
    release: () => conn.release(),
  };
}
