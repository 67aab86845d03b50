// Benchmark `risk-endpoints`: the quick check (GET /v1/risk/quick) and the 50-address scan at depth 3
// (POST /v1/projects/{projectId}/addresses/scan-risk) of the real service (a child process, bench/server.ts), on the
// 5,000,000-transfer store of bench/risk-store.ts, once on PGlite (a data dir under the OS temp dir) and once on
// PostgreSQL (a schema of its own, dropped after). Targets, on each database: quick check p95 ≤ 50 ms at
// ≥ 500 checks/s; scan of 50 addresses at depth 3 p95 ≤ 1 s. And the scans users send: 50 ordinary users at random
// at depth 3 (p95 ≤ 1 s on PostgreSQL, ≤ 2 s on PGlite) and 5 (≤ 3 s on PostgreSQL), with their time taken apart
// into database, decoding, expansion, risk core and serialisation (bench/ordinary-scans.ts;
// BENCH_RISK_ORDINARY_SCANS scans per depth, default 10).
//
// Addresses: each checked or scanned address is drawn (seeded, mulberry32) from three classes of the store: 90% any
// user (the tail: a few to a few dozen transfers), 9% one of the 1,000 busiest users (40 to 3,000 transfers), 1% a
// service (exchange, unlabelled hub, mixer, sanctioned, bridge, DeFi or gambling address: 10,000s to 100,000s of
// transfers; a quick check reads the newest 500 per direction of them, a scan up to 10,000).
// BENCH_RISK_MIX="tail,busy,service" changes the
// shares.
//
// Quick checks, after a warm-up: (1) the rate the service sustains, autocannon with BENCH_RISK_CONNECTIONS
// connections (default 10) for BENCH_RISK_SECONDS (default 20); (2) latency at the target rate, open loop
// (bench/open-loop.ts) at BENCH_RISK_RATE checks/s (default 500) over up to 50 keep-alive connections for the same
// time: each request is due at a fixed time and timed from then, so a service that falls behind the pace shows its
// queueing as latency. Every request checks the next address of a list of 20,000 drawn as above, so no answer comes
// from a cache. Latencies are of every response (p95 computed exactly). (3) The same pace over 20,000 ordinary users
// drawn as the scans of ordinary users draw them (active unlabelled EOAs, whose counterparties include the store's
// busy merchants; target p95 ≤ 50 ms too). Then, for context, sequential checks per class.
//
// Scans: BENCH_RISK_SCANS (default 12) scans one after the other, each of 50 addresses drawn as above, skipExisting
// false, maxDepth 3; then BENCH_RISK_SCANS_PARALLEL (default 2) at a time for 2 rounds. For each scan: the wall time
// seen by the client, the summary's duration, the graph of the largest root, and (computed beforehand, in this
// process, with the budgets the service uses for 50 roots) the size of the whole multi-root graph and the database
// engine's own time on its layer statements. For quick checks, the same process also times a check's two
// statements shared by 16 checks, as under load (bench/statement-floor.ts: what no change above the database can
// win back).
//
// BENCH_DATABASES=pglite,postgres picks the databases; BENCH_DATABASE_URL names the PostgreSQL server;
// BENCH_RISK_TRANSFERS and BENCH_RISK_USERS size the store (defaults 5,000,000 and one user per 5 transfers; another
// size writes its own section of docs/benchmarks.md, `risk-endpoints-N`). Everything is sent
// to 127.0.0.1; the children are stopped and the store removed at the end. While working on the service,
// BENCH_RISK_PGLITE_DIR (a data dir) and BENCH_RISK_PG_SCHEMA (a schema) name a store generated before, which is
// then used as it is and kept (generating takes minutes; the scans add their analyses to it). `npm run bench -- risk-endpoints` runs
// it and writes its section of docs/benchmarks.md; `node bin/run-ts.js bench/risk-endpoints.ts` only prints.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon, { type Options as LoadOptions, type Result as LoadResult } from "autocannon";
import pg from "pg";
import type { AnalysisContext } from "../src/analysis/context.ts";
import { expandGraph } from "../src/analysis/graph/index.ts";
import { QUICK_TRANSFERS_PER_DIRECTION } from "../src/analysis/quick.ts";
import { runAnalysis } from "../src/analysis/run.ts";
import { tronBase58 } from "../src/chains/address/index.ts";
import { COALESCED_BATCH } from "../src/ledger/layer-read.ts";
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { Rng } from "../src/platform/rng.ts";
import { quickCheck } from "../src/risk/index.ts";
import type { DB } from "../src/schema.ts";
import { openLoop } from "./open-loop.ts";
import { ORDINARY_DEPTHS, ordinaryUserSets, type ScanSplit, splitScan } from "./ordinary-scans.ts";
import {
  ADDRESS_CLASSES,
  benchAddress,
  CHAIN_ID,
  generateRiskStore,
  MERCHANTS,
  TRANSFERS,
  TRON,
  USERS,
} from "./risk-store.ts";
import { layerStatementsMs, quickStatementsMsPerCheck } from "./statement-floor.ts";

/** An address of the store as the benchmark's chain writes it (Tron: base58check). */
const written = (address: string) => (TRON ? tronBase58(address) : address);

