// Benchmark `layers`: a depth-7 incremental analysis (an investigation with `incremental: true`) on the store of
// bench/risk-store.ts (5,000,000 transfers by default, BENCH_RISK_TRANSFERS), on PGlite (a data dir) and on
// PostgreSQL, as the service runs it: the real service in this process with its workers (durable layer jobs on
// pg-boss), the investigation created through its HTTP API, the analysis row watched every 20 ms. Per layer it
// reports the layer's own processing time (layerMetadata.processingTimeMs: read state, one expansion statement,
// the risk core over the cumulative graph, build the layer) and the wall time between two layers' commits (that,
// plus the commit itself and the job hand-over); and the total from the POST to `completed`.
// Roots: BENCH_LAYERS_ROOTS (default 3) of the busiest users and as many from the tail, drawn with a fixed seed.
// No target: the figures are recorded.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { CompletedLayer } from "../src/analysis/index.ts";
import { createProject } from "../src/keys/index.ts";
import { loadConfig } from "../src/platform/config.ts";
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import { Rng } from "../src/platform/rng.ts";
import { startService } from "../src/service.ts";
import { ADDRESS_CLASSES, benchAddress, generateRiskStore, TRANSFERS } from "./risk-store.ts";
import type { Benchmark } from "./support.ts";

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const ROOTS = Number(process.env.BENCH_LAYERS_ROOTS || 3);
const DEPTH = 7;
const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${int(n)} ms`;

interface RootRun {
  kind: string;
  address: string;
  totalMs: number;
  layers: {
    layer: number;
    nodes: number;
    edges: number;
    newNodes: number;
    newEdges: number;
    processingMs: number;
    wallMs: number;
    patterns: number;
    score: number;
  }[];
  truncated: string;
}

async function runOn(
  label: string,
  target: { databaseUrl?: string; dataDir: string; schema?: string },
): Promise<RootRun[]> {
  // 1. The store, generated into a fresh migrated database, closed again before the service opens it.
  const store = await openDatabase<unknown>({
    databaseUrl: target.databaseUrl,
    dataDir: target.dataDir,
    schema: target.schema,
  });
  await migrate(store as never);
  const started = performance.now();
  await generateRiskStore(store, (line) => console.log(`[${label}]${line}`));
  console.log(
    `[${label}] store of ${int(TRANSFERS)} transfers generated in ${int((performance.now() - started) / 1000)} s`,
  );
  await store.close();

  // 2. The service, with its workers, on that store.
  const chains = path.join(os.tmpdir(), `vigia-bench-chains-${crypto.randomBytes(4).toString("hex")}.json`);
  fs.writeFileSync(chains, JSON.stringify([{ id: 1, name: "Ethereum", currency_symbol: "ETH" }]));
  const config = loadConfig({
    VIGIA_SECRET: crypto.randomBytes(32).toString("base64"),
    VIGIA_LOG_LEVEL: "warn",
    // The lists' scheduled refresh (an internet download) is no part of what is measured.
    VIGIA_LIST_REFRESH_HOURS: "0",
    VIGIA_CHAINS: chains,
    VIGIA_RATE_LIMIT_PER_MINUTE: "1000000",
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : { VIGIA_DATA_DIR: target.dataDir }),
  });
  const service = await startService(config, {
    http: true,
    workers: true,
    ...(target.schema ? { schema: target.schema } : {}),
    jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 5 },
  });
  const runs: RootRun[] = [];
  try {
    const project = await createProject(service.keys, { name: "Bench" }, { kind: "cli" });
    const generator = new Rng(7);
    const random = () => generator.next();
    const roots = [
      ...Array.from({ length: ROOTS }, () => ({
        kind: "busy user",
        address: benchAddress(ADDRESS_CLASSES.busy(random)),
      })),
      ...Array.from({ length: ROOTS }, () => ({
        kind: "tail user",
        address: benchAddress(ADDRESS_CLASSES.tail(random)),
      })),
    ];
    for (const root of roots) {
      const t0 = performance.now();
      const res = await service.app!.inject({
        method: "POST",
        url: `/v1/projects/${project.projectId}/investigations`,
        headers: { "x-api-key": `ApiKey ${project.key}` },
        payload: {
          name: `bench ${root.kind}`,
          wallet: root.address,
          chainId: 1,
          incremental: true,
          maxDepth: DEPTH,
        },
      });
      if (res.statusCode !== 201) throw new Error(`POST investigations: ${res.statusCode} ${res.body}`);
      const analysisId = res.json().data.analysis_id as string;
      const commits: number[] = [];
      for (;;) {
        const row = await service.database.db
          .selectFrom("analyses")
          .select(["status", "completed_layers", "error"])
          .where("id", "=", analysisId)
          .executeTakeFirstOrThrow();
        while (commits.length < row.completed_layers) commits.push(performance.now() - t0);
        if (row.status === "failed") throw new Error(`analysis failed: ${row.error}`);
        if (row.status === "completed") break;
        await new Promise((r) => setTimeout(r, 20));
      }
      const totalMs = performance.now() - t0;
      const layers: RootRun["layers"] = [];
      let final: CompletedLayer | undefined;
      for (let layer = 0; layer < DEPTH; layer++) {
        const body = await service.app!.inject({
          method: "GET",
          url: `/v1/analysis/${analysisId}/layers/${layer}`,
          headers: { "x-api-key": `ApiKey ${project.key}` },
        });
        const l = body.json().data as CompletedLayer;
        final = l;
        layers.push({
          layer,
          nodes: l.layerMetadata.nodeCount,
          edges: l.layerMetadata.edgeCount,
          newNodes: l.layerMetadata.newNodeCount,
          newEdges: l.layerMetadata.newEdgeCount,
          processingMs: l.layerMetadata.processingTimeMs,
          wallMs: (commits[layer] ?? totalMs) - (layer === 0 ? 0 : (commits[layer - 1] ?? 0)),
          patterns: l.detectedPatterns.length,
          score: l.riskScore ?? Number.NaN, // NaN: a withheld verdict (no current data)
        });
      }
      const truncated = final
        ? Object.entries(final.cumulativeGraph.metadata.truncated)
            .filter(([, v]) => v)
            .map(([k]) => k)
            .join(", ") || "none"
        : "";
      runs.push({ ...root, totalMs, layers, truncated });
      console.log(
        `[${label}] ${root.kind} ${root.address}: ${ms(totalMs)} in all; per layer ` +
          layers.map((l) => `${l.processingMs}`).join(" / ") +
          ` ms; final ${layers.at(-1)?.nodes} nodes, ${layers.at(-1)?.edges} edges`,
      );
    }
  } finally {
    await service.close();
    fs.rmSync(chains, { force: true });
  }
  return runs;
}

function section(label: string, runs: RootRun[]): string {
  const lines = [`### ${label}`, ""];
  lines.push(
    "| Root | Total (POST to completed) | Σ layer processing | Final nodes | Final edges | Budgets that cut it | Final score |",
  );
  lines.push("| --- | ---: | ---: | ---: | ---: | --- | ---: |");
  for (const r of runs) {
    const last = r.layers.at(-1);
    lines.push(
      `| ${r.kind} \`${r.address.slice(0, 10)}…\` | ${ms(r.totalMs)} | ${ms(r.layers.reduce((s, l) => s + l.processingMs, 0))} | ${int(last?.nodes ?? 0)} | ${int(last?.edges ?? 0)} | ${r.truncated} | ${last?.score ?? ""} |`,
    );
  }
  lines.push(
    "",
    "Per layer, median over the roots (processing / wall between commits; nodes and edges after the layer):",
    "",
  );
  lines.push("| Layer | Processing | Wall | Nodes | Edges | New nodes | New edges |");
  lines.push("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length ? (s[(s.length - 1) >> 1] as number) : 0;
  };
  for (let layer = 0; layer < DEPTH; layer++) {
    const at = runs.map((r) => r.layers[layer]).filter((l): l is NonNullable<typeof l> => l !== undefined);
    lines.push(
      `| ${layer} | ${ms(median(at.map((l) => l.processingMs)))} | ${ms(median(at.map((l) => l.wallMs)))} | ${int(median(at.map((l) => l.nodes)))} | ${int(median(at.map((l) => l.edges)))} | ${int(median(at.map((l) => l.newNodes)))} | ${int(median(at.map((l) => l.newEdges)))} |`,
    );
  }
  return lines.join("\n");
}

