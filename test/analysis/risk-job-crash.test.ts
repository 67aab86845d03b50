// A POST /risk job whose worker process is killed (SIGKILL) in the middle of the analysis completes after a
// worker restarts: on the embedded database the restarted owner retries the job left running; on
// PostgreSQL the job's heartbeat stops, it is failed and retried by the running worker. The analyses row the
// client polls ends `completed` with the result.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childDatabaseEnv, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;

type Line = { event: string; id?: string; status?: string; level?: string };

const startChild = (env: Record<string, string>) =>
  startChildProcess<Line>("test/analysis/support/risk-job-child.ts", {
    CHILD_CHAINS: chains,
    ...childDatabaseEnv(target, dataDir),
    ...env,
  });

beforeAll(() => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-risk-jobs-"));
});
afterAll(async () => {
  killChildProcesses();
  await target.drop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe(`a risk job killed mid-run (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  it("completes after the worker restarts", async () => {
    const first = startChild({ CHILD_MODE: "hang", CHILD_SEND: "1" });
    const sent = await first.next("sent");
    await first.next("hanging");
    first.proc.kill("SIGKILL");
    await first.exited;

    const second = startChild({ CHILD_MODE: "finish", CHILD_WAIT_FOR: sent.id as string });
    const finished = await second.next("finished", 90_000);
    expect(finished).toMatchObject({ status: "completed", level: "critical" });
    second.proc.kill("SIGTERM");
    await second.exited;
  }, 150_000);
});
