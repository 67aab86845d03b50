// A quick-check load run any developer can make in minutes, on this checkout or on earlier commits: to see what a
// change did to GET /v1/risk/quick, and to find the commit that made it slower.
//
//   node bin/run-ts.js bench/quick-load.ts                      this working tree
//   node bin/run-ts.js bench/quick-load.ts b6e83f2 HEAD         each commit named, one after the other (`.` is
//                                                               the working tree: `b6e83f2 . b6e83f2 .` alternates)
//   node bin/run-ts.js bench/quick-load.ts --bisect GOOD BAD    the first commit between them whose check costs
//                                                               more CPU than halfway from GOOD's to BAD's
//
// Options: --database pglite|postgres (default pglite), --transfers N (the store's size, default 10,000),
// --rates 200,500 (open-loop rates, checks per second), --seconds N (per rate, default 10), --jurisdictions MX,CO
// (the project's, default none), --builtin-chains (the built-in chain list, Tron's included, with public explorers
// off, as a service started without VIGIA_CHAINS; default: a chains file naming chain 1 only), --cpu-prof DIR (the service writes a V8 CPU profile there: open it in Chrome's
// DevTools or speedscope).
//
// Each commit is checked out in a temporary git worktree and run with this checkout's node_modules (the same
// libraries for every commit; a commit that needs another version of one must be measured in its own clone). Its
// service (bench/server.ts of that commit: the whole HTTP stack, a child process) migrates a fresh store, which is
// then filled by this checkout's generator (bench/risk-store.ts: the same rows for every commit, chain 1, no
// explorer, no indexer), and checked: first one check at a time (300 checks), then open loop at each rate
// (bench/open-loop.ts: each request sent at its due time whatever the answers, timed from then). Every request
// checks another ordinary user of the store (an active unlabelled EOA). Reported per run: latencies, errors and
// non-2xx answers, and the service's CPU time per check (/proc), the figure that moves least with whatever else
// the machine is doing and the one the bisection compares.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../src/platform/db/open.ts";
import type { DB } from "../src/schema.ts";
import { closedLoop, openLoop } from "./open-loop.ts";
import { ordinaryUserSets } from "./ordinary-scans.ts";
import { type ChildServer, generateStore, ROOT, startChild } from "./support.ts";

interface Options {
  database: "pglite" | "postgres";
  transfers: number;
  rates: number[];
  seconds: number;
  jurisdictions: string[];
  builtinChains: boolean;
  cpuProf: string | undefined;
  revs: string[];
  bisect: [string, string] | undefined;
}

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const SEQUENTIAL_CHECKS = 300;
const WARMUP_CHECKS = 200;
const ADDRESSES = 1_500;
const SOCKETS = 50;
const CONCURRENCY = 16;
const IDLE_SECONDS = 3;

function parseOptions(argv: string[]): Options {
  const o: Options = {
    database: "pglite",
    transfers: 10_000,
    rates: [200, 500],
    seconds: 10,
    jurisdictions: [],
    builtinChains: false,
    cpuProf: undefined,
    revs: [],
    bisect: undefined,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) usage(`${arg} needs a value`);
      return v as string;
    };
    if (arg === "--database") {
      const v = value();
      if (v !== "pglite" && v !== "postgres") usage("--database is pglite or postgres");
      o.database = v as Options["database"];
    } else if (arg === "--transfers") o.transfers = Number(value());
    else if (arg === "--rates") o.rates = value().split(",").filter(Boolean).map(Number);
    else if (arg === "--seconds") o.seconds = Number(value());
    else if (arg === "--jurisdictions") o.jurisdictions = value().split(",").filter(Boolean);
    else if (arg === "--builtin-chains") o.builtinChains = true;
    else if (arg === "--cpu-prof") o.cpuProf = path.resolve(value());
    else if (arg === "--bisect") o.bisect = [value(), value()];
    else if (arg === "--help" || arg === "-h") usage();
    else if (arg.startsWith("--")) usage(`unknown option ${arg}`);
    else o.revs.push(arg);
  }
  if (!(o.transfers >= 1000) || !(o.seconds > 0) || o.rates.some((r) => !(r > 0)))
    usage("--transfers is at least 1000, --seconds and every rate above 0");
  return o;
}

