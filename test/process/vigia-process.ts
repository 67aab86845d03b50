// Runs the real `vigia` command (node bin/vigia.js ...) as a child process for the process tests: on the embedded
// database of a given data dir, never on DATABASE_URL, with bounded waits, and kills whatever is left behind.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(ROOT, "bin", "vigia.js");

/**
 * The environment of a newcomer: no DATABASE_URL and no VIGIA_* from the test runner, only what is given, and
 * public explorers off unless given (the built-in chains' Blockscout instances are on the internet).
 */
export function newcomerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name === "DATABASE_URL" || name.startsWith("VIGIA_") || name === "PORT" || name === "HOST") continue;
    if (name.startsWith("VITEST") || name === "NODE_OPTIONS") continue;
    env[name] = value;
  }
  return { ...env, VIGIA_PUBLIC_EXPLORERS: "false", ...extra };
}

export interface VigiaProcess {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when stdout matches `pattern`; rejects on exit or after `timeoutMs`. */
  waitForStdout(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit, or kills the process and rejects after `timeoutMs`. */
  waitForExit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

export function spawnVigia(args: string[], env: NodeJS.ProcessEnv): VigiaProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      // Let the last chunks of output arrive before reporting the exit.
      child.once("close", () => resolve({ code, signal }));
      setTimeout(() => resolve({ code, signal }), 500).unref();
    });
  });
  const describe = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    exited,
    waitForStdout(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (!match) return;
          done();
          resolve(match);
        };
        const timer = setTimeout(() => {
          done();
          reject(
            new Error(`vigia ${args.join(" ")}: no ${pattern} on stdout after ${timeoutMs} ms${describe()}`),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(({ code, signal }) => {
          check();
          if (!listeners.has(check)) return;
          done();
          reject(
            new Error(`vigia ${args.join(" ")} exited (${code ?? signal}) before ${pattern}${describe()}`),
          );
        });
        check();
      });
    },
    async waitForExit(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`vigia ${args.join(" ")} still running after ${timeoutMs} ms${describe()}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** Runs a short command to its end. */
export async function runVigia(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000) {
  const proc = spawnVigia(args, env);
  const { code, signal } = await proc.waitForExit(timeoutMs);
  return { code, signal, stdout: proc.stdout, stderr: proc.stderr };
}

/** Kills every child still running (afterEach/afterAll) and waits for them to go. */
export async function killAll(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
          setTimeout(resolve, 5000).unref();
        }),
    ),
  );
}
