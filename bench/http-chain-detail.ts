// Benchmark `http-chain-detail`: GET /v1/chains/{id} with a valid API key on the real service (every hook on:
// request ids, rate limiting, authentication, validation, serialization, logging at warn), once on PGlite and
// once on PostgreSQL, against a bare fastify route serving the very same JSON body. Targets: at least
// 10,000 req/s and at least half of the bare route's rate, on each database.
//
// The chains file has one chain with no explorer, Blockscout or RPC URL, so no request leaves 127.0.0.1.
// BENCH_DATABASES=pglite,postgres picks the databases; BENCH_CPU_PROF=DIR profiles the service child
// (`node --cpu-prof`), writing a .cpuprofile per database into DIR.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  type Benchmark,
  type ChildServer,
  fmt,
  LOAD,
  type LoadResult,
  measureInterleaved,
  postgresAnswers,
  startChild,
  wantedDatabases,
} from "./support.ts";

const CHAIN_ID = 31337;
const ROUTE = "/v1/chains/:chainId";
const TARGET_RPS = 10_000;
const TARGET_RATIO = 0.5;
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

type DatabaseName = "pglite" | "postgres";
const LABEL: Record<DatabaseName, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

interface Outcome {
  database: DatabaseName;
  service?: LoadResult;
  bare?: LoadResult;
  skipped?: string;
}

/** The environment of the service child on one database; `cleanup` removes what the run created. */
async function serviceEnvironment(database: DatabaseName, workDir: string) {
  const chainsFile = path.join(workDir, "chains.json");
  fs.writeFileSync(
    chainsFile,
    JSON.stringify([{ id: CHAIN_ID, name: "Vigía devnet", currency_symbol: "ETH" }], null, 2),
  );
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    PORT: "0",
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_CHAINS: chainsFile,
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    LOG_LEVEL: "",
    // The limiter still runs on every request; it just never says no.
    VIGIA_RATE_LIMIT_PER_MINUTE: "1000000000",
    VIGIA_DATA_DIR: path.join(workDir, "data"),
    DATABASE_URL: "",
    BENCH_SCHEMA: "",
  };
  if (database === "pglite") return { env, cleanup: async () => {} };

  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  env.DATABASE_URL = POSTGRES_URL;
  env.BENCH_SCHEMA = schema;
  const dropSchema = async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await client.end();
    }
  };
  return { env, cleanup: dropSchema };
}

async function getOnce(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text() };
}

function describe(what: string, r: LoadResult): string {
  const problems = r.non2xx + r.errors + r.timeouts + r.mismatches;
  const extra = problems
    ? `  non-2xx ${r.non2xx} ${JSON.stringify(r.statusCodes)}, errors ${r.errors}, timeouts ${r.timeouts}, body mismatches ${r.mismatches}`
    : "";
  return `  ${what.padEnd(8)} ${fmt.rps(r.rps).padStart(7)} req/s  p50 ${fmt.ms(r.p50)}  p99 ${fmt.ms(r.p99)}  CPU ${fmt.us(r.cpuUsPerRequest)}/request  (${r.total} requests)${extra}`;
}

