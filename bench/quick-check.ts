// Benchmark `quick-check`: GET /v1/risk/quick as integrators call it, through the real service (bench/server.ts, a
// child process: every hook, the rate limiter, the answer's serialisation and address presentation, the coverage),
// on a realistic store (bench/risk-store.ts, BENCH_QUICK_TRANSFERS transfers, default 211,000, generated in the
// database), on PGlite and on PostgreSQL, for a project that enables Mexico's and Colombia's jurisdictions (their
// thresholds converted at the store's daily exchange rates). Each check asks about another ordinary user of the store
// (an active unlabelled EOA; the same list on both databases), so no answer comes from a cache.
//
// Explorers off: the built-in chain list (Tron's included, as a service started without VIGIA_CHAINS), public
// explorers off, the store as it is.
//   - throughput: 16 checks in flight (closed loop, keep-alive) for BENCH_QUICK_SECONDS (default 15);
//   - latency at 200/s and 500/s, open loop (bench/open-loop.ts: each request sent when due and timed from then),
//     over up to 50 keep-alive connections, and again with a new connection for every request;
//   - overload: twice the throughput, open loop over up to 400 connections for 10 s: how many are refused (503 with
//     Retry-After, docs/decisions/0035) and how fast the answered ones stay.
// Explorers on: chain 1 names a local Blockscout (test/explorer/replay-server.ts in a worker thread) that serves each
// checked address's history as the store holds it, so every check fetches it first (two lists, a page each for most
// users), stores it and records the fetch, as a quick check of an address the service has not seen does.
//   - latency at 200/s and 500/s, open loop, keep-alive.
//
// Targets, on each database: with explorers off, p95 ≤ 50 ms at 500/s with no error and no refusal; under overload,
// the answered checks' p95 ≤ 350 ms (at most the 100 ms wait for a place, the check, and what the load generator
// on the same two cores adds) and no connection error. And no slowdown against the figures recorded in
// docs/benchmarks.md (bench/quick-baseline.ts): the service's CPU time per check in every open-loop run, the p95 of
// the keep-alive runs (each run BENCH_QUICK_REPEATS times, default 3, and the run of median p95 kept) and the
// throughput; a CPU time or p95 25 % higher (a p95 also 2 ms longer) or a throughput 25 % lower fails, with the
// figures. CPU time is the steadiest figure on a shared machine and the one that moved when the check regressed;
// the p95 of new-connection and explorer runs moved 2-3x between identical runs here and is shown, not gated. BENCH_DATABASES picks the databases, BENCH_DATABASE_URL the
// PostgreSQL server. Everything is sent to 127.0.0.1; the store is removed at the end.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { openDatabase } from "../src/platform/db/open.ts";
import type { DB } from "../src/schema.ts";
import type { History, HistoryTokenTransfer, HistoryTx } from "../test/explorer/history-data.ts";
import { ReplayExplorer } from "../test/explorer/replay-explorer.ts";
import { closedLoop, type LoadResult, openLoop } from "./open-loop.ts";
import { ordinaryUserSets } from "./ordinary-scans.ts";
import {
  type Baseline,
  baselineComment,
  type Comparison,
  compare,
  type Figure,
  readBaseline,
} from "./quick-baseline.ts";
import {
  type Benchmark,
  type ChildServer,
  generateStore,
  postgresAnswers,
  ROOT,
  type StoreLocation,
  startChild,
  wantedDatabases,
} from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const TRANSFERS = Number(process.env.BENCH_QUICK_TRANSFERS || 211_000);
const SECONDS = Number(process.env.BENCH_QUICK_SECONDS || 15);
const REPEATS = Number(process.env.BENCH_QUICK_REPEATS || 3);
const SECTION = TRANSFERS === 211_000 ? "quick-check" : `quick-check-${TRANSFERS}`;
const REPORT = path.join(ROOT, "docs", "benchmarks.md");
const RATES = [200, 500] as const;
const CONCURRENCY = 16;
const SOCKETS = 50;
const OVERLOAD = { factor: 2, seconds: 10, sockets: 400 };
const JURISDICTIONS = ["MX", "CO"];
const ADDRESSES = 20_000;
const TARGET = { p95Ms: 50, rate: 500, overloadP95Ms: 350 };
const TRON_MAINNET = 728126428;