import { type Benchmark, type ChildServer, postgresAnswers, startChild, wantedDatabases } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const CONNECTIONS = Number(process.env.BENCH_RISK_CONNECTIONS || 10);
const PACED_CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_RISK_SECONDS || 20);
const WARMUP_SECONDS = 5;
const RATE = Number(process.env.BENCH_RISK_RATE || 500);
const SCANS = Number(process.env.BENCH_RISK_SCANS || 12);
const PARALLEL = Number(process.env.BENCH_RISK_SCANS_PARALLEL || 2);
const PARALLEL_ROUNDS = 2;
/** The service's peak resident set during the benchmark, MiB at most (docs/decisions/0019). */
const RSS_TARGET_MB = 1536;
const ORDINARY_SCANS = Number(process.env.BENCH_RISK_ORDINARY_SCANS || 10);
const SCAN_SIZE = 50;
const DEPTH = 3;
const QUICK_ADDRESSES = 20_000;
const MIX = (process.env.BENCH_RISK_MIX || "0.9,0.09,0.01").split(",").map(Number) as [
  number,
  number,
  number,
];
const TARGET = { quickP95: 50, quickRate: RATE, scanP95: 1000 };
/** p95 of the scans of 50 ordinary users, by depth and database (undefined: no target). */
const ORDINARY_TARGET: Record<number, Partial<Record<DatabaseName, number>>> = {
  3: { postgres: 1000, pglite: 2000 },
  5: { postgres: 3000 },
};
/** As src/analysis/run.ts scales the budgets for a multi-root analysis (10x the defaults for 10+ roots). */
const SCAN_BUDGET = { maxNodes: 50_000, maxEdges: 200_000 };

type DatabaseName = "pglite" | "postgres";
const LABEL: Record<DatabaseName, string> = { pglite: "PGlite", postgres: "PostgreSQL" };
type AddressClass = keyof typeof ADDRESS_CLASSES;
const CLASSES: AddressClass[] = ["tail", "busy", "service"];

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => (n < 10 ? `${n.toFixed(1)} ms` : `${int(n)} ms`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");

/**
 * The part of autocannon's API used here beyond what bench/autocannon.d.ts declares: a request
 * rebuilt for each send (its path), and an event per response with its latency in ms.
 */
interface RequestOptions extends LoadOptions {
  requests: { method: string; setupRequest: (request: { path: string }) => { path: string } }[];
}
interface RunningLoad extends Promise<LoadResult> {
  on(
    event: "response",
    listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void,
  ): void;
}
/** The same addresses every run. */
const seeded = (seed: number) => new Rng(seed).asFunction();

const runLoad = (options: RequestOptions) =>
  (autocannon as unknown as (o: RequestOptions) => RunningLoad)(options);

/** `count` addresses drawn from the classes with the shares of `mix` (MIX by default). */
function drawAddresses(
  seed: number,
  count: number,
  mix: [number, number, number] = MIX,
): { address: string; cls: AddressClass }[] {
  const random = seeded(seed);
  const out: { address: string; cls: AddressClass }[] = [];
  const total = mix[0] + mix[1] + mix[2];
  for (let i = 0; i < count; i++) {
    const r = random() * total;
    const cls: AddressClass = r < mix[0] ? "tail" : r < mix[0] + mix[1] ? "busy" : "service";
    out.push({ address: benchAddress(ADDRESS_CLASSES[cls](random)), cls });
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))] as number;
}

