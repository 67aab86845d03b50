// Benchmark `import-btc`: Bitcoin at scale. `vigia import btc-etl` (the real command, a child process) on a seeded,
// generated bitcoin-etl export (bench/btc-export.ts: wallets with change, exchanges' deposit sweeps and withdrawal
// batches, WabiSabi rounds) of BENCH_BTC_TRANSACTIONS transactions (default 10,000,000; BENCH_BTC_TRANSACTIONS sets
// another size), on PGlite and on PostgreSQL, each beside a bare COPY of the very same transfers (already projected
// into the store's columns) into an equivalent indexed table. The import projects every transaction, checks every
// line and keeps the address clusters in the same transactions: its rate over the bare COPY's is what it costs.
// Then, in this process: the clusterer alone over the same transactions (the risk core's Clusterer, as the import
// seeds it, in one pass), its time and the process's peak RSS; and on each imported store, scans of 50 random
// users at depth 3 with a single scan's budgets (the cluster read, expansion and risk core, as src/analysis/run.ts
// runs them), p50 and p95.
// Targets: import ≥ 0.5 × the bare COPY (it writes clusters besides the transfers); scans p95 ≤ 1 s on PostgreSQL
// and ≤ 2 s on PGlite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expandWithClusters } from "../src/analysis/cluster-roots.ts";
import type { AnalysisContext } from "../src/analysis/context.ts";
import { expandGraph } from "../src/analysis/graph/index.ts";
import { riskConfigFor } from "../src/analysis/thresholds.ts";
import { BUILT_IN_CHAINS, ChainRegistry } from "../src/chains/index.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { analyseRootsIndexed, Clusterer } from "../src/risk/index.ts";
import type { DB } from "../src/schema.ts";
import { generateBtcExport, utxoTransactionsOf } from "../test/ingest/btc-etl-export-generator.ts";
import { type DatabaseName, freshTarget, lastJson, runChild } from "./import-etl.ts";
import { type Benchmark, fmt, postgresAnswers, ROOT, wantedDatabases } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const TRANSACTIONS = Number(process.env.BENCH_BTC_TRANSACTIONS || 10_000_000);
const CHAIN = 177_005_167;
const TARGET_RATIO = 0.5;
const TARGET_P95 = { postgres: 1000, pglite: 2000 } as const;
const SCANS = 50;
const MIB = 2 ** 20;
const LABEL: Record<DatabaseName, string> = { pglite: "PGlite", postgres: "PostgreSQL" };

interface Measured {
  transfers: number;
  seconds: number;
  rate: number;
  peakRss: number;
}

interface Scans {
  p50: number;
  p95: number;
  nodes: number;
}

interface Outcome {
  database: DatabaseName;
  bare?: Measured;
  import?: Measured & { clustersWritten: number; mergedAway: number };
  scans?: Scans;
  skipped?: string;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
};

async function scansOn(database: DatabaseName, target: string, users: string[]): Promise<Scans> {
  const db = await openDatabase<DB>(
    database === "pglite" ? { dataDir: target } : { databaseUrl: target, dataDir: "memory://" },
  );
  try {
    const times: number[] = [];
    const nodes: number[] = [];
    const ctx = { db: db.db, registry: new ChainRegistry(BUILT_IN_CHAINS) } as unknown as AnalysisContext;
    for (const root of users.slice(0, SCANS)) {
      const t = performance.now();
      // As src/analysis/run.ts: the root's cluster read first, a few of its addresses expanded beside it.
      const {
        expansion: { graph },
      } = await expandWithClusters(ctx, CHAIN, [root], (roots) =>
        expandGraph(
          db.db,
          { chainId: CHAIN, roots, maxDepth: 3 },
          {
            budget: { maxNodes: 5_000, maxEdges: 20_000 },
            native: { symbol: "BTC", decimals: 8 },
            jsonRows: database === "pglite",
          },
        ),
      );
      analyseRootsIndexed(graph, await riskConfigFor(ctx, 0, graph));
      times.push(performance.now() - t);
      nodes.push(graph.nodes.size);
    }
    return { p50: quantile(times, 0.5), p95: quantile(times, 0.95), nodes: quantile(nodes, 0.5) };
  } finally {
    await db.close();
  }
}