type DatabaseName = "pglite" | "postgres";
const LABEL: Record<DatabaseName, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

interface Run {
  name: string;
  /** the rate asked (open loop) or undefined (closed loop) */
  rate: number | undefined;
  result: LoadResult;
  p50: number;
  p95: number;
  p99: number;
  /** the service's CPU time per answered check, µs */
  cpuUs: number | undefined;
}

interface Outcome {
  database: DatabaseName;
  skipped?: string;
  runs: Run[];
  /** what each database's figures are compared on */
  figures: Record<string, Figure>;
  failures: string[];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

const ms = (n: number) =>
  Number.isNaN(n) ? "—" : n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n).toLocaleString("en-US")} ms`;
const int = (n: number) => Math.round(n).toLocaleString("en-US");

type Service = ChildServer<{ url: string; key: string; projectId: number }>;

/** The run of median p95 among repeats of one. */
function medianRun(runs: Run[]): Run {
  const sorted = [...runs].sort((a, b) => a.p95 - b.p95);
  const run = sorted[Math.floor((sorted.length - 1) / 2)] as Run;
  return runs.length > 1 ? { ...run, name: `${run.name} (median of ${runs.length})` } : run;
}

/** Runs `load` against the service, with the service's CPU time over it. */
async function measured(
  service: Service,
  name: string,
  rate: number | undefined,
  load: () => Promise<LoadResult>,
): Promise<Run> {
  const before = service.cpuSeconds();
  const result = await load();
  const after = service.cpuSeconds();
  const answered = result.latencies.length;
  const ok = result.okLatencies;
  const run: Run = {
    name,
    rate,
    result,
    p50: percentile(ok, 50),
    p95: percentile(ok, 95),
    p99: percentile(ok, 99),
    cpuUs:
      before !== undefined && after !== undefined && answered
        ? ((after - before) * 1e6) / answered
        : undefined,
  };
  console.log(
    `  ${name}: ${int(result.rate)}/s answered, p50 ${ms(run.p50)}, p95 ${ms(run.p95)}, p99 ${ms(run.p99)}, ` +
      `non-2xx ${result.non2xx}, errors ${result.errors}${run.cpuUs ? `, CPU ${int(run.cpuUs)} µs/check` : ""}`,
  );
  // Let what the service still holds drain before the next run.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return run;
}

async function patchProject(service: Service): Promise<void> {
  const { url, key, projectId } = service.info;
  const response = await fetch(`${url}/v1/projects/${projectId}`, {
    method: "PATCH",
    headers: { "x-api-key": `ApiKey ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ jurisdictions: JURISDICTIONS }),
  });
  if (!response.ok)
    throw new Error(`PATCH the project's jurisdictions: HTTP ${response.status} ${await response.text()}`);
}

