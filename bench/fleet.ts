// Benchmark `fleet`: how the background work scales with 1, 2 and 4 `vigia worker` processes (the real command)
// on one PostgreSQL: (1) risk jobs (`POST /risk`, an analysis of depth 3 each) over ordinary users of the risk
// store (bench/risk-store.ts: 5,000,000 transfers, BENCH_RISK_TRANSFERS to change), BENCH_FLEET_JOBS of them
// (default 600) queued at once, timed from the first queued to the last completed; (2) webhook delivery,
// BENCH_FLEET_MESSAGES notifications (default 10,000) of 8 projects queued at once to an integrator on 127.0.0.1 (a child process,
// answering 200 at once), timed to the last received. Beside each run, how busy the machine's cores were and how
// much CPU the workers and PostgreSQL used, which says what bounds it.
import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { updateProject } from "../src/projects/index.ts";
import type { DB } from "../src/schema.ts";
import { startService } from "../src/service.ts";
import { ADDRESS_CLASSES, benchAddress, generateRiskStore, TRANSFERS } from "./risk-store.ts";
import { type Benchmark, fmt, ROOT } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const JOBS = Number(process.env.BENCH_FLEET_JOBS || 600);
const MESSAGES = Number(process.env.BENCH_FLEET_MESSAGES || 10_000);
const FLEETS = [1, 2, 4];
/** Projects the webhooks are spread over, each with its own integrator URL. */
const WEBHOOK_PROJECTS = 8;
const SECRET = crypto.randomBytes(32).toString("base64");

interface Run {
  workers: number;
  jobs: { seconds: number; perSecond: number; busy: number; workerCpu: number; postgresCpu: number };
  webhooks: { seconds: number; perSecond: number; busy: number; workerCpu: number; postgresCpu: number };
}

// ---------------------------------------------------------------------------------------------------------
// CPU accounting from /proc: the whole machine, the workers, and PostgreSQL's processes.

const TICK = 100; // USER_HZ on Linux

function machineTicks(): { busy: number; total: number } {
  const cpu = (fs.readFileSync("/proc/stat", "utf8").split("\n")[0] as string)
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function processSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}

/** CPU seconds of every PostgreSQL process now, by pid. */
function postgresSeconds(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim().startsWith("postgres"))
        byPid.set(Number(entry), processSeconds(Number(entry)));
    } catch {}
  }
  return byPid;
}

/** What PostgreSQL's processes used between two readings (a backend that ended in between is not counted). */
function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Measures `work`: its wall time, the machine's busy share, and the CPU seconds of the workers and PostgreSQL. */
async function measured(pids: () => number[], work: () => Promise<void>) {
  const m0 = machineTicks();
  const w0 = pids().reduce((a, p) => a + processSeconds(p), 0);
  const p0 = postgresSeconds();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const m1 = machineTicks();
  return {
    seconds,
    busy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total),
    workerCpu: pids().reduce((a, p) => a + processSeconds(p), 0) - w0,
    postgresCpu: postgresDelta(p0, postgresSeconds()),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Processes

/** Starts a child; resolves with it and the first stdout line matching `ready` (its match). */
function spawnLogged(
  args: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      const match = ready.exec(line);
      if (match) resolve({ child, match });
    });
    child.once("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited with ${code} before it was ready`)),
    );
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ---------------------------------------------------------------------------------------------------------