export const layersBenchmark: Benchmark = {
  name: "layers",
  title: `depth-${DEPTH} incremental analysis, time per layer and in all, on a ${int(TRANSFERS)}-transfer store`,
  async run() {
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ");
    const parts: string[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bench-layers-"));
    try {
      parts.push(section("PGlite (data dir)", await runOn("pglite", { dataDir })));
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
    try {
      parts.push(
        section(
          "PostgreSQL",
          await runOn("postgres", { databaseUrl: POSTGRES_URL, dataDir: "memory://", schema }),
        ),
      );
    } finally {
      const pool = new pg.Pool({ connectionString: POSTGRES_URL });
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      await pool.end();
    }
    const markdown = [
      `## layers: depth-${DEPTH} incremental analysis on a ${int(TRANSFERS)}-transfer store`,
      "",
      "The store of bench/risk-store.ts (the one the quick-check and scan benchmarks use), generated in each",
      "database. The real service in the benchmark's process with its workers: each investigation is created with",
      `\`incremental: true, maxDepth: ${DEPTH}\` through the HTTP API and its layers run as durable jobs (one per layer);`,
      "the analysis row is watched every 20 ms. *Processing* is a layer's own `layerMetadata.processingTimeMs`",
      "(read the state, one expansion statement, the risk core over the cumulative graph, build the layer);",
      "*wall* is the time between two layers' commits (processing plus the commit of the layer and of the next",
      "layer's state, and the job hand-over; on PGlite the watcher's reads wait behind the layer work on its one",
      "connection, so layers that complete between two reads show 0 ms and the wall of the layer before holds them). Default budgets (5,000 nodes, 20,000 edges, 5 s per layer, 50",
      `followed counterparties per node): deep layers add nothing once a budget ends the expansion. Roots: ${ROOTS} of the`,
      `1,000 busiest users and ${ROOTS} from the tail, fixed seed. Load average at the start: ${load}.`,
      "",
      ...parts.flatMap((p) => [p, ""]),
    ].join("\n");
    return { markdown, passed: true };
  },
};
