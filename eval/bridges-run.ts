// The bridge part of `npm run eval` (eval/run.ts): the two chains of eval/world/bridges.ts written as ethereum-etl
// exports with their logs, imported through the real CLI (`vigia import etl` decodes the bridges' events into legs),
// every case's subject scanned on its own chain through the API at the eval's depth, and scored
// (eval/scoring/bridges.ts). Returns the text and the markdown of its tables.
import path from "node:path";
import { Rng } from "../src/platform/rng.ts";
import {
  BRIDGE_TARGETS,
  type BridgeReport,
  type BridgeRow,
  type BridgeScan,
  scoreBridges,
} from "./scoring/bridges.ts";
import {
  BRIDGE_DESTINATION_CHAIN_ID,
  BRIDGE_ORIGIN_CHAIN_ID,
  type BridgeBenchmarkOptions,
  writeBridgeExports,
} from "./world/bridges.ts";
import type { ExportCase } from "./world/etl.ts";

/** The two chains' entries in the eval's chains file. */
export const BRIDGE_CHAIN_CONFIGS = [
  { id: BRIDGE_ORIGIN_CHAIN_ID, name: "Vigía bridge benchmark (origin)", currency_symbol: "ETH" },
  { id: BRIDGE_DESTINATION_CHAIN_ID, name: "Vigía bridge benchmark (destination)", currency_symbol: "ETH" },
];

export interface BridgeRunNeeds {
  work: string;
  options: BridgeBenchmarkOptions;
  depth: number;
  server: { url: string; key: string; projectId: number };
  /** runs the CLI with these arguments; resolves with its stdout */
  vigia(args: string[]): Promise<string>;
  phase<T>(name: string, fn: () => Promise<T> | T): Promise<T>;
  log(text: string): void;
}

const BATCH = 50;

async function scan(
  needs: BridgeRunNeeds,
  chainId: number,
  subjects: string[],
  out: Map<string, BridgeScan>,
): Promise<void> {
  const { url, key, projectId } = needs.server;
  for (let i = 0; i < subjects.length; i += BATCH) {
    const response = await fetch(`${url}/v1/projects/${projectId}/addresses/scan-risk`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": `ApiKey ${key}` },
      body: JSON.stringify({
        addresses: subjects.slice(i, i + BATCH).map((address) => ({ address, chainId: String(chainId) })),
        maxDepth: needs.depth,
        skipExisting: false,
      }),
    });
    if (!response.ok) throw new Error(`scan-risk: HTTP ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { results: (BridgeScan & { address: string })[] } };
    for (const r of data.results) out.set(r.address.toLowerCase(), r);
    needs.log(
      `bridges: scanned ${Math.min(i + BATCH, subjects.length)}/${subjects.length} on chain ${chainId}`,
    );
  }
}

export async function runBridgeBenchmark(
  needs: BridgeRunNeeds,
): Promise<{ report: BridgeReport; text: string; markdown: string }> {
  const dir = path.join(needs.work, "export-bridges");
  const exports = await needs.phase("generate (bridges)", () => writeBridgeExports(dir, needs.options));
  for (const [chainId, at, cases] of [
    [BRIDGE_ORIGIN_CHAIN_ID, exports.originDir, exports.origin],
    [BRIDGE_DESTINATION_CHAIN_ID, exports.destinationDir, exports.destination],
  ] as const) {
    needs.log(
      `bridges: chain ${chainId}: ${cases.counts.transactions} transactions, ${cases.counts.logs} logs, ` +
        `${cases.cases.length} cases`,
    );
    const etl = await needs.phase(`import etl (bridges, ${chainId})`, () =>
      needs.vigia(["import", "etl", "--chain", String(chainId), at]),
    );
    needs.log(`bridges: import etl: ${etl.split("\n").pop()}`);
    await needs.phase(`import tags (bridges, ${chainId})`, () =>
      needs.vigia(["import", "tags", path.join(at, "labels.csv")]),
    );
    await needs.phase(`import prices (bridges, ${chainId})`, () =>
      needs.vigia(["import", "prices", path.join(at, "prices.csv")]),
    );
  }
  const results = new Map<string, BridgeScan>();
  const rng = new Rng(needs.options.seed);
  await needs.phase("scan (bridges)", async () => {
    await scan(
      needs,
      BRIDGE_DESTINATION_CHAIN_ID,
      rng.shuffle(exports.destination.cases.map((c) => c.subject.toLowerCase())),
      results,
    );
    await scan(
      needs,
      BRIDGE_ORIGIN_CHAIN_ID,
      exports.origin.cases.map((c) => c.subject.toLowerCase()),
      results,
    );
  });
  const cases: ExportCase[] = [...exports.destination.cases, ...exports.origin.cases];
  const report = scoreBridges(cases, results);
  return { report, text: renderText(report), markdown: renderMarkdown(report, exports.destination.counts) };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

const found = (row: BridgeRow) =>
  row.pattern === "bridge_gap" ? `gap reported ${row.found}` : row.positive ? `flagged ${row.found}` : "—";

function targets(r: BridgeReport): string {
  const t = BRIDGE_TARGETS;
  return (
    `recall (high or critical) ${r.recall.toFixed(3)} (target ${t.recall}), weakest variant ${r.weakest.variant} ` +
    `${r.weakest.recall.toFixed(3)} (target ${t.variantRecall}); look-alikes and near misses above low ` +
    `${pct(r.lookalikeAboveLow)} (target at most ${pct(t.lookalikeAboveLow)}); plain users above low ` +
    `${pct(r.backgroundAboveLow)} (target at most ${pct(t.backgroundAboveLow)}); gaps reported with their reason ` +
    `${pct(r.gapsReported)} (target ${pct(t.gapsReported)})`
  );
}

function renderText(r: BridgeReport): string {
  return [
    "Bridges (two chains, eval/world/bridges.ts)",
    ...r.rows.map(
      (row) =>
        `  ${row.pattern}${row.pattern === "bridge_exposure" && !row.positive ? " near miss" : ""} ${row.variant}: ` +
        `${row.cases} cases, ${found(row)}, above low ${row.aboveLow}, with a pattern ${row.withPattern}`,
    ),
    `  ${targets(r)}: ${r.passed ? "met" : "MISSED"}`,
    `  missed: ${r.missed.join(", ") || "none"}`,
    `  false alerts: ${r.falseAlerts.join(", ") || "none"}`,
    ...(r.failed.length ? [`  failed: ${r.failed.join(", ")}`] : []),
  ].join("\n");
}

function renderMarkdown(r: BridgeReport, counts: { transactions: number; logs: number }): string {
  return [
    "### Bridges",
    "",
    `Two chains of their own (eval/world/bridges.ts; the destination ${counts.transactions} transactions, ` +
      `${counts.logs} log rows), their legs decoded by \`vigia import etl\` from logs.csv, each case scanned on ` +
      `its own chain (docs/eval.md, "Bridges"). Result: **${r.passed ? "all targets met" : "some targets missed"}**: ` +
      `${targets(r)}.`,
    "",
    "| Cases | Positive | Variant | Scanned | Flagged (high+) or gap reported | Above low | With a pattern |",
    "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ...r.rows.map(
      (row) =>
        `| ${row.pattern} | ${row.positive ? "yes" : "no"} | ${row.variant} | ${row.cases} | ` +
        `${row.positive ? row.found : "—"} | ${row.aboveLow} | ${row.withPattern} |`,
    ),
    "",
    `Missed: ${r.missed.join("; ") || "none."}`,
    "",
    `Above low among look-alikes, near misses and plain users: ${r.falseAlerts.join("; ") || "none."}`,
  ].join("\n");
}
