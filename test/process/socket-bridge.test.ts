// The socket bridge keeps transactions apart: this process owns a PGlite data dir (openDatabase + the bridge),
// a second connection reaches it through the Unix socket (openDatabase on the same data dir, as the command line
// does), and a transaction rolled back on one side never takes the other side's concurrent writes with it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import { SOCKET_PORT, socketPathFor } from "../../src/platform/db/socket-bridge.ts";

interface TestDB {
  t: { id: string | undefined; who: string };
}

let tmp: string;
let dataDir: string;
let direct: Database<TestDB>;
let socket: Database<TestDB>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Fails instead of hanging when the bridge leaves the database locked. */
const within = <T>(ms: number, what: string, promise: Promise<T>) =>
  Promise.race([
    promise,
    sleep(ms).then(() => {
      throw new Error(`${what}: no answer after ${ms} ms`);
    }),
  ]);

const rows = async (db: Database<TestDB>) =>
  (await db.db.selectFrom("t").select("who").orderBy("who").execute()).map((r) => r.who);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bridge-"));
  dataDir = path.join(tmp, "data");
  direct = await openDatabase<TestDB>({ dataDir });
  expect(direct.kind).toBe("pglite");
  await sql`create table t (id serial primary key, who text not null)`.execute(direct.db);
  await direct.startSocketBridge();
  expect(fs.existsSync(socketPathFor(dataDir))).toBe(true);
  // The data dir and the socket (the database, without a password) are this user's alone.
  expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  expect(fs.statSync(socketPathFor(dataDir)).mode & 0o777).toBe(0o600);
  socket = await openDatabase<TestDB>({ dataDir });
  expect(socket.kind).toBe("pglite-socket");
}, 120_000);

afterAll(async () => {
  await socket?.close();
  await direct?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("socket bridge transaction isolation", () => {
  it.each(["plain insert", "transaction"] as const)(
    "a rolled-back socket transaction keeps the direct connection's concurrent %s",
    async (mode) => {
      await sql`truncate t`.execute(direct.db);
      const events: string[] = [];
      let directWrite: Promise<void> | undefined;
      const socketTx = socket.db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ who: "socket" }).execute();
        // The socket's transaction is open: the direct connection writes and commits meanwhile.
        const write =
          mode === "plain insert"
            ? direct.db.insertInto("t").values({ who: "direct" }).execute()
            : direct.db.transaction().execute((t) => t.insertInto("t").values({ who: "direct" }).execute());
        directWrite = write.then(() => {
          events.push("direct committed");
        });
        await sleep(300);
        // Nothing of the direct write has reached this transaction.
        expect((await trx.selectFrom("t").select("who").execute()).map((r) => r.who)).toEqual(["socket"]);
        events.push("socket rolls back");
        throw new Error("roll back");
      });
      await expect(within(10_000, "socket transaction", socketTx)).rejects.toThrow("roll back");
      await within(10_000, "direct write", directWrite as Promise<void>);

      // The direct write waited for the socket's transaction instead of landing inside it.
      expect(events).toEqual(["socket rolls back", "direct committed"]);
      expect(await rows(direct)).toEqual(["direct"]);
      expect(await rows(socket)).toEqual(["direct"]);
    },
  );

  it.each(["plain insert", "transaction"] as const)(
    "a rolled-back direct transaction keeps the socket connection's concurrent %s",
    async (mode) => {
      await sql`truncate t`.execute(direct.db);
      const events: string[] = [];
      let socketWrite: Promise<void> | undefined;
      const directTx = direct.db.transaction().execute(async (trx) => {
        await trx.insertInto("t").values({ who: "direct" }).execute();
        const write =
          mode === "plain insert"
            ? socket.db.insertInto("t").values({ who: "socket" }).execute()
            : socket.db.transaction().execute((t) => t.insertInto("t").values({ who: "socket" }).execute());
        socketWrite = write.then(() => {
          events.push("socket committed");
        });
        await sleep(300);
        expect((await trx.selectFrom("t").select("who").execute()).map((r) => r.who)).toEqual(["direct"]);
        events.push("direct rolls back");
        throw new Error("roll back");
      });
      await expect(within(10_000, "direct transaction", directTx)).rejects.toThrow("roll back");
      await within(10_000, "socket write", socketWrite as Promise<void>);

      expect(events).toEqual(["direct rolls back", "socket committed"]);
      expect(await rows(direct)).toEqual(["socket"]);
      expect(await rows(socket)).toEqual(["socket"]);
    },
  );

  it("a socket client that goes away inside a transaction leaves nothing behind and the database unlocked", async () => {
    await sql`truncate t`.execute(direct.db);
    const client = new pg.Client({
      host: dataDir,
      port: SOCKET_PORT,
      user: "postgres",
      database: "postgres",
    });
    client.on("error", () => {});
    await client.connect();
    await client.query("BEGIN");
    await client.query("insert into t (who) values ('abandoned')");
    // The direct connection waits for that transaction...
    const directWrite = direct.db.insertInto("t").values({ who: "direct" }).execute();
    await sleep(200);
    // ...until the client drops its connection without COMMIT or ROLLBACK.
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await within(10_000, "direct write after the socket client went away", directWrite);
    expect(await rows(direct)).toEqual(["direct"]);
    expect(await within(10_000, "socket read", rows(socket))).toEqual(["direct"]);
  });
});
