// `npm run eval`: the detection benchmark the project owns (docs/eval.md), measured end to end, on an EVM chain and
// on a Tron-kind chain: the same world written as each carries it (src/worlds/render/chain-tokens.ts: on Tron, ETH
// as TRX with 6 decimals and USDV as USDT at USD 1), imported into one service whose chains file names both, and
// scanned on each (the Tron chain's addresses in base58check, as its users write them). Each chain is scored and
// must meet every target.
//
//  1. generates the benchmark world (eval/world: a year of ordinary traffic between users, merchants,
//     employers, exchanges and contracts, with every pattern of docs/risk-model.md woven into it, positives across the
//     range of each definition and near misses just outside it) as an ethereum-etl export with labels, prices and
//     cases.json (eval/world/etl.ts) into a temporary directory;
//  2. starts the real service as a child process (bench/server.ts) on the embedded database of a fresh
//     data dir, with a chains file naming only the benchmark's chains (no RPC, no explorer, no workers);
//  3. runs the real CLI imports against that data dir, which reach the database through the running service's
//     socket bridge: `vigia import etl --chain C DIR`, `vigia import tags labels.csv`,
//     `vigia import prices prices.csv`;
//  4. scans every case's subject through POST /v1/projects/{projectId}/addresses/scan-risk (batches of up to 50,
//     maxDepth 3, skipExisting false), the subjects in a seeded random order so that every batch mixes patterns,
//     near misses and background users;
//  5. scores the results (eval/scoring/score.ts: a positive of P is a TP when P is among the result's `patterns`; P
//     reported on a near miss of P or on any background user is an FP; sanctions-exposure chains must score
//     strictly lower at 1, 2 and 3 hops), prints the tables and writes them into docs/benchmarks.md between
//     `<!-- bench:eval -->` markers.
//
// Exits 1 when, on either chain, a pattern misses a target (precision >= 0.90 and recall >= 0.85), the sanctions
// ordering is not strictly decreasing, or an address fails to scan. Progress goes to stderr.
//
// Flags: --seed N (7), --per-pattern N (50), --users N (1500), --transfers N (30000), --background N (200),
// --depth N (3), --chains evm,tron,bridges (all; any of them to measure it alone: bridges is the two-chain bridge
// benchmark of eval/bridges-run.ts, whose exit status counts too), --bridge-ablation (the bridge benchmark without
// its logs.csv: no leg reaches the service), --keep (keep the temporary directory and print where it is),
// --no-report (do not touch docs/benchmarks.md; a partial run, of some parts or the ablation, never does).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { machine, ROOT, startChild, upsertSection } from "../bench/support.ts";
import { parseTronAddress, tronBase58 } from "../src/chains/address/index.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { Rng } from "../src/platform/rng.ts";
import { PATTERNS } from "../src/risk/findings.ts";
import { RISK_LEVELS, type RiskLevel } from "../src/risk/scoring/levels.ts";
import type { DB } from "../src/schema.ts";
import { type ChainTokens, EVM_TOKENS, TRON_TOKENS } from "../src/worlds/index.ts";
import { BRIDGE_CHAIN_CONFIGS, runBridgeBenchmark } from "./bridges-run.ts";
import { DEPOSIT_TARGET } from "./scoring/deposits.ts";
import { FALSE_ALERT_TARGETS } from "./scoring/false-alerts.ts";
import { ORDERING_TARGET } from "./scoring/ordering.ts";
import { type EvalReport, type ScanOutcome, scoreBenchmark, TARGET } from "./scoring/score.ts";
import type { CasesFile, DepositTruth } from "./world/etl.ts";
import {
  BENCHMARK_CHAIN_ID,
  BENCHMARK_TRON_CHAIN_ID,
  type ExportCase,
  writeBenchmarkExport,
} from "./world/etl.ts";

const BATCH = 50;
/** The service's expansion time budget (src/analysis/graph options: 5 s): a scan that takes longer may have had
 * its graph cut by time, which depends on the machine's load, so the eval says how many did. */
const EXPANSION_TIME_BUDGET_MS = 5_000;
const REPORT = path.join(ROOT, "docs", "benchmarks.md");

/** A chain the benchmark runs on: its entry in the service's chains file, and how the world is written there. */
interface EvalChain {
  kind: "evm" | "tron";
  id: number;
  config: Record<string, unknown>;
  tokens: ChainTokens;
  /** How a request names a stored address (the Tron chain's users write base58check). */
  present(address: string): string;
  /** The stored form of an address in an answer. */
  stored(address: string): string;
}

