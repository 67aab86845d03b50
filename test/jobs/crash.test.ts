// A job whose worker process is killed (SIGKILL) in the middle of the job completes after the worker restarts:
// on the embedded database (a PGlite data dir in a temp dir) the restarted owner retries the jobs the dead one
// left running; on PostgreSQL the job expires and is retried by the worker that is running then.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { openDatabase } from "../../src/platform/db/open.ts";
import { JobQueue } from "../../src/platform/jobs/index.ts";
import type { DB } from "../../src/schema.ts";
import {
  type ChildLine,
  childDatabaseEnv,
  killChildProcesses,
  startChildProcess,
} from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const QUEUE = "test.crash";
const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;

interface Line extends ChildLine {
  event: string;
  id?: string;
  retryCount?: number;
  pid?: number;
}

const startChild = (env: Record<string, string>) =>
  startChildProcess<Line>("test/jobs/support/job-child.ts", {
    CHILD_CHAINS: chains,
    ...childDatabaseEnv(target, dataDir),
    ...env,
  });

beforeAll(() => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-jobs-"));
});

afterAll(async () => {
  killChildProcesses();
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
