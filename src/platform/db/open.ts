// Opens the database a process works on: PostgreSQL (DATABASE_URL), the embedded PGlite in the data dir, or,
// when another Vigía process already owns that data dir, the same PGlite through its socket bridge.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely } from "kysely";
import pg from "pg";
import { SchemaLockingPostgresDialect } from "./migration-lock.ts";
import { PGliteDialect } from "./pglite-driver.ts";
import { preparingPool } from "./prepared.ts";
import { SOCKET_PORT, type SocketBridge, socketPathFor, startSocketBridge } from "./socket-bridge.ts";

// int8 (counts, sums) come back as strings from node-postgres but as numbers from PGlite; make both strings so
// that exact integers never lose precision and both backends behave the same.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

/** Statements without parameters, possibly several separated by semicolons (migrations, bulk SQL). */
export interface RawSql {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export type DatabaseKind = "pglite" | "postgres" | "pglite-socket";

export interface Database<DB> {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** Statements it runs at once: the pool's size on PostgreSQL; 1 for PGlite, one engine on one thread. */
  concurrency: number;
  /** Runs `fn` in one transaction on one connection with raw SQL access (for multi-statement SQL). */
  rawTransaction<T>(fn: (raw: RawSql) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` on one connection, outside any transaction (statements such as CREATE INDEX CONCURRENTLY refuse to
   * run in one); each statement commits on its own.
   */
  rawSession<T>(fn: (raw: RawSql) => Promise<T>): Promise<T>;
  /** The PGlite instance when this process owns the embedded database. */
  pglite: PGlite | undefined;
  /** The pg pool when talking PostgreSQL (directly or through the socket bridge). */
  pool: pg.Pool | undefined;
  /** Serves the embedded database to other local processes (serve/worker only). */
  startSocketBridge(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; `memory://` for an in-memory one (tests). */
  dataDir: string;
  /** PostgreSQL schema to work in (created if missing); tests use a fresh one per file. */
  schema?: string | undefined;
  poolSize?: number;
  /**
   * The longest a statement may run on PostgreSQL, in ms (the server cancels it: SQLSTATE 57014). Default: one
   * hour, for operator commands (imports). The embedded PGlite runs on this thread and cannot interrupt a
   * statement; there the callers' own budgets and row caps bound the work.
   */
  statementTimeoutMs?: number | undefined;
  /**
   * In memory only: the database starts as this dump of another (PGlite's `dumpDataDir`), not empty. The tests
   * start each of theirs from one migrated copy: a new PGlite initialises its cluster in seconds of WebAssembly,
   * a dump loads in a fraction of that.
   */
  startFrom?: Blob | undefined;
}

/** Statements of operator commands and migrations (index builds, bulk imports) may take this long. */
export const MAINTENANCE_STATEMENT_TIMEOUT_MS = 3_600_000;

async function socketAnswers(socketPath: string): Promise<boolean> {
  if (!fs.existsSync(socketPath)) return false;
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One process at a time may open the PGlite files; a lock file with its pid says which. */
function takeDataDirLock(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "pglite.lock");
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
  } catch {
    const holder = Number(fs.readFileSync(lockFile, "utf8"));
    if (Number.isInteger(holder) && holder !== process.pid && processAlive(holder)) {
      throw new Error(
        `the embedded database in ${dataDir} is in use by process ${holder}, which does not answer on its socket`,
      );
    }
    fs.writeFileSync(lockFile, String(process.pid));
  }
  return () => {
    try {
      if (fs.readFileSync(lockFile, "utf8") === String(process.pid)) fs.rmSync(lockFile);
    } catch {}
  };
}

function fromPool<DB>(pool: pg.Pool, kind: DatabaseKind): Database<DB> {
  // Kysely's dialect with the migration lock keyed by schema (migration-lock.ts).
  const db = new Kysely<DB>({
    dialect: new SchemaLockingPostgresDialect({ pool: kind === "postgres" ? preparingPool(pool) : pool }),
  });
  return {
    db,
    kind,
    concurrency: pool.options.max ?? 10,
    pglite: undefined,
    pool,
    async rawTransaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const raw: RawSql = {
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
        };
        const result = await fn(raw);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async rawSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async (sql, params) => (await client.query(sql, params as unknown[])).rows,
        });
      } finally {
        client.release();
      }
    },
    async startSocketBridge() {},
    async close() {
      await db.destroy();
    },
  };
}