/** The transfers of each address, as an explorer lists them (newest first): native ones as transactions. */
export async function historiesOf(db: Kysely<DB>, addresses: string[]): Promise<History[]> {
  const { rows } = await sql<{
    tx_hash: string;
    log_index: number;
    block_number: string;
    at: string;
    from_address: string;
    to_address: string;
    token: string;
    value: string;
    symbol: string | null;
    name: string | null;
    decimals: number | null;
  }>`
    SELECT t.tx_hash, t.log_index, t.block_number::text AS block_number,
      extract(epoch FROM t.block_time)::bigint::text AS at, t.from_address, t.to_address, t.token,
      t.value::text AS value, tk.symbol, tk.name, tk.decimals
    FROM transfers t LEFT JOIN tokens tk ON tk.chain_id = t.chain_id AND tk.address = t.token
    WHERE t.chain_id = 1 AND (t.from_address = ANY(${addresses}::text[]) OR t.to_address = ANY(${addresses}::text[]))`.execute(
    db,
  );
  const byAddress = new Map(
    addresses.map((a) => [
      a,
      { address: a, txs: [] as HistoryTx[], transfers: [] as HistoryTokenTransfer[] },
    ]),
  );
  for (const r of rows) {
    for (const side of new Set([r.from_address, r.to_address])) {
      const history = byAddress.get(side);
      if (!history) continue;
      const block = Number(r.block_number);
      const time = Number(r.at);
      if (r.token === "native") {
        history.txs.push({
          hash: r.tx_hash,
          block,
          time,
          position: 0,
          nonce: 0,
          from: r.from_address,
          to: r.to_address,
          created: null,
          value: BigInt(r.value),
          status: "ok",
          toIsContract: false,
          input: "0x",
        });
      } else {
        history.transfers.push({
          txHash: r.tx_hash,
          block,
          time,
          logIndex: r.log_index,
          from: r.from_address,
          to: r.to_address,
          token: { address: r.token, symbol: r.symbol, name: r.name, decimals: r.decimals, type: "ERC-20" },
          value: BigInt(r.value),
        });
      }
    }
  }
  for (const h of byAddress.values()) {
    h.txs.sort((a, b) => (b.block ?? 0) - (a.block ?? 0) || b.hash.localeCompare(a.hash));
    h.transfers.sort((a, b) => b.block - a.block || b.logIndex - a.logIndex);
  }
  return [...byAddress.values()];
}

