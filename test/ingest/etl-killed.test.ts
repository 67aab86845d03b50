// A killed `vigia import etl` (the real command, SIGKILL half-way through a generated export) leaves the store as
// it was before, and running the command again completes the import exactly. On the embedded database always;
// on PostgreSQL too when DATABASE_URL is set. Also: where stderr is not a terminal, progress comes as timed log
// lines (every 10 s, with the share of the export read) and nothing else is said when nothing went wrong.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { killAll, newcomerEnv, spawnVigia } from "../process/vigia-process.ts";
import { onPostgres } from "../support/database.ts";
import { type GeneratedExport, generateEtlExport } from "./etl-export-generator.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-etl-kill-"));
let generated: GeneratedExport;
let expected: { count: number; valueSum: bigint; tokens: number };

beforeAll(async () => {
  generated = generateEtlExport({
    dir: path.join(tmp, "export"),
    transfers: 200_000,
    seed: 7,
    transfersCsv: true,
  });
  // What the store must hold in the end, from the generator's own list of transfers.
  let count = 0;
  let valueSum = 0n;
  const tokens = new Set<string>();
  const lines = readline.createInterface({ input: fs.createReadStream(generated.transfersCsv as string) });
  for await (const line of lines) {
    if (line.startsWith("chain_id")) continue;
    const fields = line.split(",");
    count++;
    valueSum += BigInt(fields[8] as string);
    tokens.add(fields[7] as string);
  }
  expected = { count, valueSum, tokens: tokens.size };
  fs.rmSync(generated.transfersCsv as string);
}, 120_000);
afterEach(killAll);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Store {
  query<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function state(store: Store) {
  const [transfers] = await store.query<{ count: string; sum: string | null; tokens: string }>(
    "SELECT count(*)::text AS count, sum(value)::text AS sum, count(DISTINCT token)::text AS tokens FROM transfers",
  );
  const runs = await store.query<{ status: string; error: string | null }>(
    "SELECT status, error FROM import_runs ORDER BY id",
  );
  return {
    count: Number(transfers?.count),
    sum: BigInt(transfers?.sum ?? 0),
    tokens: Number(transfers?.tokens),
    runs,
  };
}

interface Backend {
  name: string;
  env: Record<string, string>;
  open(): Promise<Store>;
  /** resolves once the import is under way (its rows are being written) */
  underWay(): Promise<void>;
  /** resolves once the killed process's session is gone (PostgreSQL rolls back its transaction then) */
  settled(): Promise<void>;
  prepare(): Promise<void>;
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

function dirSize(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      try {
        total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
      } catch {}
    }
  }
  return total;
}

function pgliteBackend(): Backend {
  const dataDir = path.join(tmp, "data");
  return {
    name: "embedded PGlite",
    env: { VIGIA_DATA_DIR: dataDir },
    async open() {
      const database = await openDatabase<DB>({ dataDir });
      return {
        query: async <T>(sql: string) => (await database.pglite?.query<T>(sql))?.rows ?? [],
        close: () => database.close(),
      };
    },
    // The data dir grows as the import's transaction writes (PGlite's WAL and table files).
    async underWay() {
      const pgdata = path.join(dataDir, "pgdata");
      await until("the import to write", () => fs.existsSync(pgdata) && dirSize(pgdata) > 100 * 2 ** 20);
    },
    async settled() {},
    async prepare() {},
    async cleanup() {},
  };
}

function postgresBackend(): Backend {
  const url = new URL(process.env.DATABASE_URL as string);
  if (!url.username) url.username = "postgres";
  const schema = `t_${crypto.randomBytes(6).toString("hex")}`;
  const withSchema = new URL(url);
  withSchema.searchParams.set("options", `-c search_path=${schema}`);
  const connect = async (connectionString: string) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    return client;
  };
  const open = async (): Promise<Store> => {
    const client = await connect(withSchema.toString());
    return { query: async (sql) => (await client.query(sql)).rows, close: () => client.end() };
  };
  return {
    name: "PostgreSQL",
    env: { DATABASE_URL: withSchema.toString(), VIGIA_SECRET: "vW3q8Jr2xKp9LmN4tZb7Yc1Hd6Fg0Se5Ua8Qi2Oj3Rk" },
    open,
    async underWay() {
      await until("the import to start", async () => {
        const store = await open().catch(() => undefined);
        if (!store) return false;
        try {
          const rows = await store
            .query<{ n: string }>("SELECT rows_read::text AS n FROM import_runs WHERE status = 'running'")
            .catch(() => []);
          return Number(rows[0]?.n ?? 0) > 0;
        } finally {
          await store.close();
        }
      });
    },
    async settled() {
      // The run's advisory lock goes with its session: once it can be taken, the session is gone.
      await until("the killed session to end", async () => {
        const store = await open();
        try {
          const [run] = await store.query<{ id: string }>("SELECT max(id)::text AS id FROM import_runs");
          const [lock] = await store.query<{ ok: boolean }>(
            `SELECT pg_try_advisory_lock(${0x45544c49}, ${Number(run?.id)}) AS ok`,
          );
          return Boolean(lock?.ok);
        } finally {
          await store.close();
        }
      });
    },
    async prepare() {
      const client = await connect(url.toString());
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.end();
    },
    async cleanup() {
      const client = await connect(url.toString());
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

const backends = [pgliteBackend(), ...(onPostgres ? [postgresBackend()] : [])];

describe.each(backends)("a killed import on $name", (backend) => {
  afterAll(() => backend.cleanup());

  it("leaves the store as it was, and running it again completes it exactly", async () => {
    await backend.prepare();
    const env = newcomerEnv(backend.env);
    const args = ["import", "etl", "--chain", "1", generated.dir];

    const killed = spawnVigia(args, env);
    await Promise.race([
      backend.underWay(),
      killed.exited.then(() => {
        throw new Error(`the import ended before it could be killed${killed.stderr}`);
      }),
    ]);
    killed.child.kill("SIGKILL");
    expect((await killed.exited).signal).toBe("SIGKILL");
    expect(killed.stdout).toBe(""); // no summary: it did not finish
    await backend.settled();

    let store = await backend.open();
    const afterKill = await state(store);
    await store.close();
    expect(afterKill).toEqual({ count: 0, sum: 0n, tokens: 0, runs: [{ status: "running", error: null }] });

    const rerun = spawnVigia(args, env);
    const { code } = await rerun.waitForExit(240_000);
    // Not a terminal: only timed progress lines (a run of over 10 s writes some, and a last one), nothing else.
    const lines = rerun.stderr.split("\n").filter((line) => line !== "");
    for (const line of lines)
      expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z import etl: (importing|checking|done, )/);
    expect(code).toBe(0);
    const summary = JSON.parse(rerun.stdout) as { transfers: { written: number } };
    expect(summary.transfers.written).toBe(expected.count);

    store = await backend.open();
    const done = await state(store);
    await store.close();
    expect(done.count).toBe(generated.transfers);
    expect(done).toMatchObject({ count: expected.count, sum: expected.valueSum, tokens: expected.tokens });
    expect(done.runs.map((r) => r.status)).toEqual(["failed", "completed"]);
    expect(done.runs[0]?.error).toMatch(/^interrupted/);
  }, 400_000);
});
