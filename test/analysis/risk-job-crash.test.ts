// A POST /risk job whose worker process is killed (SIGKILL) in the middle of the analysis completes after a
// worker restarts (issue 4): on the embedded database the restarted owner retries the job left running; on
// PostgreSQL the job's heartbeat stops, it is failed and retried by the running worker. The analyses row the
// client polls ends `completed` with the result.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, testDatabase } from "../support/database.ts";
import { writeChainsFile } from "../support/service.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const target = testDatabase();
const chains = writeChainsFile([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]);
let dataDir: string | undefined;
const children = new Set<ChildProcess>();

type Line = { event: string; id?: string; status?: string; level?: string };

function startChild(env: Record<string, string>) {
  const proc = spawn(
    process.execPath,
    [path.join(ROOT, "bin", "run-ts.js"), "test/analysis/support/risk-job-child.ts"],
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
  readline.createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as Line);
    } catch {}
  });
  const exited = new Promise<void>((resolve) =>
    proc.once("exit", () => {
      children.delete(proc);
      resolve();
    }),
  );
  const next = async (event: string, timeoutMs = 90_000): Promise<Line> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = lines.find((l) => l.event === event);
      if (found) return found;
      if (proc.exitCode !== null || proc.signalCode !== null)
        throw new Error(`child exited before "${event}"`);
      if (Date.now() > deadline) throw new Error(`no "${event}" from the child in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { proc, next, exited };
}

beforeAll(() => {
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-risk-jobs-"));
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
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