async function runOn(database: DatabaseName): Promise<Outcome> {
  const outcome: Outcome = { database, runs: [], figures: {}, failures: [] };
  if (database === "postgres") {
    const problem = await postgresAnswers(POSTGRES_URL);
    if (problem) return { ...outcome, skipped: problem };
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-quick-check-"));
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  const where: StoreLocation =
    database === "postgres" ? { databaseUrl: POSTGRES_URL, schema } : { dataDir: path.join(work, "data") };
  let explorer: ReplayExplorer | undefined;
  try {
    const started = performance.now();
    const generated = await generateStore(where, { transfers: TRANSFERS, migrate: true });
    console.log(
      `  store: ${int(generated.transfers)} transfers, ${int(generated.addresses)} addresses in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    const store = await openDatabase<DB>({ dataDir: "memory://", ...where });
    let addresses: string[];
    let histories: History[];
    // Explorers on: the warm-up's and each rate's checks ask about addresses not checked before.
    const explorerChecks = 1_000 + RATES.reduce((n, rate) => n + rate * SECONDS, 0);
    try {
      // A store smaller than the benchmark's (BENCH_QUICK_TRANSFERS) has fewer users: half its addresses then.
      const wanted = Math.min(ADDRESSES, Math.floor(generated.addresses / 2));
      [addresses = []] = await ordinaryUserSets(store.db, 1, 11, 1, wanted);
      if (addresses.length < explorerChecks)
        console.log(
          `  ${int(addresses.length)} users for ${int(explorerChecks)} checks with explorers on: some are asked again`,
        );
      histories = await historiesOf(store.db, addresses.slice(0, explorerChecks));
    } finally {
      await store.close();
    }
    const pathFor = (list: string[], offset: number) => (k: number) =>
      `/v1/risk/quick?address=${list[(offset + k) % list.length]}&chainId=1`;
    const base: Record<string, string> = {
      HOST: "127.0.0.1",
      PORT: "0",
      VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
      VIGIA_LOG_LEVEL: "warn",
      // The lists' scheduled refresh (an internet download) is no part of what is measured.
      VIGIA_LIST_REFRESH_HOURS: "0",
      LOG_LEVEL: "",
      // The limiter runs on every request, with a limit the run never reaches.
      VIGIA_RATE_LIMIT_PER_MINUTE: "1000000000",
      VIGIA_PUBLIC_EXPLORERS: "false",
      DATABASE_URL: database === "postgres" ? POSTGRES_URL : "",
      BENCH_SCHEMA: database === "postgres" ? schema : "",
      VIGIA_DATA_DIR: "dataDir" in where ? where.dataDir : path.join(work, "data"),
    };

    // Explorers off.
    let service = await startChild<{ url: string; key: string; projectId: number }>("bench/server.ts", {
      env: { ...base, VIGIA_CHAINS: "" },
      label: "service",
    });
    let next = 0;
    try {
      await patchProject(service);
      const { url, key } = service.info;
      const headers = { "x-api-key": `ApiKey ${key}` };
      const closed = (seconds: number) => {
        const from = next;
        next += 100_000;
        return () =>
          closedLoop({
            base: url,
            headers,
            path: pathFor(addresses, from),
            concurrency: CONCURRENCY,
            seconds,
          });
      };
      const open = (rate: number, keepAlive: boolean, sockets = SOCKETS, seconds = SECONDS) => {
        const from = next;
        next += Math.ceil(rate * seconds);
        return () =>
          openLoop({
            base: url,
            headers,
            path: pathFor(addresses, from),
            rate,
            seconds,
            sockets,
            keepAlive,
            timeoutMs: 20_000,
          });
      };
      await measured(service, "warm-up", undefined, closed(5));
      const capacity = await measured(service, "throughput, 16 in flight", undefined, closed(SECONDS));
      outcome.runs.push(capacity);
      outcome.figures.throughput = { kind: "rate", value: capacity.result.rate };
      for (const rate of RATES) {
        for (const keepAlive of [true, false]) {
          const name = `${rate}/s, ${keepAlive ? "keep-alive" : "new connections"}`;
          // Keep-alive runs are repeated and the one of median p95 kept: a single run's p95 moved by 3x from one
          // run to the next here (a stall of the shared machine in 15 s is enough).
          const repeats: Run[] = [];
          for (let i = 0; i < (keepAlive ? REPEATS : 1); i++)
            repeats.push(await measured(service, name, rate, open(rate, keepAlive)));
          const run = medianRun(repeats);
          outcome.runs.push(run);
          outcome.figures[`${name}, CPU`] = { kind: "cpu", value: run.cpuUs ?? Number.NaN };
          if (keepAlive) outcome.figures[name] = { kind: "p95", value: run.p95 };
          if (run.result.errors) outcome.failures.push(`${name}: ${run.result.errors} errors`);
          if (rate === TARGET.rate && keepAlive) {
            if (!(run.p95 <= TARGET.p95Ms))
              outcome.failures.push(`${name}: p95 ${ms(run.p95)} > ${TARGET.p95Ms} ms`);
            if (run.result.non2xx)
              outcome.failures.push(`${name}: ${run.result.non2xx} answers were not 2xx`);
          }
        }
      }
      const overloadRate = Math.round(capacity.result.rate * OVERLOAD.factor);
      const overload = await measured(
        service,
        `overload, ${int(overloadRate)}/s`,
        overloadRate,
        open(overloadRate, true, OVERLOAD.sockets, OVERLOAD.seconds),
      );
      outcome.runs.push(overload);
      if (overload.result.errors)
        outcome.failures.push(`overload: ${overload.result.errors} connection errors`);
      if (!(overload.p95 <= TARGET.overloadP95Ms))
        outcome.failures.push(
          `overload: the answered checks' p95 ${ms(overload.p95)} > ${TARGET.overloadP95Ms} ms`,
        );
    } finally {
      await service.stop();
    }

    // Explorers on: a local Blockscout serving each address's history.
    explorer = await ReplayExplorer.start(...histories);
    const chains = path.join(work, "chains.json");
    fs.writeFileSync(
      chains,
      JSON.stringify([
        {
          id: 1,
          name: "Ethereum (bench, local explorer)",
          currency_symbol: "ETH",
          rpc_url: null,
          explorer_api_url: explorer.url,
          explorer_rate_limit_per_second: 1_000,
        },
        {
          id: TRON_MAINNET,
          name: "Tron",
          kind: "tron",
          currency_symbol: "TRX",
          currency_decimals: 6,
          explorer_api_url: null,
        },
      ]),
    );
    service = await startChild<{ url: string; key: string; projectId: number }>("bench/server.ts", {
      env: { ...base, VIGIA_CHAINS: chains, VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
      label: "service",
    });
    try {
      await patchProject(service);
      const { url, key } = service.info;
      const headers = { "x-api-key": `ApiKey ${key}` };
      let from = 0;
      const explored = (addressesUsed: number) => {
        const at = from;
        from += addressesUsed;
        return pathFor(addresses, at);
      };
      // The warm-up's checks ask about the first 1,000 addresses, again and again once each is fetched.
      const warmUp = explored(1_000);
      await measured(service, "explorer on, warm-up", undefined, () =>
        closedLoop({
          base: url,
          headers,
          path: (k) => warmUp(k % 1_000),
          concurrency: CONCURRENCY,
          seconds: 3,
        }),
      );
      for (const rate of RATES) {
        const name = `explorer on, ${rate}/s, keep-alive`;
        const run = await measured(service, name, rate, () =>
          openLoop({
            base: url,
            headers,
            path: explored(rate * SECONDS),
            rate,
            seconds: SECONDS,
            sockets: SOCKETS,
            timeoutMs: 20_000,
          }),
        );
        outcome.runs.push(run);
        // Past what the path serves, the checks refused keep the answered ones' p95 near the bound: their rate and
        // their CPU tell.
        outcome.figures[`${name}, CPU`] = { kind: "cpu", value: run.cpuUs ?? Number.NaN };
        outcome.figures[`${name}, answered`] = {
          kind: "rate",
          value: run.result.okLatencies.length / SECONDS,
        };
        if (run.result.errors) outcome.failures.push(`${name}: ${run.result.errors} errors`);
      }
    } finally {
      await service.stop();
    }
    return outcome;
  } finally {
    await explorer?.close().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.end());
    }
  }
}