interface Latencies {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function latencies(list: number[]): Latencies {
  const sorted = [...list].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The store, and the service on it

interface Prepared {
  env: Record<string, string>;
  generated: Awaited<ReturnType<typeof generateRiskStore>>;
  /** the whole multi-root graph of each scan, as the service will expand it */
  scanGraphs: {
    nodes: number;
    edges: number;
    truncated: string;
    expandMs: number;
    analysisMs: number;
    /** the engine's own time on the expansion's layer statements (bench/statement-floor.ts) */
    statementsMs: number;
  }[];
  /** per class, one check at a time in this process: the depth-1 expansion and the risk core's quickCheck */
  quickParts: Record<AddressClass, { expandMs: number; riskMs: number }>;
  /** a quick check's two statements, COALESCED_BATCH checks per statement, per check (bench/statement-floor.ts) */
  quickStatementsMs: number;
  /** per depth, the scans of ordinary users at random and where their time goes (bench/ordinary-scans.ts) */
  ordinary: { depth: number; sets: string[][]; splits: ScanSplit[] }[];
  /** ordinary users to quick-check at the target rate (drawn as the scans' ordinary users, another seed) */
  quickOrdinary: string[];
  cleanup(): Promise<void>;
}

async function prepare(database: DatabaseName, workDir: string, scanSets: string[][]): Promise<Prepared> {
  const chainsFile = path.join(workDir, "chains.json");
  // Chain 1 with no explorer, Blockscout or RPC: nothing leaves 127.0.0.1, and no indexer runs.
  fs.writeFileSync(
    chainsFile,
    JSON.stringify([
      {
        id: CHAIN_ID,
        name: TRON ? "Tron (bench)" : "Ethereum (bench)",
        // The store's native amounts are written with 18 decimals on either chain (bench/risk-store.ts).
        ...(TRON ? { kind: "tron" } : {}),
        currency_symbol: "ETH",
        explorer_url: null,
        blockscout_url: null,
        rpc_url: null,
        explorer_api_url: null,
      },
    ]),
  );
  const reuse = database === "pglite" ? process.env.BENCH_RISK_PGLITE_DIR : process.env.BENCH_RISK_PG_SCHEMA;
  const dataDir = database === "pglite" && reuse ? path.resolve(reuse) : path.join(workDir, "data");
  const schema = database === "postgres" && reuse ? reuse : `bench_${crypto.randomBytes(6).toString("hex")}`;
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
    VIGIA_DATA_DIR: dataDir,
    DATABASE_URL: database === "postgres" ? POSTGRES_URL : "",
    BENCH_SCHEMA: database === "postgres" ? schema : "",
  };
  const dropSchema = async () => {
    if (database !== "postgres" || reuse) return;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    await admin.connect();
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await admin.end();
    }
  };
  const store = await openDatabase<DB>(
    database === "postgres" ? { databaseUrl: POSTGRES_URL, dataDir: "memory://", schema } : { dataDir },
  );
  try {
    await migrate(store);
    const started = performance.now();
    const generated = reuse
      ? {
          transfers: TRANSFERS,
          addresses: Number.NaN,
          labels: Number.NaN,
          seconds: { transfers: 0, indexes: 0, facts: 0, vacuum: 0 },
        }
      : await generateRiskStore(store as never, (line) => console.log(line));
    console.log(
      `  store: ${int(generated.transfers)} transfers, ${int(generated.addresses)} addresses, ` +
        `${int(generated.labels)} labels in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    // Where the time goes, in this process on the same store (the service runs the same code): the expansion
    // alone, then the whole analysis of src/analysis/run.ts (expansion, risk core, per-root figures).
    const ctx = {
      db: store.db,
      registry: {
        get: () => ({ id: CHAIN_ID, enabled: true, currency_symbol: "ETH", currency_decimals: 18 }),
      },
    } as unknown as AnalysisContext;
    const scanGraphs: Prepared["scanGraphs"] = [];
    for (const roots of scanSets) {
      let t = performance.now();
      const { graph, layers } = await expandGraph(
        store.db,
        { chainId: CHAIN_ID, roots, maxDepth: DEPTH },
        { budget: SCAN_BUDGET, native: { symbol: "ETH", decimals: 18 } },
      );
      const expandMs = performance.now() - t;
      t = performance.now();
      await runAnalysis(ctx, { projectId: 0, chainId: CHAIN_ID, roots, maxDepth: DEPTH });
      const analysisMs = performance.now() - t;
      const statementsMs = await layerStatementsMs(store.db, graph, layers);
      const truncated = Object.entries(graph.truncated)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .join(", ");
      scanGraphs.push({
        nodes: graph.nodes.size,
        edges: graph.edges.length,
        truncated: truncated || "none",
        expandMs,
        analysisMs,
        statementsMs,
      });
    }
    const quickParts = {} as Prepared["quickParts"];
    for (const [i, cls] of CLASSES.entries()) {
      const random = seeded(200 + i);
      const expand: number[] = [];
      const risk: number[] = [];
      for (let n = 0; n < (cls === "service" ? 10 : 50); n++) {
        const address = benchAddress(ADDRESS_CLASSES[cls](random));
        let t = performance.now();
        const { graph } = await expandGraph(
          store.db,
          { chainId: CHAIN_ID, roots: [address], maxDepth: 1 },
          { maxTransfersPerAddress: QUICK_TRANSFERS_PER_DIRECTION },
        );
        expand.push(performance.now() - t);
        t = performance.now();
        quickCheck(graph, address);
        risk.push(performance.now() - t);
      }
      quickParts[cls] = { expandMs: latencies(expand).p50, riskMs: latencies(risk).p50 };
    }
    const quickStatementsMs = await quickStatementsMsPerCheck(
      store.db,
      CHAIN_ID,
      drawAddresses(3, 4000).map((a) => a.address),
      QUICK_TRANSFERS_PER_DIRECTION,
      COALESCED_BATCH,
    );
    const ordinary: Prepared["ordinary"] = [];
    const ordinarySets = await ordinaryUserSets(store.db, CHAIN_ID, 7, ORDINARY_SCANS, SCAN_SIZE);
    for (const depth of ORDINARY_DEPTHS) {
      const splits: ScanSplit[] = [];
      for (const roots of ordinarySets)
        splits.push(await splitScan(store.db, CHAIN_ID, roots, depth, SCAN_BUDGET, database === "pglite"));
      ordinary.push({ depth, sets: ordinarySets, splits });
      console.log(`  ordinary users at depth ${depth}: ${splits.length} scans taken apart`);
    }
    const [quickOrdinary = []] = await ordinaryUserSets(store.db, CHAIN_ID, 11, 1, QUICK_ADDRESSES);
    return {
      env,
      generated,
      scanGraphs,
      quickParts,
      quickStatementsMs,
      ordinary,
      quickOrdinary,
      cleanup: dropSchema,
    };
  } catch (error) {
    await dropSchema().catch(() => {});
    throw error;
  } finally {
    await store.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Quick checks

interface LoadRun {
  rate: number;
  latency: Latencies;
  requests: number;
  non2xx: number;
  errors: number;
}

/** autocannon against GET /v1/risk/quick, each request with the next address of the list. */
async function quickLoad(
  base: string,
  key: string,
  addresses: string[],
  cursor: { next: number },
  opts: { connections: number; seconds: number },
): Promise<LoadRun> {
  const times: number[] = [];
  let non2xx = 0;
  const instance = runLoad({
    url: base,
    connections: opts.connections,
    duration: opts.seconds,
    headers: { "x-api-key": `ApiKey ${key}` },
    requests: [
      {
        method: "GET",
        setupRequest: (request) => {
          const address = addresses[cursor.next++ % addresses.length] as string;
          return { ...request, path: `/v1/risk/quick?address=${written(address)}&chainId=${CHAIN_ID}` };
        },
      },
    ],
  });
  instance.on("response", (_client, status, _bytes, responseTime) => {
    times.push(responseTime);
    if (status < 200 || status >= 300) non2xx++;
  });
  const result = await instance;
  return {
    rate: times.length / opts.seconds,
    latency: latencies(times),
    requests: times.length,
    non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Open-loop checks at RATE per second (bench/open-loop.ts), each request the next address of the list. */
async function pacedLoad(
  base: string,
  key: string,
  addresses: string[],
  cursor: { next: number },
): Promise<LoadRun> {
  const first = cursor.next;
  const run = await openLoop({
    base,
    path: (k) =>
      `/v1/risk/quick?address=${written(addresses[(first + k) % addresses.length] as string)}&chainId=${CHAIN_ID}`,
    headers: { "x-api-key": `ApiKey ${key}` },
    rate: RATE,
    seconds: SECONDS,
    sockets: PACED_CONNECTIONS,
  });
  cursor.next = first + run.sent;
  return {
    rate: run.rate,
    latency: latencies(run.latencies),
    requests: run.latencies.length,
    non2xx: run.non2xx,
    errors: run.errors,
  };
}

interface QuickOutcome {
  throughput: LoadRun;
  paced: LoadRun;
  /** paced, with the services left out of the mix: context, not the target */
  pacedNoServices: LoadRun;
  /** paced, ordinary users drawn as the scans' ordinary users are (a target of its own) */
  pacedOrdinary: LoadRun;
  perClass: Record<AddressClass, Latencies>;
  load: string;
}

async function measureQuick(base: string, key: string, ordinaryUsers: string[]): Promise<QuickOutcome> {
  const list = drawAddresses(1, QUICK_ADDRESSES).map((a) => a.address);
  const cursor = { next: 0 };
  const loadAtStart = load();
  await quickLoad(base, key, list, cursor, { connections: CONNECTIONS, seconds: WARMUP_SECONDS });
  const throughput = await quickLoad(base, key, list, cursor, { connections: CONNECTIONS, seconds: SECONDS });
  console.log(
    `  quick, ${CONNECTIONS} connections: ${int(throughput.rate)} checks/s, p50 ${ms(throughput.latency.p50)}, ` +
      `p95 ${ms(throughput.latency.p95)}, p99 ${ms(throughput.latency.p99)}, non-2xx ${throughput.non2xx}`,
  );
  const paced = await pacedLoad(base, key, list, cursor);
  console.log(
    `  quick, paced at ${RATE}/s: ${int(paced.rate)} checks/s, p50 ${ms(paced.latency.p50)}, ` +
      `p95 ${ms(paced.latency.p95)}, p99 ${ms(paced.latency.p99)}, non-2xx ${paced.non2xx}`,
  );
  // Context: the same pace without the services (1% of the checks, but each costs 100s of ms).
  const ordinary = drawAddresses(2, QUICK_ADDRESSES, [MIX[0], MIX[1], 0]).map((a) => a.address);
  const pacedNoServices = await pacedLoad(base, key, ordinary, { next: 0 });
  console.log(
    `  quick, paced at ${RATE}/s, no services: ${int(pacedNoServices.rate)} checks/s, p50 ${ms(pacedNoServices.latency.p50)}, ` +
      `p95 ${ms(pacedNoServices.latency.p95)}, p99 ${ms(pacedNoServices.latency.p99)}, non-2xx ${pacedNoServices.non2xx}`,
  );
  // Target: ordinary users, whose counterparties include busy unlabelled merchants.
  const pacedOrdinary = await pacedLoad(base, key, ordinaryUsers, { next: 0 });
  console.log(
    `  quick, paced at ${RATE}/s, ordinary users: ${int(pacedOrdinary.rate)} checks/s, p50 ${ms(pacedOrdinary.latency.p50)}, ` +
      `p95 ${ms(pacedOrdinary.latency.p95)}, p99 ${ms(pacedOrdinary.latency.p99)}, non-2xx ${pacedOrdinary.non2xx}`,
  );
  // Sequential checks per class: what one check of each kind costs on an otherwise idle service.
  const perClass = {} as Record<AddressClass, Latencies>;
  for (const [i, cls] of CLASSES.entries()) {
    const random = seeded(100 + i);
    const count = cls === "service" ? 20 : 100;
    const times: number[] = [];
    for (let n = 0; n < count; n++) {
      const address = benchAddress(ADDRESS_CLASSES[cls](random));
      const t = performance.now();
      const response = await fetch(`${base}/v1/risk/quick?address=${written(address)}&chainId=${CHAIN_ID}`, {
        headers: { "x-api-key": `ApiKey ${key}` },
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`quick check of ${address}: HTTP ${response.status}`);
      times.push(performance.now() - t);
    }
    perClass[cls] = latencies(times);
    console.log(
      `  quick, one at a time, ${cls}: p50 ${ms(perClass[cls].p50)}, p95 ${ms(perClass[cls].p95)}, max ${ms(perClass[cls].max)}`,
    );
  }
  return { throughput, paced, pacedNoServices, pacedOrdinary, perClass, load: loadAtStart };
}

// ---------------------------------------------------------------------------------------------------------
// Scans

interface ScanSample {
  wall: number;
  duration: number;
  completed: number;
  failed: number;
  largestRoot: { nodes: number; edges: number };
  services: number;
}

interface ScanResponse {
  data: {
    summary: { total: number; completed: number; failed: number; duration: number };
    results: { status: string; transactionGraph: { totalNodes: number; totalEdges: number } }[];
  };
}

async function scanOnce(
  base: string,
  key: string,
  projectId: number,
  set: { address: string; cls: AddressClass }[],
  maxDepth: number = DEPTH,
): Promise<ScanSample> {
  const started = performance.now();
  const response = await fetch(`${base}/v1/projects/${projectId}/addresses/scan-risk`, {
    method: "POST",
    headers: { "x-api-key": `ApiKey ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      addresses: set.map((a) => ({ address: written(a.address), chainId: String(CHAIN_ID) })),
      maxDepth,
      skipExisting: false,
    }),
  });
  const text = await response.text();
  const wall = performance.now() - started;
  if (response.status !== 200) throw new Error(`scan: HTTP ${response.status}: ${text.slice(0, 300)}`);
  const { data } = JSON.parse(text) as ScanResponse;
  const largest = data.results.reduce(
    (best, r) =>
      r.transactionGraph.totalNodes > best.nodes
        ? { nodes: r.transactionGraph.totalNodes, edges: r.transactionGraph.totalEdges }
        : best,
    { nodes: 0, edges: 0 },
  );
  return {
    wall,
    duration: data.summary.duration,
    completed: data.summary.completed,
    failed: data.summary.failed,
    largestRoot: largest,
    services: set.filter((a) => a.cls === "service").length,
  };
}

