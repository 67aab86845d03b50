// `vigia lists import` (the real command, as a child process) when the service it talks to goes away: a stand-in
// service on the data dir's socket passes the command's connection through to a real embedded database (this
// process's PGlite and its socket bridge), then drops it in the middle of the import, or as soon as the command
// speaks. The command once died there with an unhandled ECONNRESET and its stack; it must say in one line that the
// service closed the connection and what to do, exit non-zero, and leave nothing of the import behind. With
// DATABASE_URL the same against PostgreSQL through a TCP stand-in on 127.0.0.1, and a DATABASE_URL nothing listens
// on is named as not reachable (that one runs either way).
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import { socketPathFor } from "../../src/platform/db/socket-bridge.ts";
import type { DB } from "../../src/schema.ts";
import { newcomerEnv, spawnVigia } from "./vigia-process.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-gone-"));
const LIST = path.join(tmp, "consolidated.xml");
/** The import's statements, as the command sends them: the stand-in cuts after it has passed a few. */
const ENTRY_INSERT = Buffer.from('insert into "person_list_entries"');

/** A UN list of `n` persons, large enough that its import takes many statements. */
function writeList(n: number) {
  const records = Array.from(
    { length: n },
    (_, i) =>
      `<INDIVIDUAL><DATAID>${i}</DATAID><REFERENCE_NUMBER>QDi.${i}</REFERENCE_NUMBER><FIRST_NAME>PERSON</FIRST_NAME><SECOND_NAME>NUMBER ${i}</SECOND_NAME><UN_LIST_TYPE>Al-Qaida</UN_LIST_TYPE></INDIVIDUAL>`,
  );
  fs.writeFileSync(
    LIST,
    `<?xml version="1.0"?>\n<CONSOLIDATED_LIST dateGenerated="2026-01-05T10:00:00Z">\n<INDIVIDUALS>\n${records.join("\n")}\n</INDIVIDUALS><ENTITIES/></CONSOLIDATED_LIST>\n`,
  );
}

/**
 * A stand-in service listening at `listen` (a Unix socket path or 127.0.0.1:0) that accepts each connection and
 * passes it to `upstream`, then destroys it: once the command has sent `afterInserts` entry inserts, or at its
 * first bytes when that is 0.
 */
async function droppingService(
  listen: { path: string } | { port: 0; host: "127.0.0.1" },
  upstream: () => net.Socket,
  afterInserts: number,
) {
  const sockets = new Set<net.Socket>();
  let inserts = 0;
  const dropped = { yes: false };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("error", () => {});
    const up = upstream();
    sockets.add(up);
    up.on("error", () => {});
    client.on("data", (chunk: Buffer) => {
      if (chunk.includes(ENTRY_INSERT)) inserts += 1;
      if (inserts > afterInserts || afterInserts === 0) {
        dropped.yes = true;
        // The service stops mid-request: both sides of the connection are gone, nothing answers.
        client.destroy();
        up.destroy();
        return;
      }
      up.write(chunk);
    });
    up.on("data", (chunk: Buffer) => client.write(chunk));
    client.once("close", () => up.destroy());
    up.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(listen, resolve));
  return {
    dropped,
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function runImport(env: Record<string, string>) {
  const cli = spawnVigia(["lists", "import", "un", LIST], newcomerEnv({ VIGIA_LOG_LEVEL: "warn", ...env }));
  const { code } = await cli.waitForExit(120_000);
  return { code, stderr: cli.stderr, stdout: cli.stdout };
}

/** One line on stderr, no stack, no unhandled 'error' event. */
function expectCleanError(stderr: string) {
  const lines = stderr.trim().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at |Unhandled|node:events|ECONNRESET\n/m);
}

beforeAll(() => writeList(20_000));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the embedded service goes away under `vigia lists import`", () => {
  let service: Database<DB>;
  const serviceDir = path.join(tmp, "service");
  const commandDir = path.join(tmp, "command");

  beforeAll(async () => {
    service = await openDatabase<DB>({ dataDir: serviceDir });
    await migrate(service);
    await service.startSocketBridge();
    fs.mkdirSync(commandDir, { mode: 0o700 });
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  it.each([
    ["in the middle of the import", 3],
    ["as soon as the command speaks", 0],
  ])("%s: one line saying the service closed the connection and what to do", async (_, afterInserts) => {
    const stand = await droppingService(
      { path: socketPathFor(commandDir) },
      () => net.connect(socketPathFor(serviceDir)),
      afterInserts,
    );
    try {
      const { code, stderr } = await runImport({ VIGIA_DATA_DIR: commandDir });
      expect(stand.dropped.yes).toBe(true);
      expect(code, stderr).toBe(1);
      expectCleanError(stderr);
      expect(stderr).toContain(
        `vigia: the running \`vigia serve\` on ${commandDir} closed the connection before the command finished (`,
      );
      expect(stderr).toContain("nothing of a transaction it had not finished was kept");
      expect(stderr).toContain("Run the command again once the service is back");
    } finally {
      await stand.close();
    }
    // Nothing of the import is left in the service's database.
    const lists = await service.db.selectFrom("person_lists").select("id").execute();
    expect(lists).toEqual([]);
    const entries = await service.db
      .selectFrom("person_list_entries")
      .select(({ fn }) => fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(entries.n)).toBe(0);
  });
});

describe("PostgreSQL goes away, or is not there", () => {
  it("a DATABASE_URL nothing listens on is named as not reachable", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const url = `postgres://vigia:hunter2@127.0.0.1:${port}/vigia`;
    const { code, stderr } = await runImport({ DATABASE_URL: url, VIGIA_DATA_DIR: path.join(tmp, "unused") });
    expect(code, stderr).toBe(1);
    expectCleanError(stderr);
    expect(stderr).toContain(
      `vigia: cannot reach the database at postgres://vigia:***@127.0.0.1:${port}/vigia (ECONNREFUSED): check that PostgreSQL is running there`,
    );
    expect(stderr).not.toContain("hunter2");
  });

  it.runIf(Boolean(process.env.DATABASE_URL))(
    "closed in the middle of the import: one line naming the database, nothing kept",
    async () => {
      const real = new URL(process.env.DATABASE_URL as string);
      if (!real.username) real.username = "postgres";
      const schema = `t_gone_${process.pid}`;
      const admin = new pg.Client({ connectionString: real.toString() });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const stand = await droppingService(
        { port: 0, host: "127.0.0.1" },
        () => net.connect(Number(real.port || 5432), real.hostname),
        3,
      );
      try {
        const url = new URL(real.toString());
        url.hostname = "127.0.0.1";
        url.port = String(stand.port);
        url.searchParams.set("options", `-c search_path=${schema}`);
        const { code, stderr } = await runImport({
          DATABASE_URL: url.toString(),
          VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
          VIGIA_DATA_DIR: path.join(tmp, "pg"),
        });
        expect(stand.dropped.yes, stderr).toBe(true);
        expect(code, stderr).toBe(1);
        expectCleanError(stderr);
        expect(stderr).toMatch(
          /^vigia: the database at postgres:\/\/.*@127\.0\.0\.1:\d+\/.* closed the connection before the command finished \(.+\); nothing of a transaction it had not finished was kept/,
        );
        const { rows } = await admin.query(`SELECT count(*)::int AS n FROM ${schema}.person_list_entries`);
        expect(rows[0].n).toBe(0);
      } finally {
        await stand.close();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    },
  );
});