function commitOf(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: ROOT,
      encoding: "utf8",
    }).trim();
    return dirty ? `${sha} with uncommitted changes` : sha;
  } catch {
    return "unknown";
  }
}

function markdown(outcomes: Outcome[], comparisons: Comparison[], recorded: Baseline, kept: boolean): string {
  const lines = [
    `## quick-check: GET /v1/risk/quick through the HTTP stack, on ${int(TRANSFERS)} transfers`,
    "",
    "bench/quick-check.ts: the real service (child process) on the store of bench/risk-store.ts, a project with the",
    `jurisdictions ${JURISDICTIONS.join(" and ")} (their thresholds converted at the store's exchange rates); every check another ordinary`,
    "user. Explorers off: the built-in chain list, public explorers off. Explorers on: chain 1's histories from a",
    "local Blockscout (every check fetches its address's history first). Open loop: each request sent when due and",
    `timed from then; latencies of the 2xx answers. ${SECONDS} s per run; overload: twice the throughput for ${OVERLOAD.seconds} s.`,
    `Targets: explorers off, p95 ≤ ${TARGET.p95Ms} ms at ${TARGET.rate}/s keep-alive with no error and no refusal; under overload the`,
    `answered checks' p95 ≤ ${TARGET.overloadP95Ms} ms, no connection error; no figure 25 % worse than recorded (p95 also 2 ms longer):`,
    `CPU/check of every open-loop run, p95 of the keep-alive runs (median of ${REPEATS} runs), throughput.`,
    `Measured on ${commitOf()}, load average at the start ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}.`,
    "",
  ];
  for (const o of outcomes) {
    if (o.skipped) {
      lines.push(`**${LABEL[o.database]}**: skipped (${o.skipped}).`, "");
      continue;
    }
    lines.push(
      `**${LABEL[o.database]}**`,
      "",
      "| Run | answered/s | p50 | p95 | p99 | 503 | other non-2xx | errors | CPU/check |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const r of o.runs) {
      const refused = r.result.statuses[503] ?? 0;
      lines.push(
        `| ${r.name} | ${int(r.result.rate)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${int(refused)} | ${int(r.result.non2xx - refused)} | ${int(r.result.errors)} | ${r.cpuUs ? `${int(r.cpuUs)} µs` : "—"} |`,
      );
    }
    lines.push("", o.failures.length ? `Targets missed: ${o.failures.join("; ")}.` : "Targets met.", "");
  }
  if (comparisons.length) {
    lines.push(
      `Against the figures recorded on ${recorded.commit} (${recorded.measuredAt.slice(0, 10)}):`,
      "",
      "| Database | Figure | recorded | now | slowdown | |",
      "| --- | --- | ---: | ---: | ---: | --- |",
    );
    for (const c of comparisons) {
      const show = (f: Figure) =>
        f.kind === "p95" ? ms(f.value) : f.kind === "cpu" ? `${int(f.value)} µs` : `${int(f.value)}/s`;
      const label = c.now.kind === "p95" ? " (p95)" : c.now.kind === "cpu" ? " (CPU/check)" : "";
      lines.push(
        `| ${LABEL[c.database as DatabaseName] ?? c.database} | ${c.name}${label} | ${show(c.before)} | ${show(c.now)} | ${c.slowdown.toFixed(2)}x | ${c.regressed ? "**slower**" : ""} |`,
      );
    }
    lines.push("");
  }
  lines.push(
    kept
      ? `The recorded figures (${recorded.commit}) are kept: this run is slower.`
      : `These figures are recorded for the next run to compare with.`,
    baselineComment(recorded),
  );
  return lines.join("\n");
}

