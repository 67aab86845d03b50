// `npm run eval -- utxo-patterns` (eval/utxo-patterns): the detectors of peel chains, structuring and exchange
// hopping on Bitcoin data. Each seed's world (world.ts) is imported into a fresh store as `vigia serve` imports the
// Bitcoin devnet (the bitcoin-etl import: transactions projected by value, CoinJoins, clusters, deposit addresses
// inferred from the sweeps), then every case's address is scanned at depth 3 through the API, in batches of 50, as
// a customer would. Reported: recall per pattern and variant, near misses read as their pattern, and ordinary
// users (busy spenders, old wallets, the rest) read as any of the three. Prints the tables and writes them into
// docs/benchmarks.md between `<!-- bench:utxo-patterns-eval -->` markers; exits 1 when a target (TARGETS) is missed.
//
// Flags: --seeds 11,12,13 (one world per seed; the tables add them up), --users N (160), --instances N (6 of each
// variant), --no-report. PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { machine, ROOT, upsertSection } from "../../bench/support.ts";
import { BITCOIN_DEVNET_CHAIN_ID, BUILT_IN_CHAINS } from "../../src/chains/index.ts";
import { importBitcoinDevnet } from "../../src/devnet/bitcoin-devnet.ts";
import { auth, startTestService } from "../../test/support/service.ts";
import { type Scanned, scoreUtxoPatterns, type UtxoPatternReport } from "./score.ts";
import { utxoPatternWorld } from "./world.ts";

/** What the eval must show: each pattern found, near misses and ordinary users left alone. */
export const TARGETS = { recall: 0.8, nearMissFalseAlarms: 0.1, backgroundFalseAlarms: 0.05 } as const;

const DEPTH = 3;
const BATCH = 50;

export function passed(r: UtxoPatternReport): boolean {
  return r.patterns.every(
    (p) =>
      p.recall >= TARGETS.recall &&
      p.nearMissFalseAlarmRate <= TARGETS.nearMissFalseAlarms &&
      p.backgroundFalseAlarmRate <= TARGETS.backgroundFalseAlarms,
  );
}

/** One seed's world, imported into a fresh store and scanned; the scans by address. */
export async function scanWorld(seed: number, users: number, instances: number) {
  const generated = utxoPatternWorld({ seed, users, instances });
  const chain = BUILT_IN_CHAINS.find((c) => c.id === BITCOIN_DEVNET_CHAIN_ID);
  const svc = await startTestService({ env: { VIGIA_LOG_LEVEL: "silent" }, chains: [chain] });
  try {
    await importBitcoinDevnet(svc.database, { world: generated.world });
    const subjects = [...new Set(generated.cases.map((c) => c.subject))];
    const scanned = new Map<string, Scanned>();
    for (let i = 0; i < subjects.length; i += BATCH) {
      const res = await svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
        headers: auth(svc.project.keys.developer),
        payload: {
          addresses: subjects
            .slice(i, i + BATCH)
            .map((address) => ({ address, chainId: String(BITCOIN_DEVNET_CHAIN_ID) })),
          maxDepth: DEPTH,
          skipExisting: false,
        },
      });
      if (res.statusCode !== 200) throw new Error(`scan-risk: HTTP ${res.statusCode}: ${res.body}`);
      for (const r of res.json().data.results as (Scanned & { address: string })[]) scanned.set(r.address, r);
    }
    return { cases: generated.cases, scanned, transactions: generated.world.txs.length };
  } finally {
    await svc.stop();
  }
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function renderMarkdown(
  r: UtxoPatternReport,
  seeds: number[],
  users: number,
  instances: number,
): string {
  const m = machine();
  return [
    "## utxo-patterns-eval: peel chains, structuring and exchange hopping on Bitcoin",
    "",
    `\`npm run eval -- utxo-patterns\` (eval/utxo-patterns; ${seeds.length} worlds, seeds ${seeds.join(", ")}, ` +
      `${users} users and ${instances} instances of each variant each): ${r.transactions} transactions, ` +
      `${r.scanned} addresses scanned at depth ${DEPTH}. Run on ${m.cpu}, ${m.cores} cores, Node ${m.node}. ` +
      `Result: **${passed(r) ? "all targets met" : "some targets missed"}** (targets: recall at least ` +
      `${TARGETS.recall}, near misses read as the pattern at most ${pct(TARGETS.nearMissFalseAlarms)}, ordinary ` +
      `users at most ${pct(TARGETS.backgroundFalseAlarms)}: docs/eval.md, "Patterns on Bitcoin").`,
    "",
    "| Pattern | Positives | Found | Recall | Near misses | Read as it | Ordinary users | Read as it |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...r.patterns.map(
      (p) =>
        `| ${p.pattern} | ${p.positives} | ${p.found} | ${p.recall.toFixed(3)} | ${p.nearMisses} | ` +
        `${p.nearMissFalseAlarms} | ${r.background} | ${p.backgroundFalseAlarms} |`,
    ),
    "",
    "| Pattern | Variant | Cases | Read as the pattern |",
    "| --- | --- | ---: | ---: |",
    ...r.variants.map(
      (v) => `| ${v.pattern} | ${v.variant}${v.positive ? "" : " (near miss)"} | ${v.cases} | ${v.hits} |`,
    ),
    "",
    `Ordinary users read as a pattern, by kind: ${
      r.backgroundByKind.map((k) => `${k.kind} ${k.hits} of ${k.users}`).join(", ") || "none"
    }; their levels: ${
      Object.entries(r.backgroundHitLevels)
        .map(([level, n]) => `${level} ${n}`)
        .join(", ") || "none"
    }.`,
  ].join("\n");
}

export async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seeds: { type: "string", default: "11,12,13" },
      users: { type: "string", default: "160" },
      instances: { type: "string", default: "6" },
      "no-report": { type: "boolean", default: false },
    },
    strict: true,
  });
  const seeds = values.seeds.split(",").map((t) => Number(t.trim()));
  const users = Number(values.users);
  const instances = Number(values.instances);
  for (const [name, n, min] of [
    ...seeds.map((seed) => ["seeds", seed, 0] as const),
    ["users", users, 20],
    ["instances", instances, 1],
  ] as const) {
    if (!Number.isSafeInteger(n) || n < min) {
      process.stderr.write(`eval utxo-patterns: --${name} must be an integer >= ${min}\n`);
      process.exit(2);
    }
  }
  const started = performance.now();
  const runs = [];
  for (const seed of seeds) {
    process.stderr.write(`eval utxo-patterns: world ${seed}…\n`);
    runs.push(await scanWorld(seed, users, instances));
  }
  const report = scoreUtxoPatterns(runs);
  const markdown = renderMarkdown(report, seeds, users, instances);
  process.stdout.write(`${markdown}\n\n(${((performance.now() - started) / 1000).toFixed(1)} s)\n`);
  if (!values["no-report"]) {
    const file = path.join(ROOT, "docs", "benchmarks.md");
    fs.writeFileSync(file, upsertSection(fs.readFileSync(file, "utf8"), "utxo-patterns-eval", markdown));
    process.stderr.write("eval utxo-patterns: wrote the utxo-patterns-eval section of docs/benchmarks.md\n");
  }
  if (!passed(report)) process.exitCode = 1;
}