const EVAL_CHAINS: Record<"evm" | "tron", EvalChain> = {
  evm: {
    kind: "evm",
    id: BENCHMARK_CHAIN_ID,
    config: { id: BENCHMARK_CHAIN_ID, name: "Vigía detection benchmark", currency_symbol: "ETH" },
    tokens: EVM_TOKENS,
    present: (address) => address,
    stored: (address) => address.toLowerCase(),
  },
  tron: {
    kind: "tron",
    id: BENCHMARK_TRON_CHAIN_ID,
    config: {
      id: BENCHMARK_TRON_CHAIN_ID,
      name: "Vigía detection benchmark (Tron)",
      kind: "tron",
      currency_symbol: "TRX",
      currency_decimals: 6,
      // A Tron-kind chain without an explorer asks public TronGrid for every analysed address's history: the
      // benchmark's made-up addresses must not go there (nor its scans wait on it), as the EVM chain, which has no
      // blockscout_url, asks no one.
      explorer_api_url: null,
    },
    tokens: TRON_TOKENS,
    present: (address) => tronBase58(address.toLowerCase()),
    stored: (address) => {
      const parsed = parseTronAddress(address);
      if ("error" in parsed) throw new Error(`the service answered ${address}, which ${parsed.error}`);
      return parsed.address;
    },
  },
};

/** One chain's run: its export, its phases' times, its scans' times, its report. */
interface ChainRun {
  chain: EvalChain;
  dir: string;
  generated: CasesFile;
  timings: Record<string, number>;
  batchMs: number[];
  /** scan requests of 50 ordinary users drawn at random */
  ordinaryMs: number[];
}

const { values: flags } = parseArgs({
  options: {
    seed: { type: "string", default: "7" },
    "per-pattern": { type: "string", default: "50" },
    users: { type: "string", default: "1500" },
    transfers: { type: "string", default: "30000" },
    background: { type: "string", default: "300" },
    depth: { type: "string", default: "3" },
    chains: { type: "string", default: "evm,tron,bridges" },
    keep: { type: "boolean", default: false },
    "bridge-ablation": { type: "boolean", default: false },
    "no-report": { type: "boolean", default: false },
  },
  strict: true,
});
const int = (name: string, text: string, min: number): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min) {
    process.stderr.write(`eval: --${name} must be an integer >= ${min}, got "${text}"\n`);
    process.exit(2);
  }
  return n;
};
const options = {
  seed: int("seed", flags.seed, 0),
  perPattern: int("per-pattern", flags["per-pattern"], 1),
  users: int("users", flags.users, 10),
  transfers: int("transfers", flags.transfers, 0),
  background: int("background", flags.background, 0),
};
const depth = int("depth", flags.depth, 1);
const names = [...new Set(flags.chains.split(",").map((c) => c.trim()))];
const withBridges = names.includes("bridges");
const chains = names
  .filter((name) => name !== "bridges")
  .map((name) => {
    const chain = EVAL_CHAINS[name as "evm" | "tron"];
    if (!chain) {
      process.stderr.write(
        `eval: --chains takes evm, tron and bridges (any of them), got "${flags.chains}"\n`,
      );
      process.exit(2);
    }
    return chain;
  });