function usage(problem?: string): never {
  const text = fs.readFileSync(new URL(import.meta.url), "utf8").split("\n");
  const header = text
    .slice(
      0,
      text.findIndex((l) => !l.startsWith("//")),
    )
    .map((l) => l.replace(/^\/\/ ?/, ""));
  if (problem) process.stderr.write(`quick-load: ${problem}\n\n`);
  process.stderr.write(`${header.join("\n")}\n`);
  process.exit(problem ? 2 : 0);
}

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/** A checkout of `rev` in a temporary worktree with this checkout's node_modules; undefined: the working tree. */
function checkout(rev: string | undefined): { root: string; label: string; remove(): void } {
  if (rev === undefined || rev === ".") return { root: ROOT, label: "working tree", remove: () => {} };
  const sha = git("rev-parse", "--verify", `${rev}^{commit}`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-${sha.slice(0, 7)}-`));
  git("worktree", "add", "--detach", "--force", root, sha);
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"), "dir");
  return {
    root,
    label: `${sha.slice(0, 7)} ${git("log", "-1", "--format=%s", sha).slice(0, 60)}`,
    remove: () => {
      git("worktree", "remove", "--force", root);
    },
  };
}

interface Run {
  label: string;
  /** one at a time */
  sequential: Figures;
  /** closed loop, CONCURRENCY checks in flight: the most the service answers per second */
  saturated: Figures & { achieved: number };
  /** open loop, by rate */
  paced: (Figures & { rate: number; achieved: number })[];
  /** the service's CPU time while idle (its timers and background work), ms per second */
  idleCpuMsPerSecond: number;
  /** checks answered in all (a CPU profile's time is over these) */
  answered: number;
}

interface Figures {
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** the service's CPU time per answered check, µs */
  cpuUs: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

function figures(latencies: number[], errors: number, non2xx: number, cpuSeconds: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    errors,
    non2xx,
    cpuUs: sorted.length ? (cpuSeconds * 1e6) / sorted.length : Number.NaN,
  };
}

type Server = ChildServer<{ url: string; key: string; projectId: number }>;

/** Measures one checkout: a fresh store, the service on it, the checks. */
async function measure(o: Options, rev: string | undefined): Promise<Run> {
  const tree = checkout(rev);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-quick-load-"));
  const schema = `quick_${crypto.randomBytes(5).toString("hex")}`;
  const chainsFile = path.join(work, "chains.json");
  fs.writeFileSync(
    chainsFile,
    JSON.stringify([
      {
        id: 1,
        name: "Ethereum (bench)",
        currency_symbol: "ETH",
        explorer_url: null,
        blockscout_url: null,
        rpc_url: null,
        explorer_api_url: null,
      },
    ]),
  );
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    PORT: "0",
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_CHAINS: o.builtinChains ? "" : chainsFile,
    VIGIA_PUBLIC_EXPLORERS: "false",
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    LOG_LEVEL: "",
    // The limiter runs on every request, with a limit the run never reaches.
    VIGIA_RATE_LIMIT_PER_MINUTE: "1000000000",
    VIGIA_DATA_DIR: path.join(work, "data"),
    DATABASE_URL: o.database === "postgres" ? POSTGRES_URL : "",
    BENCH_SCHEMA: o.database === "postgres" ? schema : "",
  };
  const start = (nodeArgs: string[] = []) =>
    startChild<{ url: string; key: string; projectId: number }>("bench/server.ts", {
      env,
      nodeArgs,
      label: "service",
      root: tree.root,
    });
  try {
    // The commit's own migrations make the schema; this checkout's generator fills it.
    await (await start()).stop();
    const where =
      o.database === "postgres"
        ? { databaseUrl: POSTGRES_URL, schema }
        : { dataDir: env.VIGIA_DATA_DIR as string };
    await generateStore(where, { transfers: o.transfers, migrate: false });
    const store = await openDatabase<DB>({ dataDir: "memory://", ...where });
    let addresses: string[];
    try {
      [addresses = []] = await ordinaryUserSets(store.db, 1, 11, 1, ADDRESSES);
    } finally {
      await store.close();
    }
    // One profile per thread (the main thread's is the largest; tsx's loader has a thread of its own).
    const server = await start(o.cpuProf ? ["--cpu-prof", `--cpu-prof-dir=${profileDir(tree, o)}`] : []);
    try {
      return { label: tree.label, ...(await checks(o, server, addresses)) };
    } finally {
      await server.stop();
    }
  } finally {
    tree.remove();
    fs.rmSync(work, { recursive: true, force: true });
    if (o.database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
  }
}

function profileDir(tree: { label: string }, o: Options): string {
  const rev = tree.label === "working tree" ? "working-tree" : tree.label.split(" ")[0];
  return path.join(o.cpuProf as string, `${rev}-${o.database}`);
}

async function checks(o: Options, server: Server, addresses: string[]): Promise<Omit<Run, "label">> {
  const { url, key, projectId } = server.info;
  const headers = { "x-api-key": `ApiKey ${key}` };
  if (o.jurisdictions.length) {
    const response = await fetch(`${url}/v1/projects/${projectId}`, {
      method: "PATCH",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ jurisdictions: o.jurisdictions }),
    });
    if (!response.ok)
      throw new Error(`PATCH jurisdictions: HTTP ${response.status} ${await response.text()}`);
  }
  const pathOf = (k: number) => `/v1/risk/quick?address=${addresses[k % addresses.length]}&chainId=1`;
  let next = 0;
  for (let i = 0; i < WARMUP_CHECKS; i++) {
    const response = await fetch(`${url}${pathOf(next++)}`, { headers });
    const body = await response.text();
    if (response.status !== 200)
      throw new Error(`quick check: HTTP ${response.status} ${body.slice(0, 300)}`);
  }
  const cpu = () => server.cpuSeconds() ?? Number.NaN;
  let before = cpu();
  const times: number[] = [];
  let non2xx = 0;
  for (let i = 0; i < SEQUENTIAL_CHECKS; i++) {
    const t = performance.now();
    const response = await fetch(`${url}${pathOf(next++)}`, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) non2xx++;
    times.push(performance.now() - t);
  }
  const sequential = figures(times, 0, non2xx, cpu() - before);
  before = cpu();
  const saturatedFrom = next;
  const saturatedRun = await closedLoop({
    base: url,
    headers,
    path: (k) => pathOf(saturatedFrom + k),
    concurrency: CONCURRENCY,
    seconds: o.seconds,
  });
  next += saturatedRun.latencies.length;
  const saturated = {
    achieved: saturatedRun.latencies.length / o.seconds,
    ...figures(saturatedRun.latencies, saturatedRun.errors, saturatedRun.non2xx, cpu() - before),
  };
  await new Promise((resolve) => setTimeout(resolve, 500));
  before = cpu();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleCpuMsPerSecond = ((cpu() - before) * 1000) / IDLE_SECONDS;
  const paced: Run["paced"] = [];
  for (const rate of o.rates) {
    const first = next;
    before = cpu();
    const run = await openLoop({
      base: url,
      path: (k) => pathOf(first + k),
      headers,
      rate,
      seconds: o.seconds,
      sockets: SOCKETS,
    });
    next += run.sent;
    paced.push({
      rate,
      achieved: run.rate,
      ...figures(run.latencies, run.errors, run.non2xx, cpu() - before),
    });
    // Let a service that fell behind drain before the next rate.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { sequential, saturated, paced, idleCpuMsPerSecond, answered: next };
}

const msText = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)} s` : `${n.toFixed(1)} ms`);

function print(run: Run): void {
  const s = run.sequential;
  console.log(`\n${run.label}`);
  console.log(
    `  one at a time: p50 ${msText(s.p50)}, p95 ${msText(s.p95)}, CPU ${Math.round(s.cpuUs)} µs/check, non-2xx ${s.non2xx}`,
  );
  const c = run.saturated;
  console.log(
    `  ${CONCURRENCY} in flight: ${Math.round(c.achieved)}/s answered, p50 ${msText(c.p50)}, p95 ${msText(c.p95)}, ` +
      `CPU ${Math.round(c.cpuUs)} µs/check, errors ${c.errors}, non-2xx ${c.non2xx}; idle CPU ${run.idleCpuMsPerSecond.toFixed(0)} ms/s`,
  );
  console.log(`  ${run.answered} checks answered in all`);
  for (const p of run.paced)
    console.log(
      `  ${p.rate}/s open loop: ${Math.round(p.achieved)}/s answered, p50 ${msText(p.p50)}, p95 ${msText(p.p95)}, ` +
        `p99 ${msText(p.p99)}, CPU ${Math.round(p.cpuUs)} µs/check, errors ${p.errors}, non-2xx ${p.non2xx}`,
    );
}

/** The commits of GOOD..BAD along the first parent, oldest first, BAD last. */
function firstParentCommits(good: string, bad: string): string[] {
  return git("rev-list", "--first-parent", "--reverse", `${good}..${bad}`).split("\n").filter(Boolean);
}

async function bisect(o: Options, good: string, bad: string): Promise<void> {
  const commits = firstParentCommits(good, bad);
  if (commits.length === 0) usage(`${good}..${bad} holds no commit`);
  // The CPU per check with CONCURRENCY in flight: the service's cost at its capacity, which other load on the
  // machine moves least (its timers' work is spread over thousands of checks).
  const cost = async (rev: string) => {
    const run = await measure({ ...o, rates: [] }, rev);
    print(run);
    return run.saturated.cpuUs;
  };
  const goodCost = await cost(good);
  const badCost = await cost(bad);
  const threshold = (goodCost + badCost) / 2;
  console.log(
    `\nbisecting ${commits.length} commits: good ${Math.round(goodCost)} µs/check, bad ${Math.round(badCost)} µs/check, ` +
      `a commit above ${Math.round(threshold)} µs/check is bad`,
  );
  if (badCost <= goodCost * 1.1) {
    console.log("BAD is not measurably slower than GOOD (within 10%): nothing to bisect");
    return;
  }
  let lo = -1; // index of the last commit known good (-1: GOOD itself)
  let hi = commits.length - 1; // index of the first commit known bad
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    const c = await cost(commits[mid] as string);
    if (c > threshold) hi = mid;
    else lo = mid;
    console.log(
      `  ${commits[mid]?.slice(0, 7)}: ${Math.round(c)} µs/check, ${c > threshold ? "bad" : "good"}`,
    );
  }
  console.log(
    `\nfirst bad commit: ${git("log", "-1", "--format=%h %s", commits[hi] as string).slice(0, 200)}`,
  );
}

const options = parseOptions(process.argv.slice(2));
if (options.database === "postgres") {
  const { postgresAnswers } = await import("./support.ts");
  const problem = await postgresAnswers(POSTGRES_URL);
  if (problem) {
    console.error(`${problem}; set BENCH_DATABASE_URL or use --database pglite`);
    process.exit(2);
  }
}
console.log(
  `quick-load: ${options.database}, ${options.transfers.toLocaleString("en-US")} transfers, load average ` +
    `${os.loadavg().map((l) => l.toFixed(1))}`,
);
if (options.bisect) await bisect(options, ...options.bisect);
else for (const rev of options.revs.length ? options.revs : [undefined]) print(await measure(options, rev));
