// Serves the running embedded database (PGlite) over the PostgreSQL wire protocol on a Unix socket inside the
// data dir, so that other commands (`vigia projects create`, imports, ...) can use the database while
// `vigia serve` owns it (docs/operations.md, "Embedded (default)").
//
// PGlite is one connection. The socket server queues wire messages per client, but on its own it would let a
// socket client's multi-message transaction interleave with this process's queries (and the reverse). The gate
// below makes every socket message take PGlite's transaction lock, and keeps holding it while the socket
// client's transaction is open, exactly as `PGlite.transaction()` does for this process's own transactions.
import fs from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/** node-postgres finds a Unix socket as `<host dir>/.s.PGSQL.<port>`. */
export const SOCKET_PORT = 5432;
export function socketPathFor(dataDir: string): string {
  return path.join(dataDir, `.s.PGSQL.${SOCKET_PORT}`);
}

interface PGliteInternals {
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
}

function simpleQueryMessage(sql: string): Uint8Array {
  const body = Buffer.from(`${sql}\0`, "utf8");
  const message = Buffer.alloc(5 + body.length);
  message.write("Q", 0, "ascii");
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return new Uint8Array(message);
}

function gatedView(pglite: PGlite) {
  let release: (() => void) | undefined;
  const holdTransactionLock = () =>
    new Promise<void>((acquired) => {
      void (pglite as unknown as PGliteInternals)._runExclusiveTransaction(
        () =>
          new Promise<void>((done) => {
            release = done;
            acquired();
          }),
      );
    });
  const releaseWhenIdle = () => {
    if (release && !pglite.isInTransaction()) {
      const done = release;
      release = undefined;
      done();
    }
  };
  return {
    get waitReady() {
      return pglite.waitReady;
    },
    isInTransaction: () => pglite.isInTransaction(),
    execProtocolRawStream: pglite.execProtocolRawStream.bind(pglite),
    async runExclusive<T>(fn: () => Promise<T>): Promise<T> {
      if (!release) await holdTransactionLock();
      try {
        return await pglite.runExclusive(fn);
      } finally {
        releaseWhenIdle();
      }
    },
    // Called by the socket server to roll back a transaction left open by a client that went away.
    async exec(sql: string): Promise<void> {
      if (!release) await holdTransactionLock();
      try {
        await pglite.runExclusive(() =>
          pglite.execProtocolRawStream(simpleQueryMessage(sql), { onRawData: () => {} }),
        );
      } finally {
        releaseWhenIdle();
      }
    },
  };
}

export interface SocketBridge {
  path: string;
  stop(): Promise<void>;
}

export async function startSocketBridge(pglite: PGlite, dataDir: string): Promise<SocketBridge> {
  const socketPath = socketPathFor(dataDir);
  if (socketPath.length > 100) {
    throw new Error(`data dir path is too long for a Unix socket (${socketPath.length} > 100 characters)`);
  }
  fs.rmSync(socketPath, { force: true });
  const server = new PGLiteSocketServer({
    db: gatedView(pglite) as unknown as PGlite,
    path: socketPath,
    maxConnections: 16,
  });
  await server.start();
  // Only this user may connect: the socket is the embedded database with no password.
  fs.chmodSync(socketPath, 0o600);
  return {
    path: socketPath,
    async stop() {
      await server.stop();
      fs.rmSync(socketPath, { force: true });
    },
  };
}