const log = (text: string) => process.stderr.write(`eval: ${text}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const started = performance.now();
/** The phases every chain shares (the service's start). */
const shared: Record<string, number> = {};
async function phase<T>(
  name: string,
  fn: () => Promise<T> | T,
  timings: Record<string, number> = shared,
): Promise<T> {
  const t = performance.now();
  const out = await fn();
  timings[name] = performance.now() - t;
  log(`${name}: ${seconds(timings[name])}`);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// 1. the export

const work = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-eval-"));
const dataDir = path.join(work, "data");
const chainsFile = path.join(work, "chains.json");
fs.writeFileSync(
  chainsFile,
  JSON.stringify([...chains.map((c) => c.config), ...(withBridges ? BRIDGE_CHAIN_CONFIGS : [])]),
);
log(
  `seed ${options.seed}, ${options.perPattern} positives and near misses per pattern, ${options.users} users, ` +
    `${options.transfers} everyday transfers, ${options.background} background users scanned, on ` +
    `${chains.map((c) => `${c.kind} chain ${c.id}`).join(" and ")}; working in ${work}`,
);
const runs: ChainRun[] = [];
const bridgeTimings: Record<string, number> = {};
for (const chain of chains) {
  const timings: Record<string, number> = {};
  const dir = path.join(work, `export-${chain.kind}`);
  const generated = await phase(
    `generate (${chain.kind})`,
    () => writeBenchmarkExport(dir, options, chain.id, chain.tokens),
    timings,
  );
  log(
    `export (${chain.kind}): ${generated.counts.transactions} transactions (${generated.counts.nativeTransfers} native, ` +
      `${generated.counts.tokenTransfers} token transfers), ${generated.counts.blocks} blocks, ` +
      `${generated.counts.labels} labels, ${generated.counts.prices} prices, ${generated.cases.length} cases`,
  );
  runs.push({ chain, dir, generated, timings, batchMs: [], ordinaryMs: [] });
}

// ---------------------------------------------------------------------------------------------------------
// 2. the service

const env: Record<string, string> = {
  VIGIA_DATA_DIR: dataDir,
  VIGIA_CHAINS: chainsFile,
  VIGIA_LOG_LEVEL: "warn",
  PORT: "0",
  HOST: "127.0.0.1",
};
/** The environment of the children: this one without anything that would point them elsewhere. */
function childEnv(): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name === "DATABASE_URL" || name.startsWith("VIGIA_") || name === "PORT" || name === "HOST") continue;
    out[name] = value;
  }
  return { ...out, ...env };
}
for (const name of Object.keys(process.env)) {
  if (name === "DATABASE_URL" || name.startsWith("VIGIA_")) delete process.env[name];
}

const server = await phase("start service", () =>
  startChild<{ url: string; key: string; projectId: number }>("bench/server.ts", {
    env,
    label: "service",
  }),
);

let exitCode = 0;
try {
  // -------------------------------------------------------------------------------------------------------
  // 3. the imports, through the real CLI

  const vigia = (args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(ROOT, "bin", "vigia.js"), ...args], {
        cwd: ROOT,
        env: childEnv(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
      });
      readline
        .createInterface({ input: child.stderr })
        .on("line", (l) => process.stderr.write(`[vigia ${args[1]}] ${l}\n`));
      child.once("error", reject);
      child.once("close", (code) =>
        code === 0
          ? resolve(stdout.trim())
          : reject(new Error(`vigia ${args.join(" ")} exited with code ${code}`)),
      );
    });
  const reports: { run: ChainRun; report: EvalReport; text: string }[] = [];
  for (const run of runs) {
    const { chain, dir, timings } = run;
    const etl = await phase(
      "import etl",
      () => vigia(["import", "etl", "--chain", String(chain.id), dir]),
      timings,
    );
    log(`import etl (${chain.kind}): ${lastLine(etl)}`);
    const tags = await phase(
      "import tags",
      () => vigia(["import", "tags", path.join(dir, "labels.csv")]),
      timings,
    );
    log(`import tags (${chain.kind}): ${lastLine(tags)}`);
    const prices = await phase(
      "import prices",
      () => vigia(["import", "prices", path.join(dir, "prices.csv")]),
      timings,
    );
    log(`import prices (${chain.kind}): ${lastLine(prices)}`);

    // -----------------------------------------------------------------------------------------------------
    // 4. the scans

    const results = await phase("scan", () => scanAll(run), timings);
    await phase("ordinary-user scans", () => timeOrdinaryScans(run), timings);
    const inferred = await phase("read deposit inference", () => readInferredDeposits(chain), timings);
    const report = scoreBenchmark(run.generated.cases, results, { truth: run.generated.deposits, inferred });
    reports.push({ run, report, text: renderText(report, run) });
  }
  const bridges = withBridges
    ? await runBridgeBenchmark({
        work,
        options: {
          seed: options.seed,
          perPattern: options.perPattern,
          users: Math.max(10, Math.round(options.users / 3)),
          transfers: Math.round(options.transfers / 3),
          depth,
          withoutLogs: flags["bridge-ablation"],
        },
        depth,
        server: server.info,
        vigia,
        phase: (name, fn) => phase(name, fn, bridgeTimings),
        log,
      })
    : undefined;
  const totalMs = performance.now() - started;
  process.stdout.write(`${reports.map((r) => r.text).join("\n")}\n`);
  if (bridges) process.stdout.write(`\n${bridges.text}\n`);
  process.stdout.write(
    `\n${[
      ...reports.map(
        (r) => `${chainName(r.run.chain)}: ${r.report.passed ? "all targets met" : "some targets missed"}`,
      ),
      ...(bridges ? [`bridges: ${bridges.report.passed ? "all targets met" : "some targets missed"}`] : []),
    ].join("; ")}; total ${seconds(totalMs)}\n`,
  );
  // Only a whole run, as the defaults make it, replaces the figures in docs/benchmarks.md: a part alone, or the
  // ablation, would leave the others' figures out.
  const whole = chains.length === 2 && withBridges && !flags["bridge-ablation"];
  if (!whole && !flags["no-report"])
    log("a partial run (--chains, --bridge-ablation): docs/benchmarks.md left as it is");
  if (whole && !flags["no-report"]) {
    const document = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, "utf8") : "# Benchmarks\n";
    const markdown = [
      ...reports.map((r, i) => renderMarkdown(r.report, r.run, totalMs, i === 0)),
      ...(bridges ? [`${bridges.markdown}\n\n${timingText(bridgeTimings)}`] : []),
    ].join("\n\n");
    fs.writeFileSync(REPORT, upsertSection(document, "eval", markdown));
    log(`wrote the eval section of ${path.relative(process.cwd(), REPORT)}`);
  }
  if (reports.some((r) => !r.report.passed) || (bridges && !bridges.report.passed)) exitCode = 1;
} catch (error) {
  log(`failed: ${(error as Error).stack ?? String(error)}`);
  exitCode = 1;
} finally {
  await server.stop();
  if (flags.keep) log(`kept ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
process.exit(exitCode);

// ---------------------------------------------------------------------------------------------------------

/** The deposit addresses the service inferred, read through the running service's socket bridge. */
async function readInferredDeposits(chain: EvalChain): Promise<DepositTruth[]> {
  const database = await openDatabase<DB>({ dataDir });
  try {
    const rows = await database.db
      .selectFrom("deposit_addresses")
      .select(["address", "exchange"])
      .where("chain_id", "=", chain.id)
      .where("attributed", "=", true)
      .execute();
    return rows.map((r) => ({ address: r.address, exchange: r.exchange ?? "" }));
  } finally {
    await database.close();
  }
}

/**
 * What users do: scans of 50 ordinary users drawn at random (seeded) at the eval's depth, three requests, beside
 * the case scans (which mix patterns, near misses and users).
 */
async function timeOrdinaryScans(run: ChainRun): Promise<void> {
  const { chain, ordinaryMs } = run;
  const ordinary = new Rng(options.seed + 1).shuffle(
    run.generated.cases.filter((c) => c.pattern === "background").map((c) => c.subject.toLowerCase()),
  );
  const { url, key, projectId } = server.info;
  for (let i = 0; i + BATCH <= ordinary.length && ordinaryMs.length < 3; i += BATCH) {
    const response = await fetch(`${url}/v1/projects/${projectId}/addresses/scan-risk`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": `ApiKey ${key}` },
      body: JSON.stringify({
        addresses: ordinary
          .slice(i, i + BATCH)
          .map((address) => ({ address: chain.present(address), chainId: String(chain.id) })),
        maxDepth: depth,
        skipExisting: false,
      }),
    });
    if (!response.ok) throw new Error(`scan-risk: HTTP ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { summary: { duration: number } } };
    ordinaryMs.push(data.summary.duration);
    log(`scanned 50 ordinary users (${chain.kind}) in ${data.summary.duration} ms`);
  }
}

function timingText(timings: Record<string, number>): string {
  return `Phases: ${Object.entries(timings)
    .map(([name, ms]) => `${name} ${seconds(ms)}`)
    .join(", ")}.`;
}

function lastLine(text: string): string {
  const lines = text.split("\n").filter(Boolean);
  return lines[lines.length - 1] ?? "(no output)";
}

interface ScanResult extends ScanOutcome {
  address: string;
}

async function scanAll(run: ChainRun): Promise<Map<string, ScanOutcome>> {
  const { chain, batchMs } = run;
  // A seeded shuffle: every batch (one multi-root expansion) mixes patterns, near misses and background users,
  // as a customer's batch would, instead of 50 cases of one kind side by side.
  const subjects = new Rng(options.seed).shuffle([
    ...new Set(run.generated.cases.map((c: ExportCase) => c.subject.toLowerCase())),
  ]);
  const out = new Map<string, ScanOutcome>();
  const { url, key, projectId } = server.info;
  for (let i = 0; i < subjects.length; i += BATCH) {
    const batch = subjects.slice(i, i + BATCH);
    const response = await fetch(`${url}/v1/projects/${projectId}/addresses/scan-risk`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": `ApiKey ${key}` },
      body: JSON.stringify({
        addresses: batch.map((address) => ({ address: chain.present(address), chainId: String(chain.id) })),
        maxDepth: depth,
        skipExisting: false,
      }),
    });
    if (!response.ok) throw new Error(`scan-risk: HTTP ${response.status}: ${await response.text()}`);
    const { data: body } = (await response.json()) as {
      data: { summary: { duration: number }; results: ScanResult[] };
    };
    for (const r of body.results) out.set(chain.stored(r.address), r);
    batchMs.push(body.summary.duration);
    log(
      `scanned ${Math.min(i + BATCH, subjects.length)}/${subjects.length} addresses (${chain.kind}) ` +
        `(batch in ${body.summary.duration} ms)`,
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// 5. the figures

function truncatedText(r: EvalReport): string {
  const entries = Object.entries(r.truncated).sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length ? entries.map(([p, n]) => `${p} ${n}`).join(", ") : "none";
}

function f3(n: number): string {
  return n.toFixed(3);
}
function levelText(levels: Record<RiskLevel, number>): string {
  const shown = [...RISK_LEVELS].reverse().filter((l) => levels[l] > 0);
  return shown.map((l) => `${l} ${levels[l]}`).join(", ") || "—";
}

/** Per pattern: "variant found/cases" for its positives, then its near misses. */
function variantLines(r: EvalReport): { pattern: string; positives: string; nearMisses: string }[] {
  const lines = [...PATTERNS, "conversion_exposure", "lookalike", "background", "dusted"].map((pattern) => {
    // Negatives say how many scored above low too: a legitimate look-alike must stay at most low.
    const of = (positive: boolean) =>
      r.variants
        .filter((v) => v.pattern === pattern && v.positive === positive)
        .map((v) => `${v.variant} ${v.reported}/${v.cases}${positive ? "" : ` (above low ${v.aboveLow})`}`)
        .join(", ");
    return { pattern, positives: of(true), nearMisses: of(false) };
  });
  return lines;
}

function crossLines(r: EvalReport): string[] {
  return Object.entries(r.crossReports)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([key, cells]) =>
        `${key}: ${Object.entries(cells)
          .map(([p, n]) => `${p} ${n}`)
          .join(", ")}`,
    );
}

function list(items: string[], max = 40): string {
  if (items.length === 0) return "none";
  return items.length > max
    ? `${items.slice(0, max).join(", ")}, … (${items.length} in all)`
    : items.join(", ");
}

function meanOrder(r: EvalReport): string {
  const [a, b, c] = r.distances.map((d) => d.meanScore);
  return a !== undefined && b !== undefined && c !== undefined && a > b && b > c
    ? "strictly decreasing"
    : "not strictly decreasing";
}

function batchText(run: ChainRun): string {
  const { batchMs } = run;
  if (batchMs.length === 0) return "no batches";
  const sorted = [...batchMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  const over = batchMs.filter((ms) => ms >= EXPANSION_TIME_BUDGET_MS).length;
  return (
    `${batchMs.length} scan requests of up to ${BATCH} addresses, median ${seconds(median)}, longest ` +
    `${seconds(sorted[sorted.length - 1] as number)} (expansion, analysis and storing); ${over} took ` +
    `${seconds(EXPANSION_TIME_BUDGET_MS)} or more in all (the expansion's own ${seconds(EXPANSION_TIME_BUDGET_MS)} ` +
    "time budget is checked before each layer: a graph is cut by time, which depends on the machine's load, only " +
    "when a layer starts after it; docs/eval.md)"
  );
}

function msStats(values: number[]): string {
  if (values.length === 0) return "none";
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${seconds(sorted[Math.floor(sorted.length / 2)] as number)}, longest ${seconds(sorted.at(-1) as number)} (${values.length} requests)`;
}

function ordinaryText(run: ChainRun): string {
  return `50 ordinary users at random, depth ${depth}: ${msStats(run.ordinaryMs)}; case batches of ${BATCH}: ${msStats(run.batchMs)}`;
}

function pctText(n: number, of: number): string {
  return of ? `${((100 * n) / of).toFixed(1)}%` : "—";
}

function targetText(row: EvalReport["falseAlerts"][number]): string {
  const t = FALSE_ALERT_TARGETS[row.distance];
  const parts = [
    t.mediumOrAbove !== undefined ? `medium+ ≤ ${(t.mediumOrAbove * 100).toFixed(0)}%` : "",
    t.critical !== undefined ? `critical ≤ ${(t.critical * 100).toFixed(0)}%` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "none";
}

/** A false-alert row's name: "2 hops", "dusted users". */
function rowName(row: EvalReport["falseAlerts"][number]): string {
  return row.distance === "dusted" ? "dusted users" : `${row.distance} hops`;
}

function dustedText(r: EvalReport): string {
  const entries = Object.entries(r.dustedPatterns).sort(([a], [b]) => (a < b ? -1 : 1));
  return entries.length ? entries.map(([p, n]) => `${p} ${n}`).join(", ") : "none";
}

function alertLines(r: EvalReport): string[] {
  return r.falseAlerts.map(
    (row) =>
      `  ${rowName(row).padEnd(12)}  ${String(row.users).padStart(4)} users  medium or above ${String(row.mediumOrAbove).padStart(3)} (${pctText(row.mediumOrAbove, row.users)})  critical ${String(row.critical).padStart(3)} (${pctText(row.critical, row.users)})  target: ${targetText(row)} ${row.passed ? "met" : "NOT met"}; ${levelText(row.levels)}`,
  );
}

function orderingText(r: EvalReport): string {
  const o = r.ordering;
  return `${o.steps.map((s) => `${s.step}: ${f3(s.share)} of ${s.pairs} pairs`).join("; ")}; one hop critical ${o.oneHopCritical}/${o.oneHop}; target (each ≥ ${ORDERING_TARGET}, every one-hop case critical) ${o.passed ? "met" : "NOT met"}`;
}

function depositText(r: EvalReport): string {
  const d = r.deposits;
  if (!d) return "not measured";
  return (
    `${d.inferred} inferred of ${d.truth} deposit addresses in the world: ${d.right} right, ${d.wrongExchange} of another exchange, ` +
    `${d.notDeposits.length} not deposit addresses; precision ${f3(d.precision)}, recall ${f3(d.recall)} ` +
    `(targets ${DEPOSIT_TARGET.precision}, ${DEPOSIT_TARGET.recall}) ${d.passed ? "met" : "NOT met"}`
  );
}

/** The chain's phases, the service's start (shared by the chains) first. */
function phasesText(run: ChainRun): string {
  return Object.entries({ ...shared, ...run.timings })
    .map(([k, v]) => `${k.replace(/ \((evm|tron)\)$/, "")} ${seconds(v)}`)
    .join(", ");
}

/** "the EVM chain 8453001", "the Tron-kind chain 728453001 (TRX, USDT)". */
function chainName(chain: EvalChain): string {
  return chain.kind === "tron"
    ? `the Tron-kind chain ${chain.id} (TRX, USDT)`
    : `the EVM chain ${chain.id} (ETH, USDV, TKN)`;
}

function renderText(r: EvalReport, run: ChainRun): string {
  const rows = PATTERNS.map((p) => {
    const q = r.quality[p];
    return [
      p.padEnd(21),
      String(q.positives).padStart(4),
      String(q.nearMisses).padStart(5),
      String(q.tp).padStart(4),
      String(q.fn).padStart(4),
      String(q.fpNearMiss).padStart(5),
      String(q.fpBackground).padStart(5),
      String(q.tn).padStart(4),
      f3(q.precision).padStart(9),
      f3(q.recall).padStart(7),
      f3(q.f1).padStart(6),
      q.passed ? "  yes" : "  NO",
    ].join(" ");
  });
  const distances = r.distances.map(
    (d) =>
      `  ${d.hops} hop${d.hops > 1 ? "s" : " "}  ${String(d.cases).padStart(4)} cases  mean score ${d.meanScore.toFixed(1).padStart(5)}  ${levelText(d.levels)}`,
  );
  const background = r.quality[PATTERNS[0]].background;
  return [
    "",
    `Detection benchmark on ${chainName(run.chain)}: seed ${options.seed}, ${options.perPattern} positives and ${options.perPattern} near misses per pattern, ` +
      `${background} background users (negatives for every pattern), depth ${depth}`,
    `${"pattern".padEnd(21)}  pos  near   TP   FN FP-nm FP-bg   TN precision  recall     F1 target`,
    ...rows,
    "",
    "Per variant (reported/cases): positives | near misses",
    ...variantLines(r).map((v) => `  ${v.pattern}: ${v.positives || "—"} | ${v.nearMisses || "—"}`),
    "",
    "Other patterns reported on a pattern's cases (not scored):",
    ...(crossLines(r).length ? crossLines(r).map((l) => `  ${l}`) : ["  none"]),
    "",
    `Sanctions exposure (${r.chains} chains):`,
    ...distances,
    `  chain by chain, scores strictly decreasing 1 > 2 > 3 hops: ${r.strictScores}/${r.chains} chains; levels: ` +
      `${r.strictLevels}/${r.chains} (funds traced whole stay critical: docs/decisions/0011); mean scores ${meanOrder(r)}`,
    "",
    `Pairwise ordering of scores: ${orderingText(r)}`,
    "",
    "False alerts on ordinary users (the background sample), by hops to the nearest sanctioned, illicit or mixer address,",
    "and on ordinary users dusted by sanctioned and mixer addresses:",
    ...alertLines(r),
    `  patterns reported on dusted users (not scored): ${dustedText(r)}`,
    `  alerted: ${list(r.falseAlerts.flatMap((row) => row.alerted.map((id) => `${id} (${row.distance})`)))}`,
    "",
    `Deposit-address inference: ${depositText(r)}`,
    `Scan time: ${ordinaryText(run)}`,
    "",
    `missed: ${list(r.missed)}`,
    `false alarms: ${list(r.falseAlarms)}`,
    `failed scans: ${r.failed.length}${r.failed.length ? ` (${r.failed[0]?.id}: ${r.failed[0]?.error})` : ""}; ` +
      `graphs the expansion limited (degree limit or budgets), cases per pattern: ${truncatedText(r)}`,
    `scans: ${batchText(run)}`,
    `phases: ${phasesText(run)}`,
    r.passed
      ? `All targets met on ${chainName(run.chain)}.`
      : `Some targets missed on ${chainName(run.chain)}.`,
  ].join("\n");
}

/**
 * The chain's part of docs/benchmarks.md's eval section: the first chain's carries the section's title and the
 * description of the benchmark, the next ones a heading of their own.
 */
function renderMarkdown(r: EvalReport, run: ChainRun, totalMs: number, first: boolean): string {
  const m = machine();
  const { generated } = run;
  const c = generated.counts;
  const n = (x: number) => x.toLocaleString("en-US");
  const patternCases = generated.cases.filter((x) =>
    (PATTERNS as readonly string[]).includes(x.pattern),
  ).length;
  const background = generated.cases.filter((x) => x.pattern === "background").length;
  const dusted = generated.cases.filter((x) => x.pattern === "dusted").length;
  const sanctions = generated.cases.filter((x) => x.pattern === "sanctions_exposure").length;
  const subjects = new Set(generated.cases.map((x) => x.subject)).size;
  const introduction = [
    "## eval: detection quality on the generated benchmark",
    "",
    "Generated by `npm run eval` (eval/run.ts). The benchmark world (eval/world, documented in",
    "[eval.md](eval.md)) is a year of ordinary traffic (users onboarded from exchanges, salaries, merchants, friends,",
    "DEX swaps, exchange deposits and withdrawals; log-normal amounts, heavy-tailed activity; busy unlabelled",
    "addresses with thousands of counterparties; ordinary users dusted by sanctioned and mixer addresses) into which every",
    "pattern of docs/risk-model.md is woven: positives with parameters across the whole range of each definition, and",
    "near misses just outside it (the false friends), whose wallets also live ordinary lives with the same users,",
    "merchants and exchanges. It is written as an ethereum-etl export by eval/world/etl.ts, imported into a",
    "fresh embedded database of the real service (child process) with the real CLI (`vigia import etl`,",
    "`import tags`, `import prices`, through the service's socket bridge), and every case's subject is scanned",
    `through \`POST /v1/projects/{projectId}/addresses/scan-risk\` (batches of ${BATCH} in a seeded random order, maxDepth ${depth},`,
    "skipExisting false). Scoring (eval/scoring/score.ts): a positive of P is a TP when P is among the result's",
    "`patterns`, else an FN; P reported on a near miss of P (FP-nm) or on a background user (FP-bg, every background",
    "user is a negative for all seven patterns) is an FP. Targets: precision ≥ 0.95 and recall ≥ 0.90 for every",
    "pattern; scores falling pairwise with the hops from a sanctioned address down to clean users (≥ 0.95 of pairs),",
    "one hop always critical; few false alerts on ordinary users near risky addresses (table below); deposit",
    "addresses inferred at precision ≥ 0.98 and recall ≥ 0.90. The same world is measured on an EVM chain and on a",
    "Tron-kind chain (ETH written as TRX with 6 decimals at the same USD value, USDV as USDT at USD 1, addresses",
    "scanned in base58check; docs/eval.md), one after the other in the same service; each must meet every target.",
    "",
  ];
  return [
    ...(first ? introduction : []),
    `### On ${chainName(run.chain)}`,
    "",
    `Seed ${options.seed}; ${options.perPattern} positives and ${options.perPattern} near misses per pattern ` +
      `(${n(patternCases)} pattern cases), ${n(background)} background users, ${n(dusted)} dusted users, ${n(sanctions / 3)} sanctions chains ` +
      `(${n(sanctions)} cases); ${n(subjects)} addresses scanned. Population: ${n(options.users)} users, ` +
      `${n(options.transfers)} everyday transfers. Export: ${n(c.transactions)} transactions (${n(c.nativeTransfers)} ` +
      `native transfers), ${n(c.tokenTransfers)} token transfers, ${n(c.blocks)} blocks, ${n(c.labels)} labels, ` +
      `${n(c.prices)} daily prices.`,
    `Run on ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.date} (load average ${m.load}), in ${seconds(totalMs)}: ` +
      `${phasesText(run)}. Scans: ${batchText(run)}.`,
    "",
    "| Pattern | Positives | Near misses | TP | FN | FP (near misses) | FP (background) | TN | Precision | Recall | F1 | Meets targets |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...PATTERNS.map((p) => {
      const q = r.quality[p];
      return `| ${p} | ${q.positives} | ${q.nearMisses} | ${q.tp} | ${q.fn} | ${q.fpNearMiss} | ${q.fpBackground} | ${q.tn} | ${f3(q.precision)} | ${f3(q.recall)} | ${f3(q.f1)} | ${q.passed ? "yes" : "**no**"} |`;
    }),
    "",
    "Per variant (pattern reported / cases):",
    "",
    "| Pattern | Positives | Near misses |",
    "| --- | --- | --- |",
    ...variantLines(r).map((v) => `| ${v.pattern} | ${v.positives || "—"} | ${v.nearMisses || "—"} |`),
    "",
    `Other patterns reported on a pattern's cases (not scored: a case may also be an instance of another pattern): ${
      crossLines(r).join("; ") || "none"
    }.`,
    "",
    `Sanctions exposure, ${r.chains} chains (sanctioned → hop 1 → hop 2 → hop 3):`,
    "",
    "| Distance | Cases | Mean score | Levels |",
    "| --- | ---: | ---: | --- |",
    ...r.distances.map(
      (d) =>
        `| ${d.hops} hop${d.hops > 1 ? "s" : ""} | ${d.cases} | ${d.meanScore.toFixed(1)} | ${levelText(d.levels)} |`,
    ),
    "",
    `Chain by chain, scores strictly decreasing with distance in ${r.strictScores} of ${r.chains} chains, levels in ` +
      `${r.strictLevels} of ${r.chains} (funds traced whole from a sanctioned address stay critical: ` +
      `docs/decisions/0011); mean scores ${meanOrder(r)}.`,
    `Pairwise ordering of scores (every pair of cases at adjacent distances; clean: ordinary users more than 3 hops ` +
      `from any risky address): ${orderingText(r)}.`,
    "",
    "False alerts on ordinary users (the background sample), by hops to the nearest sanctioned, illicit or mixer address",
    "(along transfers that follow each other in time, in either direction, not through services, dust aside;",
    "docs/eval.md), and on dusted users (ordinary users far from the risky side sent USD 0.5-5, unsolicited, by",
    "sanctioned and mixer addresses):",
    "",
    "| Distance | Users | Medium or above | Critical | Levels | Target | Met |",
    "| --- | ---: | ---: | ---: | --- | --- | --- |",
    ...r.falseAlerts.map(
      (row) =>
        `| ${row.distance === "dusted" ? "dusted users" : row.distance} | ${row.users} | ${row.mediumOrAbove} (${pctText(row.mediumOrAbove, row.users)}) | ${row.critical} (${pctText(row.critical, row.users)}) | ${levelText(row.levels)} | ${targetText(row)} | ${row.passed ? "yes" : "**no**"} |`,
    ),
    "",
    `Patterns reported on dusted users (not scored): ${dustedText(r)}.`,
    "",
    `Deposit-address inference (src/attribution, against the world's unlabelled deposit addresses): ${depositText(r)}.`,
    "",
    `Scan time: ${ordinaryText(run)}.`,
    "",
    `Missed: ${list(r.missed)}. False alarms: ${list(r.falseAlarms)}. ` +
      `Failed scans: ${r.failed.length}. Graphs the expansion limited (degree limit or budgets: \`truncated\`), ` +
      `cases per pattern: ${truncatedText(r)}.`,
    `Result: ${r.passed ? "all targets met" : "**some targets missed**"} (targets: precision ≥ ${TARGET.precision}, recall ≥ ${TARGET.recall} per pattern; the pairwise ordering; the false-alert rates; the deposit inference).`,
  ].join("\n");
}