/** node-postgres takes the user from $USER when the URL names none; services often run without one. */
function withDefaultUser(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  if (!url.username && !process.env.PGUSER && !process.env.USER) url.username = "postgres";
  return url.toString();
}

async function openPostgres<DB>(options: OpenOptions): Promise<Database<DB>> {
  const { schema } = options;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  if (schema) {
    const admin = new pg.Client({ connectionString: withDefaultUser(options.databaseUrl as string) });
    await admin.connect();
    // Several processes opening a new schema at once race inside CREATE SCHEMA IF NOT EXISTS; losing is fine.
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch((error: { code?: string }) => {
      if (error.code !== "23505" && error.code !== "42P06") throw error;
    });
    await admin.end();
  }
  const pool = new pg.Pool({
    connectionString: withDefaultUser(options.databaseUrl as string),
    max: options.poolSize ?? 10,
    statement_timeout: options.statementTimeoutMs ?? MAINTENANCE_STATEMENT_TIMEOUT_MS,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on("error", () => {}); // an idle client's error must not crash the process; the next query reports it
  // Nor a client's error between two of the pool's own listeners (a connection the server or the network drops
  // while it is checked out but between queries): the query in flight, if any, fails with it, and the pool drops
  // the broken client when it comes back.
  pool.on("connect", (client) => client.on("error", () => {}));
  return fromPool<DB>(pool, "postgres");
}

async function openPGlite<DB>(options: OpenOptions): Promise<Database<DB>> {
  const inMemory = options.dataDir === "memory://";
  let releaseLock = () => {};
  if (!inMemory) {
    // The data dir holds the database, the secret and the socket: this user's alone.
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    const socketPath = socketPathFor(options.dataDir);
    if (await socketAnswers(socketPath)) {
      const pool = new pg.Pool({
        host: options.dataDir,
        port: SOCKET_PORT,
        user: "postgres",
        database: "postgres",
        max: 1,
      });
      pool.on("error", () => {});
      // As for PostgreSQL: a `vigia serve` that stops while this command holds the connection must fail the query
      // in flight (or the next one), not crash the command with an unhandled 'error' event.
      pool.on("connect", (client) => client.on("error", () => {}));
      return fromPool<DB>(pool, "pglite-socket");
    }
    releaseLock = takeDataDirLock(options.dataDir);
  }
  // int8 as decimal strings, as node-postgres is set up above, so both backends give the same values.
  const parsers = { [pg.types.builtins.INT8]: (value: string) => value };
  const pglite = inMemory
    ? new PGlite({ parsers, ...(options.startFrom ? { loadDataDir: options.startFrom } : {}) })
    : new PGlite(path.join(options.dataDir, "pgdata"), { parsers });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  let bridge: SocketBridge | undefined;
  return {
    db,
    kind: "pglite",
    concurrency: 1,
    pglite,
    pool: undefined,
    rawTransaction: (fn) =>
      pglite.transaction((tx) =>
        fn({
          exec: async (sql) => {
            await tx.exec(sql);
          },
          query: async <T>(sql: string, params?: unknown[]) => (await tx.query<T>(sql, params)).rows,
        }),
      ),
    // PGlite has one connection: outside a transaction, statements go to it directly.
    rawSession: (fn) =>
      fn({
        exec: async (sql) => {
          await pglite.exec(sql);
        },
        query: async <T>(sql: string, params?: unknown[]) => (await pglite.query<T>(sql, params)).rows,
      }),
    async startSocketBridge() {
      if (!inMemory && !bridge) bridge = await startSocketBridge(pglite, options.dataDir);
    },
    async close() {
      await bridge?.stop();
      await db.destroy();
      await pglite.close();
      releaseLock();
    },
  };
}

export function openDatabase<DB>(options: OpenOptions): Promise<Database<DB>> {
  return options.databaseUrl ? openPostgres<DB>(options) : openPGlite<DB>(options);
}
