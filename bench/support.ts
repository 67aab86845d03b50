// Shared pieces of the benchmarks: child server processes (so the load generator and the server under test
// never share an event loop), the load generator (autocannon), the machine description, and the markdown
// report in docs/benchmarks.md, whose sections are delimited by `<!-- bench:NAME -->` markers so each run
// replaces only the sections it measured.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import pg from "pg";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUN_TS = path.join(ROOT, "bin", "run-ts.js");

/**
 * Load parameters shared by every HTTP benchmark: BENCH_CONNECTIONS, BENCH_WARMUP and BENCH_DURATION (seconds
 * per target, split into BENCH_ROUNDS interleaved rounds).
 */
export const LOAD = {
  connections: Number(process.env.BENCH_CONNECTIONS || 50),
  warmupSeconds: Number(process.env.BENCH_WARMUP || 2),
  durationSeconds: Number(process.env.BENCH_DURATION || 10),
  rounds: Math.max(1, Number(process.env.BENCH_ROUNDS || 5)),
};

/** BENCH_DATABASES (comma-separated, default both): the databases a benchmark runs on, in a fixed order. */
export function wantedDatabases(): ("pglite" | "postgres")[] {
  const wanted = (process.env.BENCH_DATABASES || "pglite,postgres").split(",").map((s) => s.trim());
  return (["pglite", "postgres"] as const).filter((d) => wanted.includes(d));
}

/** A benchmark: measures, prints as it goes, and returns its markdown section (without the markers). */
export interface Benchmark {
  name: string;
  /** its section of docs/benchmarks.md, when not its name (a run on another size of store keeps its own) */
  section?: string;
  title: string;
  run(): Promise<{ markdown: string; passed: boolean }>;
}

// ---------------------------------------------------------------------------------------------------------
// Child processes

export interface ChildServer<T> {
  info: T;
  /** CPU time (user + system) the child has used so far, in seconds; undefined where /proc is missing. */
  cpuSeconds(): number | undefined;
  /** The child's peak resident set so far (VmHWM), in bytes; undefined where /proc is missing. */
  peakRssBytes(): number | undefined;
  stop(): Promise<void>;
}

/** Children still running: killed if the runner exits early (an exception, Ctrl-C), so none is left listening. */
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    process.stderr.write(`${signal}: stopping the benchmark servers\n`);
    process.exit(130);
  });
}

const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux this runs on

function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // fields from the 3rd (state) on
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (14th and 15th)
  } catch {
    return undefined;
  }
}

function peakRssOf(pid: number | undefined): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts `node bin/run-ts.js FILE` and waits for the JSON line it prints once it listens (a line holding a
 * `url`; log lines, which are JSON too, carry a `level` and are passed through to stderr). `root` runs the file of
 * another checkout of the project (bench/quick-load.ts measures earlier commits); this one by default.
 */