async function runOn(
  database: DatabaseName,
  workDir: string,
  exported: { dir: string; csv: string; transfers: number; users: string[] },
): Promise<Outcome> {
  if (database === "postgres") {
    const down = await postgresAnswers(POSTGRES_URL);
    if (down) return { database, skipped: down };
  }
  console.log(`${LABEL[database]}:`);
  const bareTarget = await freshTarget(database, workDir);
  let bare: Measured;
  try {
    const run = await runChild(
      [
        path.join(ROOT, "bin", "run-ts.js"),
        path.join(ROOT, "bench", "import-etl.ts"),
        "--bare",
        database,
        exported.csv,
        bareTarget.target,
      ],
      {},
    );
    const { seconds } = lastJson<{ seconds: number }>(run, "bare COPY");
    bare = {
      transfers: exported.transfers,
      seconds,
      rate: exported.transfers / seconds,
      peakRss: run.peakRss,
    };
  } finally {
    await bareTarget.drop().catch(() => {});
  }
  console.log(
    `  bare COPY ${fmt.rps(bare.transfers)} in ${bare.seconds.toFixed(1)} s: ${fmt.rps(bare.rate)}/s`,
  );
  const target = await freshTarget(database, workDir);
  try {
    const run = await runChild(
      [path.join(ROOT, "bin", "vigia.js"), "import", "btc-etl", "--chain", String(CHAIN), exported.dir],
      { ...target.env, VIGIA_CHAINS: path.join(ROOT, "examples", "chains-bitcoin.json") },
    );
    const summary = lastJson<{
      seconds: number;
      transfers: { written: number };
      bitcoin: { clusters: { written: number; merged_away: number } };
    }>(run, "vigia import btc-etl");
    const imported = {
      transfers: summary.transfers.written,
      seconds: summary.seconds,
      rate: summary.transfers.written / summary.seconds,
      peakRss: run.peakRss,
      clustersWritten: summary.bitcoin.clusters.written,
      mergedAway: summary.bitcoin.clusters.merged_away,
    };
    console.log(
      `  import    ${fmt.rps(imported.transfers)} in ${imported.seconds.toFixed(1)} s: ${fmt.rps(imported.rate)}/s, peak RSS ${Math.round(imported.peakRss / MIB)} MiB`,
    );
    const scans = await scansOn(database, target.target, exported.users);
    console.log(`  scans     p50 ${Math.round(scans.p50)} ms, p95 ${Math.round(scans.p95)} ms`);
    return { database, bare, import: imported, scans };
  } finally {
    await target.drop().catch(() => {});
  }
}