interface ScanOutcome {
  sequential: ScanSample[];
  parallel: ScanSample[];
  load: string;
}

async function measureScans(
  base: string,
  key: string,
  projectId: number,
  sets: { address: string; cls: AddressClass }[][],
  parallelSets: { address: string; cls: AddressClass }[][],
): Promise<ScanOutcome> {
  const loadAtStart = load();
  // One scan first, not counted: the service's first scan compiles and loads what the others reuse.
  await scanOnce(base, key, projectId, drawAddresses(999, SCAN_SIZE));
  const sequential: ScanSample[] = [];
  for (const [i, set] of sets.entries()) {
    const sample = await scanOnce(base, key, projectId, set);
    sequential.push(sample);
    console.log(
      `  scan ${i + 1}: ${ms(sample.wall)} (summary ${ms(sample.duration)}), ${sample.completed} completed, ` +
        `${sample.failed} failed, largest root graph ${int(sample.largestRoot.nodes)} nodes / ${int(sample.largestRoot.edges)} edges, ` +
        `${sample.services} service address(es)`,
    );
  }
  const parallel: ScanSample[] = [];
  for (let round = 0; round < PARALLEL_ROUNDS; round++) {
    const batch = parallelSets.slice(round * PARALLEL, (round + 1) * PARALLEL);
    const samples = await Promise.all(batch.map((set) => scanOnce(base, key, projectId, set)));
    parallel.push(...samples);
    console.log(`  ${PARALLEL} scans at once: ${samples.map((s) => ms(s.wall)).join(", ")}`);
  }
  return { sequential, parallel, load: loadAtStart };
}