export async function startChild<T extends { url: string }>(
  file: string,
  opts: { env: Record<string, string>; nodeArgs?: string[]; label: string; root?: string },
): Promise<ChildServer<T>> {
  const root = opts.root ?? ROOT;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), RUN_TS, path.join(root, file)], {
    cwd: root,
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const prefix = (line: string) => process.stderr.write(`[${opts.label}] ${line}\n`);
  readline.createInterface({ input: child.stderr as NodeJS.ReadableStream }).on("line", prefix);

  const info = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${opts.label}: not listening after 60 s`)), 60_000);
    let found = false;
    readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      if (!found) {
        try {
          const parsed = JSON.parse(line) as Partial<T> & { level?: unknown };
          if (typeof parsed.url === "string" && parsed.level === undefined) {
            found = true;
            clearTimeout(timer);
            resolve(parsed as T);
            return;
          }
        } catch {}
      }
      prefix(line);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      if (!found) reject(new Error(`${opts.label}: exited with code ${code} before listening`));
    });
  });
  return {
    info,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    peakRssBytes: () => peakRssOf(child.pid),
    stop: () => stopChild(child, exited, opts.label),
  };
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>, label: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => {
    process.stderr.write(`[${label}] did not stop within 15 s: killing it\n`);
    child.kill("SIGKILL");
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------------------
// Load

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  /** Responses whose body differs are counted as mismatches. */
  expectBody?: string;
  /** The server process's CPU time so far (ChildServer.cpuSeconds), for the CPU cost of a request. */
  cpuSeconds?: () => number | undefined;
}

export interface LoadResult {
  /** Completed requests per second over the measured time (all responses). */
  rps: number;
  p50: number;
  p99: number;
  total: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Responses whose body differed from the expected one. */
  mismatches: number;
  statusCodes: Record<string, number>;
  /**
   * CPU time the server used per request (µs), while it alone was under load. Unlike req/s, this hardly
   * depends on what else the machine is doing (nor on the load generator sharing its cores).
   */
  cpuUsPerRequest: number | undefined;
}

function run(target: LoadTarget, seconds: number, skipAggregateResult: boolean) {
  return autocannon({
    url: target.url,
    connections: LOAD.connections,
    duration: seconds,
    headers: target.headers ?? {},
    ...(target.expectBody !== undefined ? { expectBody: target.expectBody } : {}),
    skipAggregateResult,
  });
}

/**
 * Measures several targets under the same load: a warm-up of each (discarded), then LOAD.rounds rounds in
 * which each target gets its share of LOAD.durationSeconds in turn. Interleaving spreads whatever else the
 * machine is doing evenly over the targets, so their ratio stays fair when the machine is not idle.
 */
export async function measureInterleaved(targets: LoadTarget[]): Promise<LoadResult[]> {
  if (LOAD.warmupSeconds > 0) for (const target of targets) await run(target, LOAD.warmupSeconds, false);
  const rounds: RawResult[][] = targets.map(() => []);
  const cpu: (number | undefined)[] = targets.map(() => 0);
  const share = LOAD.durationSeconds / LOAD.rounds;
  for (let round = 0; round < LOAD.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const before = target.cpuSeconds?.();
      rounds[i]?.push((await run(target, share, true)) as unknown as RawResult);
      const after = target.cpuSeconds?.();
      const used = before !== undefined && after !== undefined ? after - before : undefined;
      cpu[i] = used === undefined || cpu[i] === undefined ? undefined : (cpu[i] as number) + used;
    }
  }
  return targets.map((target, i) => summarise(target, rounds[i] ?? [], cpu[i]));
}

/** One round as autocannon returns it with skipAggregateResult (histograms still encoded). */
interface RawResult {
  totalCompletedRequests: number;
  duration: number;
  errors: number;
  timeouts: number;
  mismatches: number;
  non2xx: number;
  "2xx": number;
  statusCodeStats: Record<string, { count: number }>;
}

function summarise(target: LoadTarget, rounds: RawResult[], cpuSeconds: number | undefined): LoadResult {
  // aggregateResult merges the latency histograms of the rounds; request counts are summed here.
  const merged = autocannon.aggregateResult(rounds as never[], {
    url: target.url,
    connections: LOAD.connections,
  });
  const sum = (f: (r: RawResult) => number) => rounds.reduce((acc, r) => acc + f(r), 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, stat] of Object.entries(r.statusCodeStats))
      statusCodes[code] = (statusCodes[code] ?? 0) + stat.count;
  const total = sum((r) => r.totalCompletedRequests);
  return {
    rps: total / sum((r) => r.duration),
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    total,
    ok: sum((r) => r["2xx"]),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    mismatches: sum((r) => r.mismatches),
    statusCodes,
    cpuUsPerRequest: cpuSeconds === undefined || total === 0 ? undefined : (cpuSeconds * 1e6) / total,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Report

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  node: string;
  date: string;
  load: string;
}

/** The machine as it is now (call it when the run starts: the date and load average are of that moment). */
export function machine(): Machine {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(fs.readFileSync("/proc/cpuinfo", "utf8"));
    if (match?.[1]) cpu = match[1].trim();
  } catch {}
  return {
    cpu,
    cores: os.availableParallelism(),
    memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
    // Other work on the machine skews every figure; the load average at the start tells whether there was any.
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" "),
  };
}

function machineMarkdown(m: Machine): string {
  return [
    "| Machine | |",
    "| --- | --- |",
    `| CPU | ${m.cpu} |`,
    `| Cores | ${m.cores} |`,
    `| Memory | ${m.memory} |`,
    `| Node | ${m.node} |`,
    `| Date | ${m.date} |`,
    `| Load average at the start (1, 5, 15 min) | ${m.load} |`,
  ].join("\n");
}

const HEADER = [
  "# Benchmarks",
  "",
  "Generated by `npm run bench` (bench/run.ts); each run rewrites the sections it measured, between their",
  "`<!-- bench:NAME -->` markers, and the machine table below. Text outside the markers is kept.",
  "",
].join("\n");

/** Replaces (or appends) the section between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`. */
export function upsertSection(document: string, name: string, body: string): string {
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}`;
  const start = document.indexOf(open);
  const end = document.indexOf(close);
  if (start >= 0 && end > start) return document.slice(0, start) + block + document.slice(end + close.length);
  return `${document.trimEnd()}\n\n${block}\n`;
}

export function writeReport(file: string, m: Machine, sections: { name: string; markdown: string }[]): void {
  let document = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : HEADER;
  document = upsertSection(document, "machine", machineMarkdown(m));
  for (const section of sections) document = upsertSection(document, section.name, section.markdown);
  fs.writeFileSync(file, document.endsWith("\n") ? document : `${document}\n`);
}

export const fmt = {
  rps: (n: number) => Math.round(n).toLocaleString("en-US"),
  // autocannon records latencies in whole milliseconds
  ms: (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2)} ms`,
  ratio: (n: number) => n.toFixed(2),
  us: (n: number | undefined) => (n === undefined ? "—" : `${Math.round(n)} µs`),
};

/** Why PostgreSQL at `url` cannot serve a benchmark (it does not answer), or undefined when it answers. */
export async function postgresAnswers(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${url.replace(/\/\/[^@]*@/, "//")} does not answer: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Where a benchmark's store lives: an embedded data dir, or a schema of a PostgreSQL database. */
export type StoreLocation = { dataDir: string } | { databaseUrl: string; schema: string };

/**
 * Writes the risk store (bench/risk-store.ts) of `transfers` transfers at `where`, in a child process
 * (bench/generate-store.ts), this checkout's migrations first when `migrate`. Its progress goes to stderr.
 */
export async function generateStore(
  where: StoreLocation,
  o: { transfers: number; migrate: boolean },
): Promise<{ transfers: number; addresses: number; labels: number }> {
  const args =
    "dataDir" in where
      ? ["--data-dir", where.dataDir]
      : ["--database-url", where.databaseUrl, "--schema", where.schema];
  const child = spawn(
    process.execPath,
    [RUN_TS, path.join(ROOT, "bench", "generate-store.ts"), ...args, ...(o.migrate ? ["--migrate"] : [])],
    {
      cwd: ROOT,
      env: { ...process.env, BENCH_RISK_TRANSFERS: String(o.transfers), BENCH_RISK_USERS: "" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.add(child);
  let out = "";
  let err = "";
  child.stdout?.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    err += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  running.delete(child);
  if (code !== 0) throw new Error(`generating the store failed (exit ${code}):\n${err.slice(-2000)}`);
  return JSON.parse(out.trim().split("\n").at(-1) as string);
}
