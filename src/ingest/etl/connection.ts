// One database connection as the import uses it, whatever the backend: raw queries, a bulk `COPY` of text rows
// where the connection has one, and a Kysely bound to this very connection (for the shared store writers).
//
// - PostgreSQL: a pool client; COPY ... FROM STDIN through pg-copy-streams.
// - PGlite owned by this process: the instance itself; COPY ... FROM '/dev/blob' with the rows as a Blob.
// - PGlite behind `vigia serve`'s socket bridge: a pool client, no COPY (PGlite's socket server does not take
//   COPY FROM STDIN: the connection fails with "protocol synchronization was lost"), so rows go as unnest inserts.
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, type PostgresPool } from "kysely";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { DB } from "../../schema.ts";

export interface Conn {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** `COPY target FROM ...` of rows in PostgreSQL's text format; undefined where the connection has no COPY. */
  copyText: ((target: string, text: string) => Promise<void>) | undefined;
  db: Kysely<DB>;
  release(): void;
}

export function pgConn(client: pg.PoolClient, withCopy: boolean): Conn {
  // Kysely on this one client: its "pool" always hands out the same client and never releases it.
  const pool: PostgresPool = {
    connect: async () => ({
      query: client.query.bind(client) as never,
      release: () => {},
    }),
    end: async () => {},
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await client.query(sql, params)).rows as T[];
    },
    copyText: withCopy
      ? async (target, text) => {
          const stream = client.query(copyFrom(`COPY ${target} FROM STDIN`));
          await pipeline(
            (async function* () {
              yield text;
            })(),
            stream as unknown as Writable,
          );
        }
      : undefined,
    db,
    release: () => client.release(),
  };
}

/** The embedded PGlite itself, or one of its transactions. */
export function pgliteConn(target: PGlite | Transaction, db: Kysely<DB>): Conn {
  return {
    async query<T>(sql: string, params?: unknown[]) {
      return (await target.query<T>(sql, params)).rows;
    },
    async copyText(into, text) {
      await target.query(`COPY ${into} FROM '/dev/blob'`, [], { blob: new Blob([text]) });
    },
    db,
    release: () => {},
  };
}