/** The clusterer alone over the export, streamed: its time and this process's peak RSS. */
async function clusterAlone(
  dir: string,
): Promise<{ seconds: number; peakRss: number; clusters: number; largest: number }> {
  const clusterer = new Clusterer();
  let busy = 0;
  let peakRss = process.memoryUsage().rss;
  let n = 0;
  for await (const tx of utxoTransactionsOf(dir)) {
    const t = performance.now();
    clusterer.add(tx);
    busy += performance.now() - t;
    if (++n % 1000 === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const sizes = [...clusterer.clusters().values()].map((c) => c.length);
  return { seconds: busy / 1000, peakRss, clusters: sizes.length, largest: Math.max(0, ...sizes) };
}

function markdown(
  outcomes: Outcome[],
  exported: { transactions: number; transfers: number },
  alone: Awaited<ReturnType<typeof clusterAlone>>,
): { text: string; passed: boolean } {
  const lines = [
    "## import-btc: Bitcoin at scale (import and clusters, scans)",
    "",
    `A seeded bitcoin-etl export of ${fmt.rps(exported.transactions)} generated transactions (${fmt.rps(exported.transfers)} transfers once`,
    "projected): wallets of one to six addresses paying each other with change to a fresh address, five exchanges",
    "sweeping users' deposit addresses (20-100 inputs) and paying withdrawals in batches, WabiSabi rounds of 30-60",
    "inputs. `vigia import btc-etl` (a child process, into a fresh database) projects, checks and keeps the address",
    "clusters; the bare COPY writes the same projected transfers into an equivalent indexed table. Scans: 50 random",
    "users at depth 3, one root each, with a single scan's budgets (5,000 nodes, 20,000 edges).",
    `Targets: import ≥ ${TARGET_RATIO} × the bare COPY; scans p95 ≤ ${TARGET_P95.postgres} ms on PostgreSQL, ≤ ${TARGET_P95.pglite} ms on PGlite.`,
    "",
    "| Database | Bare COPY transfers/s | Import transfers/s | import/bare | Import peak RSS | Clusters written | Merged away | Scans p50 | Scans p95 | Meets targets |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ];
  let passed = outcomes.length > 0;
  for (const o of outcomes) {
    if (!o.bare || !o.import || !o.scans) {
      lines.push(`| ${LABEL[o.database]} | skipped: ${o.skipped ?? "failed"} | | | | | | | | no |`);
      passed = false;
      continue;
    }
    const ratio = o.import.rate / o.bare.rate;
    const ok =
      ratio >= TARGET_RATIO &&
      o.scans.p95 <= TARGET_P95[o.database] &&
      o.import.transfers === exported.transfers;
    passed &&= ok;
    lines.push(
      `| ${LABEL[o.database]} | ${fmt.rps(o.bare.rate)} | ${fmt.rps(o.import.rate)} | ${fmt.ratio(ratio)} | ${Math.round(o.import.peakRss / MIB)} MiB | ${fmt.rps(o.import.clustersWritten)} | ${fmt.rps(o.import.mergedAway)} | ${Math.round(o.scans.p50)} ms | ${Math.round(o.scans.p95)} ms | ${ok ? "yes" : "no"} |`,
    );
  }
  lines.push(
    "",
    `The clusterer alone (the risk core, one pass in memory): ${alone.seconds.toFixed(1)} s for ${fmt.rps(exported.transactions)} transactions,`,
    `${fmt.rps(alone.clusters)} clusters of more than one address, the largest ${fmt.rps(alone.largest)} addresses (the service-scale cap is`,
    `10,000), peak RSS of the benchmark process ${Math.round(alone.peakRss / MIB)} MiB.`,
  );
  return { text: lines.join("\n"), passed };
}

async function run(): Promise<{ markdown: string; passed: boolean }> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-btc-"));
  try {
    const started = Date.now();
    const exported = generateBtcExport({ dir: path.join(workDir, "export"), transactions: TRANSACTIONS });
    console.log(
      `generated ${fmt.rps(exported.transactions)} transactions, ${fmt.rps(exported.transfers)} transfers in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const alone = await clusterAlone(exported.dir);
    console.log(
      `clusterer alone: ${alone.seconds.toFixed(1)} s, peak RSS ${Math.round(alone.peakRss / MIB)} MiB`,
    );
    const outcomes: Outcome[] = [];
    for (const database of wantedDatabases()) {
      try {
        outcomes.push(await runOn(database, workDir, exported));
      } catch (error) {
        console.error(`${LABEL[database]}: ${(error as Error).message}`);
        outcomes.push({ database, skipped: (error as Error).message.slice(0, 200) });
      }
    }
    const { text, passed } = markdown(outcomes, exported, alone);
    return { markdown: text, passed };
  } finally {
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}

export const importBtcBenchmark: Benchmark = {
  name: "import-btc",
  title:
    "Bitcoin: vigia import btc-etl with its clusters beside a bare COPY, the clusterer alone, scans at depth 3",
  run,
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(ROOT, "bench", "import-btc.ts")) {
  const result = await run();
  console.log(`\n${result.markdown}\n\n${result.passed ? "targets met" : "targets missed"}`);
  if (!result.passed) process.exitCode = 1;
}