export const quickCheckBenchmark: Benchmark = {
  name: "quick-check",
  section: SECTION,
  title: `GET /v1/risk/quick through the HTTP stack at 200/s and 500/s, explorers off and on, on ${int(TRANSFERS)} transfers`,
  async run() {
    const before = readBaseline(REPORT, SECTION);
    const outcomes: Outcome[] = [];
    for (const database of wantedDatabases()) {
      console.log(`${LABEL[database]}:`);
      const outcome = await runOn(database);
      if (outcome.skipped) console.log(`  skipped: ${outcome.skipped}`);
      outcomes.push(outcome);
    }
    const now: Baseline = {
      commit: commitOf(),
      measuredAt: new Date().toISOString(),
      figures: Object.fromEntries(outcomes.filter((o) => !o.skipped).map((o) => [o.database, o.figures])),
    };
    const comparisons = before ? compare(before, now) : [];
    const slower = comparisons.filter((c) => c.regressed);
    for (const c of slower)
      console.log(
        `  SLOWER: ${LABEL[c.database as DatabaseName]} ${c.name}: ${c.before.value.toFixed(1)} -> ${c.now.value.toFixed(1)} (${c.slowdown.toFixed(2)}x)`,
      );
    const accept = process.env.BENCH_QUICK_ACCEPT === "1";
    const keep = Boolean(before) && slower.length > 0 && !accept;
    // A database not measured this time keeps its recorded figures.
    const recorded: Baseline = keep
      ? (before as Baseline)
      : { ...now, figures: { ...(before?.figures ?? {}), ...now.figures } };
    const passed =
      outcomes.some((o) => !o.skipped) &&
      outcomes.every((o) => o.failures.length === 0) &&
      (slower.length === 0 || accept);
    return { markdown: markdown(outcomes, comparisons, recorded, keep), passed };
  },
};

// `node bin/run-ts.js bench/quick-check.ts` runs it alone without writing the report.
if (process.argv[1] && path.basename(process.argv[1]) === "quick-check.ts") {
  const { markdown: text, passed } = await quickCheckBenchmark.run();
  console.log(`\n${text}`);
  process.exitCode = passed ? 0 : 1;
}
