// A job whose worker process is killed (SIGKILL) in the middle of the job completes after the worker restarts:
// on the embedded database (a PGlite data dir in a temp dir) the restarted owner retries the jobs the dead one
// left running; on PostgreSQL the job expires and is retried by the worker that is running then.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import { JobQueue } from "../../src/platform/jobs/index.ts";
import type { DB } from "../../src/schema.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const QUEUE = "test.crash";
const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;
const children = new Set<ChildProcess>();

interface Line {
  event: string;
  id?: string;
  retryCount?: number;
  pid?: number;
}

function startChild(env: Record<string, string>) {
  const proc = spawn(
    process.execPath,
    [path.join(ROOT, "bin", "run-ts.js"), "test/jobs/support/job-child.ts"],
    {
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        CHILD_CHAINS: chains,
        ...(onPostgres
          ? { CHILD_DATABASE_URL: target.databaseUrl as string, CHILD_SCHEMA: target.schema as string }
          : { CHILD_DATA_DIR: dataDir as string }),
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  children.add(proc);
  const lines: Line[] = [];
  const waiters: (() => void)[] = [];
  readline.createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as Line);
      for (const wake of waiters.splice(0)) wake();
    } catch {}
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.once("exit", (code) => {
      children.delete(proc);
      resolve(code);
      for (const wake of waiters.splice(0)) wake();
    }),
  );
  const next = async (event: string, timeoutMs = 60_000): Promise<Line> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((l) => l.event === event);
      if (found) return found;
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`child exited before "${event}"`);
      if (Date.now() > deadline) throw new Error(`no "${event}" from the child in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  };
  return { proc, lines, next, exited };
}

beforeAll(() => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-jobs-"));
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await target.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`a worker killed mid-job (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  it("leaves the job to complete after the worker restarts", async () => {
    // 1. A worker queues a job, starts it, and is killed while the job runs.
    const first = startChild({ CHILD_MODE: "hang", CHILD_SEND: "1" });
    const sent = await first.next("sent");
    const started = await first.next("started");
    expect(started).toMatchObject({ id: sent.id, retryCount: 0 });
    first.proc.kill("SIGKILL");
    await first.exited;

    // 2. A new worker process picks the job up again and completes it.
    const second = startChild({ CHILD_MODE: "finish" });
    await second.next("ready");
    const rerun = await second.next("started", 30_000);
    expect(rerun).toMatchObject({ id: sent.id, retryCount: 1, pid: second.proc.pid });

    // 3. Stopped cleanly, the database says the job completed, with the second worker's result.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    second.proc.kill("SIGTERM");
    expect(await second.exited).toBe(0);

    const database = await openDatabase<DB>(
      onPostgres
        ? { databaseUrl: target.databaseUrl, dataDir: "memory://", schema: target.schema }
        : { dataDir: dataDir as string },
    );
    try {
      await migrate(database);
      const jobs = new JobQueue(database, {
        workers: false,
        schema: target.schema ?? "pgboss",
        logLevel: "warn",
      });
      await jobs.define(QUEUE);
      const job = await jobs.get(QUEUE, sent.id as string);
      expect(job).toMatchObject({
        state: "completed",
        retryCount: 1,
        data: { n: 21 },
        output: { doubled: 42, finishedBy: second.proc.pid, retryCount: 1 },
      });
      await jobs.stop();
    } finally {
      await database.close();
    }
  });
});