// ---------------------------------------------------------------------------------------------------------

interface Outcome {
  database: DatabaseName;
  skipped?: string;
  prepared?: Pick<Prepared, "generated" | "scanGraphs" | "quickParts" | "quickStatementsMs" | "ordinary">;
  quick?: QuickOutcome;
  scans?: ScanOutcome;
  /** per depth, the ordinary users' scans through the service, in the order of prepared.ordinary */
  ordinary?: { depth: number; samples: ScanSample[]; load: string }[];
  /** the service's peak resident set (VmHWM) at the end of the scans, bytes */
  peakRss?: number | undefined;
}

/** The scans of ordinary users at random, one after the other, at each depth. */
async function measureOrdinary(
  base: string,
  key: string,
  projectId: number,
  ordinary: Prepared["ordinary"],
): Promise<NonNullable<Outcome["ordinary"]>> {
  const out: NonNullable<Outcome["ordinary"]> = [];
  for (const { depth, sets } of ordinary) {
    const loadAtStart = load();
    const samples: ScanSample[] = [];
    for (const set of sets) {
      const sample = await scanOnce(
        base,
        key,
        projectId,
        set.map((address) => ({ address, cls: "tail" as const })),
        depth,
      );
      samples.push(sample);
    }
    console.log(
      `  ordinary users at depth ${depth}: ${samples.map((s) => ms(s.wall)).join(", ")} (p95 ${ms(latencies(samples.map((s) => s.wall)).p95)})`,
    );
    out.push({ depth, samples, load: loadAtStart });
  }
  return out;
}

function scanSetsFor(seed: number, count: number) {
  return Array.from({ length: count }, (_, i) => drawAddresses(seed + i, SCAN_SIZE));
}

