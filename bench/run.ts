// `npm run bench`: runs every benchmark (or those named as arguments, e.g. `npm run bench -- http-chain-detail`),
// prints their figures, and rewrites their sections of docs/benchmarks.md. Exits 1 when a benchmark misses
// its targets; the report is written either way.
import path from "node:path";
import { exchangeOperationsBenchmark } from "./exchange-operations.ts";
import { expansionBenchmark } from "./expansion.ts";
import { fleetBenchmark } from "./fleet.ts";
import { httpChainDetail } from "./http-chain-detail.ts";
import { importBtcBenchmark } from "./import-btc.ts";
import { importEtlBenchmark } from "./import-etl.ts";
import { indexerBenchmark, tronIndexerBenchmark } from "./indexer.ts";
import { layersBenchmark } from "./layers.ts";
import { lpbAvisosSection } from "./lpb-avisos.ts";
import { monitoringBenchmark } from "./monitoring.ts";
import { quickCheckBenchmark } from "./quick-check.ts";
import { rescreenBenchmark } from "./rescreen.ts";
import { riskEndpointsBenchmark } from "./risk-endpoints.ts";
import { screeningBenchmark } from "./screening.ts";
import { type Benchmark, machine, ROOT, writeReport } from "./support.ts";
import { viewerRenderBenchmark } from "./viewer-render.ts";

const BENCHMARKS: Benchmark[] = [
  httpChainDetail,
  indexerBenchmark,
  tronIndexerBenchmark,
  importEtlBenchmark,
  importBtcBenchmark,
  expansionBenchmark,
  quickCheckBenchmark,
  riskEndpointsBenchmark,
  layersBenchmark,
  viewerRenderBenchmark,
  monitoringBenchmark,
  exchangeOperationsBenchmark,
  fleetBenchmark,
  rescreenBenchmark,
  screeningBenchmark,
  {
    name: "screening-lpb",
    title: "an LPB naming 100 of 100,000 monitored clients: until the last 24-hour aviso is written",
    run: lpbAvisosSection,
  },
];
/** A name that runs others too: `screening` is the persons' screening and the LPB's avisos. */
const INCLUDES: Record<string, string[]> = { screening: ["screening-lpb"] };
const REPORT = path.join(ROOT, "docs", "benchmarks.md");

const started = Date.now();
const names = process.argv.slice(2);
const unknown = names.filter((n) => !BENCHMARKS.some((b) => b.name === n));
if (unknown.length) {
  console.error(
    `unknown benchmark(s): ${unknown.join(", ")}; known: ${BENCHMARKS.map((b) => b.name).join(", ")}`,
  );
  process.exit(2);
}
// BENCH_SKIP leaves out benchmarks a name would include (re-measuring one part after a change to it alone).
const skipped = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
const wanted = new Set(names.flatMap((n) => [n, ...(INCLUDES[n] ?? [])]).filter((n) => !skipped.has(n)));
const selected = names.length ? BENCHMARKS.filter((b) => wanted.has(b.name)) : BENCHMARKS;

const m = machine();
console.log(`${m.cpu}, ${m.cores} cores, ${m.memory}, Node ${m.node}, ${m.date}, load average ${m.load}`);

const sections: { name: string; markdown: string }[] = [];
let allPassed = true;
for (const benchmark of selected) {
  console.log(`\n== ${benchmark.name}: ${benchmark.title}`);
  const { markdown, passed } = await benchmark.run();
  sections.push({ name: benchmark.section ?? benchmark.name, markdown });
  allPassed &&= passed;
}
writeReport(REPORT, m, sections);
console.log(
  `\nWrote ${path.relative(process.cwd(), REPORT)} in ${Math.round((Date.now() - started) / 1000)} s: ` +
    (allPassed ? "all targets met" : "some targets missed"),
);
if (!allPassed) process.exitCode = 1;
