// A Kysely driver for the embedded PGlite database.
//
// Why not kysely-pglite-dialect: it opens transactions with a bare BEGIN on the shared PGlite instance, so any
// other query issued meanwhile (another HTTP request, a job, a CLI client on the socket bridge) lands inside that
// transaction. Here a Kysely transaction runs inside `PGlite.transaction()`, which holds PGlite's transaction lock
// until COMMIT/ROLLBACK; queries outside it wait for the lock instead of joining the transaction.
// Statements marked PREPARED run as named prepared statements outside transactions (pglite-prepared.ts).
import type { PGlite, Transaction } from "@electric-sql/pglite";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from "kysely";
import { PGlitePreparedStatements } from "./pglite-prepared.ts";
import { PREPARED } from "./prepared.ts";

class PGliteConnection implements DatabaseConnection {
  #tx: Transaction | undefined;
  #finish: ((commit: boolean) => void) | undefined;
  #done: Promise<unknown> | undefined;

  constructor(
    private readonly pglite: PGlite,
    private readonly prepared: PGlitePreparedStatements,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
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
  createAdapter() {
    return new PostgresAdapter();
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