async function runOn(database: DatabaseName): Promise<Outcome> {
  if (database === "postgres") {
    const down = await postgresAnswers(POSTGRES_URL);
    if (down) return { database, skipped: down };
  }
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), `vigia-bench-risk-${database}-`));
  const sets = scanSetsFor(1000, SCANS);
  const parallelSets = scanSetsFor(2000, PARALLEL * PARALLEL_ROUNDS);
  let prepared: Prepared | undefined;
  let service: ChildServer<{ url: string; key: string; projectId: number }> | undefined;
  try {
    console.log(`${LABEL[database]}: generating the store`);
    prepared = await prepare(
      database,
      workDir,
      sets.map((set) => set.map((a) => a.address)),
    );
    service = await startChild<{ url: string; key: string; projectId: number }>("bench/server.ts", {
      env: prepared.env,
      label: `service/${database}`,
    });
    const { url, key, projectId } = service.info;
    const quick = await measureQuick(url, key, prepared.quickOrdinary);
    const scans = await measureScans(url, key, projectId, sets, parallelSets);
    const ordinary = await measureOrdinary(url, key, projectId, prepared.ordinary);
    const peakRss = service.peakRssBytes();
    return {
      database,
      prepared: {
        generated: prepared.generated,
        scanGraphs: prepared.scanGraphs,
        quickParts: prepared.quickParts,
        quickStatementsMs: prepared.quickStatementsMs,
        ordinary: prepared.ordinary,
      },
      quick,
      scans,
      ordinary,
      peakRss,
    };
  } finally {
    await service?.stop();
    await prepared?.cleanup().catch((error) => console.error(`cleanup: ${(error as Error).message}`));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

function verdicts(o: Outcome) {
  const quickMet =
    o.quick !== undefined &&
    o.quick.paced.latency.p95 <= TARGET.quickP95 &&
    o.quick.paced.rate >= TARGET.quickRate * 0.98 &&
    o.quick.throughput.rate >= TARGET.quickRate &&
    o.quick.paced.non2xx + o.quick.paced.errors + o.quick.throughput.non2xx + o.quick.throughput.errors === 0;
  const scanP95 = o.scans ? latencies(o.scans.sequential.map((s) => s.wall)).p95 : Number.NaN;
  const scanMet =
    o.scans !== undefined &&
    scanP95 <= TARGET.scanP95 &&
    o.scans.sequential.every((s) => s.failed === 0 && s.completed === SCAN_SIZE);
  const ordinaryMet = (o.ordinary ?? []).every((run) => {
    const target = ORDINARY_TARGET[run.depth]?.[o.database];
    const ok = run.samples.every((s) => s.failed === 0);
    return ok && (target === undefined || latencies(run.samples.map((s) => s.wall)).p95 <= target);
  });
  const ordinaryQuickMet =
    o.quick !== undefined &&
    o.quick.pacedOrdinary.latency.p95 <= TARGET.quickP95 &&
    o.quick.pacedOrdinary.rate >= TARGET.quickRate * 0.98 &&
    o.quick.pacedOrdinary.non2xx + o.quick.pacedOrdinary.errors === 0;
  const rssMet = o.peakRss !== undefined && o.peakRss <= RSS_TARGET_MB * 2 ** 20;
  return {
    quickMet,
    scanMet,
    scanP95,
    ordinaryMet: ordinaryMet && o.ordinary !== undefined && ordinaryQuickMet,
    ordinaryQuickMet,
    rssMet,
  };
}

function ordinaryMarkdown(outcomes: Outcome[]): string[] {
  const lines = [
    "",
    `**Scans of ordinary users** (bench/ordinary-scans.ts): ${ORDINARY_SCANS} scans of 50 users drawn at random (seeded) among`,
    "the store's active unlabelled EOAs (about one in three deals with a merchant: busy neighbourhoods), one after the",
    "other, at depth 3 and at depth 5; time as the client sees it.",
    "Targets: depth 3 p95 ≤ 1 s on PostgreSQL and ≤ 2 s on PGlite; depth 5 p95 ≤ 3 s on PostgreSQL. The split",
    "(medians) was measured beforehand in the benchmark process on the same roots: database = the engine's own time",
    "on the layer statements (EXPLAIN ANALYZE, the floor); decoding = the statements as the expansion waited for",
    "them less that (wire and driver); expansion = the rest of the graph expansion; risk core = analyseRootsIndexed;",
    "serialisation = the stored results and the answer as JSON.",
    "",
    "| Database | Depth | Load | p50 | p95 | max | graph nodes / edges (median) | budgets hit | database | decoding | expansion | risk core | serialisation | Meets target |",
    "| --- | ---: | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const o of outcomes) {
    if (!o.ordinary || !o.prepared) continue;
    for (const [i, run] of o.ordinary.entries()) {
      const splits = o.prepared.ordinary[i]?.splits ?? [];
      const median = (pick: (s: ScanSplit) => number) => latencies(splits.map(pick)).p50;
      const wall = latencies(run.samples.map((s) => s.wall));
      const target = ORDINARY_TARGET[run.depth]?.[o.database];
      const met = run.samples.every((s) => s.failed === 0) && (target === undefined || wall.p95 <= target);
      const hits = [...new Set(splits.map((s) => s.truncated))].join("; ");
      lines.push(
        `| ${LABEL[o.database]} | ${run.depth} | ${run.load} | ${ms(wall.p50)} | ${ms(wall.p95)} | ${ms(wall.max)} | ` +
          `${int(median((s) => s.nodes))} / ${int(median((s) => s.edges))} | ${hits} | ${ms(median((s) => s.databaseMs))} | ` +
          `${ms(median((s) => s.decodingMs))} | ${ms(median((s) => s.expansionMs))} | ${ms(median((s) => s.riskMs))} | ` +
          `${ms(median((s) => s.serialisationMs))} | ${target === undefined ? "(no target)" : met ? "yes" : "**no**"} |`,
      );
    }
  }
  return lines;
}

function markdown(outcomes: Outcome[]): string {
  const yes = (b: boolean) => (b ? "yes" : "**no**");
  const lines = [
    `## risk-endpoints${TRON ? "-tron" : ""}: quick check and 50-address scan on ${int(TRANSFERS)} transfers${TRON ? ", on Tron in base58" : ""}`,
    ...(TRON
      ? [
          "",
          "BENCH_RISK_CHAIN=tron: the same store under Tron mainnet's id (728126428), a Tron-kind chain; every address sent",
          "in base58check and every answer written in it (docs/decisions/0033-tron.md). Same targets as on EVM.",
        ]
      : []),
    "",
    `The real service (child process, bench/server.ts, log level warn) on the store of bench/risk-store.ts: ${int(TRANSFERS)}`,
    `transfers on chain 1 between ${int(USERS)} users, 67 services and ${int(MERCHANTS.count)} merchants (busy unlabelled EOAs of heavy-tailed degree`,
    "that ordinary users deal with), generated in each database with SQL (deterministic),",
    "with address facts, 20,461 labels (exchanges, mixers, sanctioned, bridges, DeFi, gambling, illicit and blocklisted users,",
    "a tag pack's worth of others), two tokens and daily prices; indexes as the migrations define them, then VACUUM ANALYZE.",
    "PGlite in a data dir on disk, PostgreSQL in a schema of its own (dropped after).",
    `Addresses drawn (seeded) ${MIX[0] * 100}% from all users (the tail: a typical one has ~7 transfers), ${MIX[1] * 100}% from the`,
    `1,000 busiest users (40-3,000 transfers), ${MIX[2] * 100}% services (10,000s-100,000s of transfers; a quick check reads`,
    `the newest ${int(QUICK_TRANSFERS_PER_DIRECTION)} per direction of them, a scan up to 10,000). Targets, each database: quick check`,
    "p95 ≤ 50 ms at ≥ 500 checks/s; a",
    "scan of 50 addresses at depth 3 p95 ≤ 1 s.",
    "",
    "**Quick check** (GET /v1/risk/quick): each request checks the next of 20,000 drawn addresses (no answer is",
    `cached). After a ${WARMUP_SECONDS} s warm-up: as fast as the service answers on ${CONNECTIONS} connections, ${SECONDS} s; then paced at`,
    `${RATE} checks/s, open loop (bench/open-loop.ts: request k due at k/${RATE} s whatever the answers, timed from when it was due;`,
    `up to ${PACED_CONNECTIONS} keep-alive connections), ${SECONDS} s: the latency at the target rate. (autocannon's \`overallRate\` lets each`,
    "connection send back to back until its share of the second is used: 50 connections at 500/s are a burst of 50",
    "concurrent requests every second, which measures how fast a burst drains rather than the latency at that rate.)",
    "Percentiles over every response. For context, the same pace with the services left out of the mix, and one",
    "check at a time per class, for what each kind costs alone.",
    "",
    "| Database | Run | checks/s | p50 | p95 | p99 | non-2xx / errors | Meets target |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  for (const o of outcomes) {
    if (!o.quick) {
      lines.push(`| ${LABEL[o.database]} | — | — | — | — | — | — | skipped: ${o.skipped ?? "failed"} |`);
      continue;
    }
    const { quickMet, ordinaryQuickMet } = verdicts(o);
    const row = (what: string, r: LoadRun, verdict: string) =>
      `| ${LABEL[o.database]} | ${what} | ${int(r.rate)} | ${ms(r.latency.p50)} | ${ms(r.latency.p95)} | ${ms(r.latency.p99)} | ${r.non2xx} / ${r.errors} | ${verdict} |`;
    lines.push(
      row(`${CONNECTIONS} connections, unpaced`, o.quick.throughput, ""),
      row(`paced at ${RATE}/s`, o.quick.paced, yes(quickMet)),
      row(`paced at ${RATE}/s, services left out (context)`, o.quick.pacedNoServices, ""),
      row(
        `paced at ${RATE}/s, ordinary users (as the scans draw them)`,
        o.quick.pacedOrdinary,
        yes(ordinaryQuickMet),
      ),
    );
  }
  lines.push(
    "",
    "One check at a time, by class of address: over HTTP (p50 / p95), and, measured beforehand in the benchmark",
    "process on the same store, the median of its two parts, the depth-1 expansion (src/analysis/graph) and the risk",
    "core's quickCheck (src/risk):",
    "",
    "| Database | Class | HTTP p50 / p95 | expansion (median) | quickCheck (median) |",
    "| --- | --- | ---: | ---: | ---: |",
  );
  for (const o of outcomes) {
    if (!o.quick || !o.prepared) continue;
    for (const cls of CLASSES) {
      const c = o.quick.perClass[cls];
      const parts = o.prepared.quickParts[cls];
      lines.push(
        `| ${LABEL[o.database]} | ${cls} | ${ms(c.p50)} / ${ms(c.p95)} | ${ms(parts.expandMs)} | ${ms(parts.riskMs)} |`,
      );
    }
  }
  lines.push(
    "",
    `**Scan** (POST /v1/projects/{projectId}/addresses/scan-risk, 50 addresses, maxDepth ${DEPTH}, skipExisting false):`,
    `${SCANS} scans one after the other (after one not counted), then ${PARALLEL} at a time for ${PARALLEL_ROUNDS} rounds. Time as the`,
    "client sees it. The graph columns: the whole multi-root graph the service expands (computed beforehand in the",
    `benchmark process with the same budgets: ${int(SCAN_BUDGET.maxNodes)} nodes, ${int(SCAN_BUDGET.maxEdges)} edges for 50 roots), and the largest per-root graph of the answer.`,
    "",
    "| Database | Load | scans | p50 | p95 | max | graph nodes / edges (median, max) | budgets hit | Meets target |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |",
  );
  for (const o of outcomes) {
    if (!o.scans || !o.prepared) {
      lines.push(`| ${LABEL[o.database]} | — | — | — | — | — | — | — | skipped: ${o.skipped ?? "failed"} |`);
      continue;
    }
    const { scanMet } = verdicts(o);
    const seq = latencies(o.scans.sequential.map((s) => s.wall));
    const par = latencies(o.scans.parallel.map((s) => s.wall));
    const g = o.prepared.scanGraphs;
    const nodes = latencies(g.map((x) => x.nodes));
    const edges = latencies(g.map((x) => x.edges));
    const hits = [...new Set(g.map((x) => x.truncated))].join("; ");
    lines.push(
      `| ${LABEL[o.database]} | ${o.scans.load} | ${seq.count} sequential | ${ms(seq.p50)} | ${ms(seq.p95)} | ${ms(seq.max)} | ${int(nodes.p50)} / ${int(edges.p50)}, ${int(nodes.max)} / ${int(edges.max)} | ${hits} | ${yes(scanMet)} |`,
      `| ${LABEL[o.database]} | | ${par.count}, ${PARALLEL} at a time | ${ms(par.p50)} | ${ms(par.p95)} | ${ms(par.max)} | | | |`,
    );
  }
  lines.push(
    "",
    "Per scan (sequential). The last two columns were measured beforehand in the benchmark process on the same store",
    "and roots: the expansion alone (src/analysis/graph), and src/analysis/run.ts's whole analysis (the expansion",
    "again, the risk core's analyseRoots, the per-root graph figures); the service then stores the 50 results. The",
    "column before them is the database engine's own time on the expansion's layer statements (EXPLAIN ANALYZE of",
    "each, best of two; bench/statement-floor.ts): what no change above the database can win back.",
    "",
    "| Database | # | time | summary duration | service addresses | whole graph nodes / edges | largest root nodes / edges | layer statements in the database | expansion alone | whole analysis |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const o of outcomes) {
    if (!o.scans || !o.prepared) continue;
    for (const [i, s] of o.scans.sequential.entries()) {
      const g = o.prepared.scanGraphs[i];
      lines.push(
        `| ${LABEL[o.database]} | ${i + 1} | ${ms(s.wall)} | ${ms(s.duration)} | ${s.services} | ${g ? `${int(g.nodes)} / ${int(g.edges)}` : "—"} | ${int(s.largestRoot.nodes)} / ${int(s.largestRoot.edges)} | ${g ? ms(g.statementsMs) : "—"} | ${g ? ms(g.expandMs) : "—"} | ${g ? ms(g.analysisMs) : "—"} |`,
      );
    }
  }
  lines.push(...ordinaryMarkdown(outcomes));
  lines.push(
    "",
    `The service's peak resident set (VmHWM, /proc) at the end of its quick checks and scans (target ≤ ${int(RSS_TARGET_MB)} MB): ` +
      outcomes
        .map(
          (o) => `${LABEL[o.database]} ${o.peakRss === undefined ? "—" : `${int(o.peakRss / 2 ** 20)} MB`}`,
        )
        .join(", ") +
      ".",
  );
  lines.push("", "Load average when each part began (1, 5, 15 min; 2 cores):");
  for (const o of outcomes) {
    if (o.quick && o.scans)
      lines.push(`- ${LABEL[o.database]}: quick checks ${o.quick.load}; scans ${o.scans.load}.`);
  }
  lines.push("", "Where the time goes (from the tables above):");
  for (const o of outcomes) {
    if (!o.quick || !o.scans || !o.prepared) continue;
    const g = o.prepared.scanGraphs;
    const expand = latencies(g.map((x) => x.expandMs)).p50;
    const analysis = latencies(g.map((x) => x.analysisMs)).p50;
    const scan = latencies(o.scans.sequential.map((x) => x.wall)).p50;
    const statements = latencies(g.map((x) => x.statementsMs));
    const service = o.prepared.quickParts.service;
    const tail = o.prepared.quickParts.tail;
    const perCheck = o.prepared.quickStatementsMs;
    lines.push(
      `- ${LABEL[o.database]}: a scan takes ${ms(scan)} (median); the database engine alone spends ` +
        `${ms(statements.p50)} (median; p95 ${ms(statements.p95)}) of it on the layer statements; the expansion alone ${ms(expand)}, the whole analysis ` +
        `${ms(analysis)}: ${Math.round((100 * expand) / Math.max(analysis, 1))}% of it is the expansion, the rest the risk ` +
        `core's analysis of the ${int(latencies(g.map((x) => x.nodes)).p50)}-node graph for 50 roots and run.ts's per-root figures. ` +
        `A quick check of a service address: expansion ${ms(service.expandMs)}, quickCheck ${ms(service.riskMs)} ` +
        `(tail address: ${ms(tail.expandMs)} and ${ms(tail.riskMs)}); weighted by the mix, one check in ` +
        `${Math.round(1 / MIX[2])} being a service makes ~${ms(MIX[2] * (service.expandMs + service.riskMs))} of the average ` +
        `check's time, the tail ~${ms(MIX[0] * (tail.expandMs + tail.riskMs))}. A quick check's two statements, ` +
        `${COALESCED_BATCH} checks per statement as under load, cost ${ms(perCheck)} per check of the mix` +
        (o.database === "pglite"
          ? `: PGlite runs one statement at a time, so its engine serves at most ~${int(1000 / perCheck)} checks/s, ` +
            "on the thread that also serves HTTP and runs the risk core."
          : " (PostgreSQL runs them on as many connections as the pool holds)."),
    );
  }
  return lines.join("\n");
}

export const riskEndpointsBenchmark: Benchmark = {
  name: "risk-endpoints",
  // The 5M store is the benchmark's own; a run on another size (BENCH_RISK_TRANSFERS) writes a section of its own.
  section: `risk-endpoints${TRON ? "-tron" : ""}${TRANSFERS === 5_000_000 ? "" : `-${TRANSFERS}`}`,
  title: `quick check and 50-address depth-3 scan on a ${int(TRANSFERS)}-transfer store, PGlite and PostgreSQL`,
  async run() {
    const outcomes: Outcome[] = [];
    for (const database of wantedDatabases()) {
      const outcome = await runOn(database);
      if (outcome.skipped) console.log(`${LABEL[database]}: skipped (${outcome.skipped})`);
      const v = verdicts(outcome);
      console.log(
        `  ${LABEL[database]}: quick check target ${v.quickMet ? "met" : "missed"}; scan target ${v.scanMet ? "met" : "missed"} (p95 ${ms(v.scanP95)}); ordinary-user targets ${v.ordinaryMet ? "met" : "missed"}; memory target ${v.rssMet ? "met" : "missed"}`,
      );
      outcomes.push(outcome);
    }
    const passed =
      outcomes.length > 0 &&
      outcomes.every((o) => verdicts(o).quickMet && verdicts(o).scanMet && verdicts(o).ordinaryMet);
    return { markdown: markdown(outcomes), passed };
  },
};

// `node bin/run-ts.js bench/risk-endpoints.ts` runs it alone without writing the report.
if (process.argv[1] && path.basename(process.argv[1]) === "risk-endpoints.ts") {
  const { markdown: text, passed } = await riskEndpointsBenchmark.run();
  console.log(`\n${text}`);
  process.exitCode = passed ? 0 : 1;
}
