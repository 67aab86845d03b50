// A Kysely driver for the embedded PGlite database.
//
// Why not kysely-pglite-dialect: it opens transactions with a bare BEGIN on the shared PGlite instance, so any
// other query issued meanwhile (another HTTP request, a job, a CLI client on the socket bridge) lands inside that
// transaction. Here a Kysely transaction runs inside `PGlite.transaction()`, which holds PGlite's transaction lock
// until COMMIT/ROLLBACK; queries outside it wait for the lock instead of joining the transaction.
// Statements marked PREPARED run as named prepared statements outside transactions (pglite-prepared.ts). Text
// marked MULTI_STATEMENT (a migration file, whole) runs through PGlite's `exec`: its `query` sends one statement
// through the extended protocol, which refuses several.
import type { PGlite, Transaction } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import { SchemaMigrationLockAdapter } from "./migration-lock.ts";
import { PGlitePreparedStatements } from "./pglite-prepared.ts";
import { PREPARED } from "./prepared.ts";

/**
 * Put first in a statement's text, with no parameters, to run it as a script of several statements separated by
 * semicolons. On PostgreSQL it is a comment, and node-postgres sends text without parameters through the simple
 * query protocol, which takes several statements already.
 */
export const MULTI_STATEMENT = "/*multi-statement*/ ";

class PGliteConnection implements DatabaseConnection {
  #tx: Transaction | undefined;
  #finish: ((commit: boolean) => void) | undefined;
  #done: Promise<unknown> | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly prepared: PGlitePreparedStatements,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    if (compiled.sql.startsWith(MULTI_STATEMENT) && compiled.parameters.length === 0) {
      // A script answers no rows, as on PostgreSQL: node-postgres answers it with one result per statement, in
      // which Kysely finds none.
      await (this.#tx ?? this.pglite).exec(compiled.sql);
      return { rows: [] };
    }
    const result =
      !this.#tx && compiled.sql.startsWith(PREPARED)
        ? await this.prepared.query<R>(compiled.sql, compiled.parameters)
        : await (this.#tx ?? this.pglite).query<R>(compiled.sql, [...compiled.parameters]);
    return result.affectedRows !== undefined && result.fields.length === 0
      ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) }
      : { rows: result.rows };
  }

  // Streaming is emulated by one buffered query: PGlite holds results in memory anyway.
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 1000): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }

  begin(): Promise<void> {
    return new Promise<void>((started, failed) => {
      let didStart = false;
      this.#done = this.pglite
        .transaction(async (tx) => {
          this.#tx = tx;
          didStart = true;
          started();
          const commit = await new Promise<boolean>((resolve) => {
            this.#finish = resolve;
          });
          if (!commit) await tx.rollback();
        })
        .finally(() => {
          this.#tx = undefined;
          this.#finish = undefined;
        });
      this.#done.catch((error) => {
        if (!didStart) failed(error);
      });
    });
  }

  async end(commit: boolean): Promise<void> {
    const done = this.#done;
    this.#done = undefined;
    this.#finish?.(commit);
    await done;
  }
}

class PGliteDriver implements Driver {
  readonly #prepared: PGlitePreparedStatements;
  constructor(private readonly pglite: PGlite) {
    this.#prepared = new PGlitePreparedStatements(pglite);
  }
  async init(): Promise<void> {
    await this.pglite.waitReady;
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new PGliteConnection(this.pglite, this.#prepared);
  }
  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).end(true);
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PGliteConnection).end(false);
  }
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  // PostgreSQL's adapter with the migration lock keyed by schema, as on PostgreSQL (migration-lock.ts).
  createAdapter() {
    return new SchemaMigrationLockAdapter();
  }
  createDriver() {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: any) {
    return new PostgresIntrospector(db);
  }
}
