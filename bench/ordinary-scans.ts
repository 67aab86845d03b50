// The scans users actually send, for bench/risk-endpoints.ts: 50 ordinary users drawn at random (seeded) among the
// store's active externally owned addresses (every address with a transfer that is not a contract and carries no
// label), at depth 3 and at depth 5. Their counterparties include the exchanges and unlabelled hubs, whose own
// thousands of counterparties fill the budgets: the picked classes of the mixed scans hide that.
//
// Beside the wall time the service answers in, each scan is taken apart in this process on the same store, as
// src/analysis/run.ts and scan.ts run it:
// - database: the engine's own time on the layer statements (EXPLAIN ANALYZE; bench/statement-floor.ts), the floor;
// - decoding: the layer statements as the expansion waited for them, less the engine's time (the wire and the
//   driver turning rows into objects);
// - expansion: the rest of the expansion (building nodes and edges, budgets, the frontier);
// - risk core: analyseRootsIndexed over the whole multi-root graph;
// - serialisation: the 50 stored results and the HTTP answer as JSON text.
import { type Kysely, sql } from "kysely";
import type { AnalysisContext } from "../src/analysis/context.ts";
import { type ExpansionOverrides, expandGraph } from "../src/analysis/graph/index.ts";
import { publicResult, scanResultOf } from "../src/analysis/result.ts";
import { riskConfigFor } from "../src/analysis/thresholds.ts";
import { analyseRootsIndexed } from "../src/risk/index.ts";
import type { DB } from "../src/schema.ts";
import { layerStatementsMs } from "./statement-floor.ts";

export const ORDINARY_DEPTHS = [3, 5] as const;

export interface ScanSplit {
  nodes: number;
  edges: number;
  truncated: string;
  databaseMs: number;
  decodingMs: number;
  expansionMs: number;
  riskMs: number;
  serialisationMs: number;
}

/**
 * `count` sets of `size` ordinary users: active EOAs, unlabelled, in an order fixed by `seed` (md5 of the address
 * and the seed, so both databases and every run draw the same ones).
 */
export async function ordinaryUserSets(
  db: Kysely<DB>,
  chainId: number,
  seed: number,
  count: number,
  size: number,
): Promise<string[][]> {
  const { rows } = await sql<{ address: string }>`
    SELECT f.address FROM address_facts f
    WHERE f.chain_id = ${chainId} AND NOT f.is_contract
      AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.address = f.address)
    ORDER BY md5(f.address || ${String(seed)})
    LIMIT ${count * size}`.execute(db);
  const addresses = rows.map((r) => r.address);
  if (addresses.length < count * size)
    throw new Error(`the store has ${addresses.length} ordinary users, fewer than ${count * size}`);
  return Array.from({ length: count }, (_, i) => addresses.slice(i * size, (i + 1) * size));
}

/** Where one scan's time goes (see the header), with the budgets the service gives a scan of these roots. */
export async function splitScan(
  db: Kysely<DB>,
  chainId: number,
  roots: string[],
  maxDepth: number,
  budget: { maxNodes: number; maxEdges: number },
  jsonRows: boolean,
  /** other expansion options (before/after comparisons); the service's defaults otherwise */
  overrides: ExpansionOverrides = {},
): Promise<ScanSplit> {
  let t = performance.now();
  const { graph, layers } = await expandGraph(
    db,
    { chainId, roots, maxDepth },
    { ...overrides, budget, native: { symbol: "ETH", decimals: 18 }, jsonRows },
  );
  const expandMs = performance.now() - t;
  const readMs = layers.reduce((sum, layer) => sum + layer.readMs, 0);
  const databaseMs = await layerStatementsMs(db, graph, layers);

  const ctx = { db } as unknown as AnalysisContext;
  const config = await riskConfigFor(ctx, 0, graph);
  t = performance.now();
  const { analyses } = analyseRootsIndexed(graph, config);
  const riskMs = performance.now() - t;

  t = performance.now();
  const metrics = { nodes: graph.nodes.size, edges: graph.edges.length, durationMs: 0 };
  // The coverage an indexed chain's verdict carries, for its share of the serialisation.
  const coverage = {
    chainId: String(chainId),
    source: "index" as const,
    current: true,
    dataFrom: null,
    dataUntil: null,
    block: "0",
    lagBlocks: 0,
    transfersRead: graph.edges.length,
    note: "Indexed up to block 0, 0 blocks behind the node's head.",
  };
  const stored = analyses.map((a) =>
    scanResultOf("00000000-0000-4000-8000-000000000000", chainId, maxDepth, a, metrics, coverage),
  );
  for (const result of stored) JSON.stringify(result);
  JSON.stringify({ success: true, data: { results: stored.map((s) => publicResult(s)) } });
  const serialisationMs = performance.now() - t;

  const truncated = Object.entries(graph.truncated)
    .filter(([, v]) => v)
    .map(([k]) => k)
    .join(", ");
  return {
    nodes: graph.nodes.size,
    edges: graph.edges.length,
    truncated: truncated || "none",
    databaseMs,
    decodingMs: Math.max(0, readMs - databaseMs),
    expansionMs: expandMs - readMs,
    riskMs,
    serialisationMs,
  };
}