async function run(): Promise<{ markdown: string; passed: boolean }> {
  const schema = `bench_fleet_${crypto.randomBytes(4).toString("hex")}`;
  const url = new URL(POSTGRES_URL);
  url.searchParams.set("options", `-c search_path=${schema}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-fleet-"));
  const chainsFile = path.join(dir, "chains.json");
  fs.writeFileSync(chainsFile, JSON.stringify([{ id: 1, name: "Ethereum (bench)", currency_symbol: "ETH" }]));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: url.toString(),
    VIGIA_JOBS_SCHEMA: schema,
    VIGIA_SECRET: SECRET,
    VIGIA_CHAINS: chainsFile,
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
    VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: "100000",
    VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: "1000000",
  };
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const { child: integrator, match: listening } = await spawnLogged(
    [path.join(ROOT, "bin", "run-ts.js"), path.join(ROOT, "bench", "fleet-integrator.ts")],
    { PATH: process.env.PATH },
    /^listening (\S+)$/,
  );
  const integratorUrl = listening[1] as string;
  const runs: Run[] = [];
  try {
    // The control process: migrations, the store, the project; it queues the work and watches it.
    const config = loadConfig({ ...env, VIGIA_LOG_LEVEL: "silent", PORT: "0" });
    const control = await startService(config, { http: true, workers: false });
    try {
      console.log(`generating the risk store (${fmt.rps(TRANSFERS)} transfers)`);
      const database = await openDatabase({ databaseUrl: url.toString(), dataDir: "memory://" });
      const generated = await generateRiskStore(database as never, (line) => console.log(`  ${line}`));
      await database.close();
      console.log(`  ${fmt.rps(generated.transfers)} transfers`);
      const { projectId, key } = await createProject(control.keys, { name: "fleet bench" }, { kind: "cli" });
      // The webhooks go to the integrators of several projects, as a fleet serves many: one project's deliveries
      // are limited across the fleet (VIGIA_DELIVERIES_PER_PROJECT), so one project alone does not measure the fleet.
      const webhookProjects = [projectId];
      for (let i = 1; i < WEBHOOK_PROJECTS; i++)
        webhookProjects.push(
          (await createProject(control.keys, { name: `fleet bench ${i}` }, { kind: "cli" })).projectId,
        );
      for (const id of webhookProjects)
        await updateProject(control.projects, id, { integration_url: integratorUrl }, { kind: "cli" });
      let seed = 7;
      const random = () => {
        seed = (seed * 16807) % 2147483647;
        return seed / 2147483647;
      };
      const db = control.database.db;

      for (const workers of FLEETS) {
        // (1) Risk jobs over ordinary users, queued before any worker runs; timed from the first worker's start.
        const roots = Array.from({ length: JOBS }, () => benchAddress(ADDRESS_CLASSES.tail(random)));
        const ids: string[] = [];
        for (const address of roots) {
          const res = await control.app!.inject({
            method: "POST",
            url: "/v1/risk",
            headers: { "x-api-key": `ApiKey ${key}` },
            payload: { address, chainId: 1 },
          });
          if (res.statusCode !== 202) throw new Error(`POST /risk answered ${res.statusCode}: ${res.body}`);
          ids.push(res.json().data.jobId);
        }
        const children: ChildProcess[] = [];
        try {
          // The workers start first (their start-up is not what is measured); the jobs some of them finished before
          // the last was up are left out of the rate.
          const finished = async () => {
            const { rows } = await sql<{ n: number }>`
              SELECT count(*)::int AS n FROM analyses
              WHERE id = ANY(${ids}::uuid[]) AND status IN ('completed', 'failed')`.execute(db);
            return rows[0]?.n ?? 0;
          };
          const started = await Promise.all(
            Array.from({ length: workers }, () =>
              spawnLogged([path.join(ROOT, "bin", "vigia.js"), "worker"], env, /worker running/),
            ),
          );
          children.push(...started.map((s) => s.child));
          let before = 0;
          const jobs = await measured(
            () => children.map((c) => c.pid as number),
            async () => {
              before = await finished();
              await until("the risk jobs", async () => (await finished()) === ids.length, 900_000);
            },
          );
          // (2) Webhooks, queued in one statement while the workers run.
          const webhooks = await measured(
            () => children.map((c) => c.pid as number),
            async () => {
              await sql`
                INSERT INTO notifications (message_id, project_id, type, body, next_attempt_at, created_at)
                SELECT 'msg_' || gen_random_uuid(), (${webhookProjects}::int[])[1 + g % ${WEBHOOK_PROJECTS}],
                  'notification', jsonb_build_object('n', g), now(), now()
                FROM generate_series(1, ${MESSAGES}) g`.execute(db);
              await until(
                "the webhooks",
                async () => (await pendingCount(db, webhookProjects)) === 0,
                900_000,
              );
            },
          );
          const result: Run = {
            workers,
            jobs: { ...jobs, perSecond: (JOBS - before) / jobs.seconds },
            webhooks: { ...webhooks, perSecond: MESSAGES / webhooks.seconds },
          };
          runs.push(result);
          console.log(
            `${workers} worker(s): ${fmt.ratio(result.jobs.perSecond)} risk jobs/s (${result.jobs.seconds.toFixed(1)} s, cores ${Math.round(result.jobs.busy * 100)}% busy), ${fmt.rps(result.webhooks.perSecond)} webhooks/s (${result.webhooks.seconds.toFixed(1)} s, cores ${Math.round(result.webhooks.busy * 100)}% busy)`,
          );
        } finally {
          await Promise.all(children.map(stop));
        }
      }
    } finally {
      await control.close();
    }
  } finally {
    await stop(integrator);
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
    await admin.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { markdown: markdown(runs), passed: runs.length === FLEETS.length };
}

/** Notifications of the projects not yet delivered (or failed). */
async function pendingCount(db: Kysely<DB>, projectIds: number[]): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM notifications
    WHERE project_id = ANY(${projectIds}::int[]) AND status IN ('pending', 'delivering')`.execute(db);
  return rows[0]?.n ?? 0;
}

function markdown(runs: Run[]): string {
  const base = runs[0];
  const cpu = (x: { workerCpu: number; postgresCpu: number; busy: number; seconds: number }) =>
    `${Math.round(x.busy * 100)}% | ${x.workerCpu.toFixed(0)} s | ${x.postgresCpu.toFixed(0)} s`;
  const lines = [
    "## fleet: background work with 1, 2 and 4 workers on one PostgreSQL",
    "",
    `\`vigia worker\` processes (the real command) on one PostgreSQL holding the risk store of bench/risk-store.ts at`,
    `${fmt.rps(TRANSFERS)} transfers. Risk jobs: ${JOBS} \`POST /risk\` (a depth-3 analysis each) over ordinary users`,
    "drawn at random (seeded), queued before the workers start; the rate counts the jobs completed from the moment",
    `every worker is up to the last. Webhooks: ${fmt.rps(MESSAGES)} notifications of ${WEBHOOK_PROJECTS} projects queued in one statement while the`,
    "workers run, delivered to an integrator on 127.0.0.1 (its own process, answering 200 at once), timed to the last",
    "recorded delivered. *Cores busy*: the machine's share of CPU time in use over the run (2 cores: 100% is both);",
    "*workers* and *PostgreSQL*: the CPU seconds their processes used.",
    "",
    "| Workers | Risk jobs/s | × one worker | Cores busy | Workers' CPU | PostgreSQL's CPU | Webhooks/s | × one worker | Cores busy | Workers' CPU | PostgreSQL's CPU |",
    "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const r of runs) {
    lines.push(
      `| ${r.workers} | ${r.jobs.perSecond.toFixed(2)} | ${fmt.ratio(r.jobs.perSecond / (base?.jobs.perSecond ?? 1))} | ${cpu(r.jobs)} | ${fmt.rps(r.webhooks.perSecond)} | ${fmt.ratio(r.webhooks.perSecond / (base?.webhooks.perSecond ?? 1))} | ${cpu(r.webhooks)} |`,
    );
  }
  return lines.join("\n");
}

export const fleetBenchmark: Benchmark = {
  name: "fleet",
  title: "background work with 1, 2 and 4 workers on one PostgreSQL",
  run,
};
