// A POST /risk job whose worker process is killed (SIGKILL) in the middle of the analysis completes after a
// worker restarts: on the embedded database the restarted owner retries the job left running; on
// PostgreSQL the job's heartbeat stops, it is failed and retried by the running worker. The analyses row the
// client polls ends `completed` with the result. And a process killed while it starts risk jobs (the kill lands
// anywhere between writing a row and queueing its job) leaves no row without its job: the row and the job are
// written in one transaction, so every row it left completes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { childDatabaseEnv, killChildProcesses, startChildProcess } from "../support/child-process.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);

type Line = {
  event: string;
  id?: string;
  status?: string;
  level?: string;
  statuses?: string[];
  withoutJob?: number;
};

/** A database of its own for each test (a PostgreSQL schema, or a PGlite data dir), dropped at the end. */
const databases: { target: ReturnType<typeof testDatabase>; dataDir: string | undefined }[] = [];
function freshDatabase() {
  const db = {
    target: testDatabase(),
    dataDir: onPostgres ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "vigia-risk-jobs-")),
  };
  databases.push(db);
  return (env: Record<string, string>) =>
    startChildProcess<Line>("test/analysis/support/risk-job-child.ts", {
      CHILD_CHAINS: chains,
      ...childDatabaseEnv(db.target, db.dataDir),
      ...env,
    });
}

afterAll(async () => {
  killChildProcesses();
  for (const { target, dataDir } of databases) {
    await target.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe(`a risk job killed mid-run (${onPostgres ? "PostgreSQL" : "PGlite data dir"})`, () => {
  it("completes after the worker restarts", async () => {
    const startChild = freshDatabase();
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

  it("leaves no row without its job when killed while starting jobs", async () => {
    const startChild = freshDatabase();
    // Three floods, each killed once it has started a few jobs: each kill lands at some point inside the next
    // startRiskJob (with the row and the job written apart, about one kill in two leaves a row without its job).
    const sent: Line[] = [];
    for (let round = 0; round < 3; round++) {
      const flood = startChild({ CHILD_MODE: "flood" });
      await flood.next("sent");
      const deadline = Date.now() + 60_000;
      while (flood.lines.filter((l) => l.event === "sent").length < 3) {
        if (Date.now() > deadline) throw new Error("the flood started fewer than 3 jobs in 60 s");
        await new Promise((r) => setTimeout(r, 5));
      }
      flood.proc.kill("SIGKILL");
      await flood.exited;
      sent.push(...flood.lines.filter((l) => l.event === "sent"));
    }
    expect(sent.every((l) => !String(l.id).startsWith("refused"))).toBe(true);

    const worker = startChild({ CHILD_MODE: "finish-all" });
    const finished = await worker.next("all-finished", 120_000);
    // Every job the flood reported, and possibly the one committed just before the kill, ran to completion.
    expect(finished.statuses?.length).toBeGreaterThanOrEqual(sent.length);
    expect(finished.statuses?.length).toBeLessThanOrEqual(sent.length + 3);
    expect(new Set(finished.statuses)).toEqual(new Set(["completed"]));
    expect(finished.withoutJob).toBe(0);
    worker.proc.kill("SIGTERM");
    await worker.exited;
  }, 180_000);
});