async function runOn(database: DatabaseName): Promise<Outcome> {
  if (database === "postgres") {
    const down = await postgresAnswers(POSTGRES_URL);
    if (down) return { database, skipped: down };
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-bench-${database}-`));
  const { env, cleanup } = await serviceEnvironment(database, workDir);
  const profileDir = process.env.BENCH_CPU_PROF;
  const children: ChildServer<unknown>[] = [];
  try {
    const service = await startChild<{ url: string; key: string }>("bench/server.ts", {
      env,
      label: `service/${database}`,
      nodeArgs: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir, database)}`] : [],
    });
    children.push(service);
    const url = `${service.info.url}/v1/chains/${CHAIN_ID}`;
    const headers = { "x-api-key": `ApiKey ${service.info.key}` };
    const first = await getOnce(url, headers);
    if (first.status !== 200) throw new Error(`GET ${url} answered ${first.status}: ${first.body}`);
    const body = first.body;
    console.log(`${LABEL[database]}: GET ${url} -> ${body}`);

    const bare = await startChild<{ url: string }>("bench/bare-server.ts", {
      env: { BENCH_BODY: body, BENCH_PATH: ROUTE },
      label: "bare",
    });
    children.push(bare);
    const bareUrl = `${bare.info.url}/v1/chains/${CHAIN_ID}`;
    const check = await getOnce(bareUrl);
    if (check.status !== 200 || check.body !== body)
      throw new Error("the bare route does not serve the same body");

    const [serviceResult, bareResult] = (await measureInterleaved([
      { url, headers, expectBody: body, cpuSeconds: service.cpuSeconds },
      { url: bareUrl, expectBody: body, cpuSeconds: bare.cpuSeconds },
    ])) as [LoadResult, LoadResult];
    console.log(describe("service", serviceResult));
    console.log(describe("bare", bareResult));
    console.log(`  ratio    ${fmt.ratio(serviceResult.rps / bareResult.rps)} (service/bare)`);
    return { database, service: serviceResult, bare: bareResult };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await cleanup().catch((error) => console.error(`cleanup on ${database}: ${(error as Error).message}`));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function verdict(o: Outcome): { passed: boolean; text: string } {
  if (!o.service || !o.bare) return { passed: false, text: `skipped: ${o.skipped}` };
  const ratio = o.service.rps / o.bare.rps;
  const failures: string[] = [];
  if (o.service.rps < TARGET_RPS) failures.push(`below ${fmt.rps(TARGET_RPS)} req/s`);
  if (ratio < TARGET_RATIO) failures.push(`below ${TARGET_RATIO} of bare`);
  for (const [what, r] of [
    ["service", o.service],
    ["bare", o.bare],
  ] as const) {
    if (r.non2xx || r.errors || r.timeouts || r.mismatches)
      failures.push(
        `${what}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, ${r.mismatches} body mismatches`,
      );
  }
  return failures.length
    ? { passed: false, text: `no: ${failures.join("; ")}` }
    : { passed: true, text: "yes" };
}

function markdown(outcomes: Outcome[]): string {
  const lines = [
    "## http-chain-detail: GET /v1/chains/{id}",
    "",
    `The real service (child process, every hook on, log level warn, rate limiter on with a limit it never reaches)`,
    `against a bare fastify route serving the same JSON body. autocannon from the runner process:`,
    `${LOAD.connections} connections, one request at a time each; ${LOAD.warmupSeconds} s warm-up, then ${LOAD.durationSeconds} s measured per server in`,
    `${LOAD.rounds} interleaved rounds (service, bare, service, ...), so that other load on the machine weighs on both alike.`,
    `Targets: at least ${fmt.rps(TARGET_RPS)} req/s and at least ${TARGET_RATIO} of the bare route's rate, on each database.`,
    "CPU/request is the server process's CPU time (user + system, from /proc) over the requests it served: it",
    "depends far less than req/s on whatever else the machine was doing (see the load average above).",
    "",
    "| Database | Server | req/s | p50 | p99 | CPU/request | non-2xx | errors | service/bare req/s | Meets targets |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const o of outcomes) {
    const v = verdict(o);
    if (!o.service || !o.bare) {
      lines.push(`| ${LABEL[o.database]} | — | — | — | — | — | — | — | — | ${v.text} |`);
      continue;
    }
    const ratio = fmt.ratio(o.service.rps / o.bare.rps);
    const row = (server: string, r: LoadResult, ratioCell: string, verdictCell: string) =>
      `| ${LABEL[o.database]} | ${server} | ${fmt.rps(r.rps)} | ${fmt.ms(r.p50)} | ${fmt.ms(r.p99)} | ${fmt.us(r.cpuUsPerRequest)} | ${r.non2xx} | ${r.errors + r.timeouts} | ${ratioCell} | ${verdictCell} |`;
    lines.push(row("service", o.service, ratio, v.text), row("bare fastify", o.bare, "", ""));
  }
  return lines.join("\n");
}

export const httpChainDetail: Benchmark = {
  name: "http-chain-detail",
  title: "GET /v1/chains/{id}",
  async run() {
    const outcomes: Outcome[] = [];
    for (const database of wantedDatabases()) {
      const outcome = await runOn(database);
      if (outcome.skipped) console.log(`${LABEL[database]}: skipped (${outcome.skipped})`);
      console.log(`  meets targets: ${verdict(outcome).text}`);
      outcomes.push(outcome);
    }
    return { markdown: markdown(outcomes), passed: outcomes.every((o) => verdict(o).passed) };
  },
};
