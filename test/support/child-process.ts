// A test's worker process (`node bin/run-ts.js SCRIPT`) that prints JSON lines, for the tests that kill a worker
// mid-job and check what a restarted one does: start it on the test's database, wait for an event it prints,
// and kill whatever is left when the file ends.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { onPostgres, type testDatabase } from "./database.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const running = new Set<ChildProcess>();

export type ChildLine = { event: string; [key: string]: unknown };

/** The child's environment for the test's database: a PostgreSQL schema, or a PGlite data dir. */
export function childDatabaseEnv(
  target: ReturnType<typeof testDatabase>,
  dataDir: string | undefined,
): Record<string, string> {
  return onPostgres
    ? { CHILD_DATABASE_URL: target.databaseUrl as string, CHILD_SCHEMA: target.schema as string }
    : { CHILD_DATA_DIR: dataDir as string };
}

export function startChildProcess<L extends ChildLine = ChildLine>(
  script: string,
  env: Record<string, string>,
) {
  const proc = spawn(process.execPath, [path.join(ROOT, "bin", "run-ts.js"), script], {
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(proc);
  const lines: L[] = [];
  const waiters: (() => void)[] = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  readline.createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (text) => {
    try {
      lines.push(JSON.parse(text) as L);
      wakeAll();
    } catch {}
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.once("exit", (code) => {
      running.delete(proc);
      resolve(code);
      wakeAll();
    }),
  );
  /** The first line with this event, waiting for it (an error when the child exits or the time is up first). */
  const next = async (event: string, timeoutMs = 90_000): Promise<L> => {
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

/** SIGKILLs every child still running (afterAll). */
export function killChildProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
}
