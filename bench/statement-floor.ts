// What the database alone spends on the statements the risk endpoints must run, for bench/risk-endpoints.ts: how
// much of a scan's or a quick check's time no change above the database can win back.
//
// - A scan's layers: each layer statement of an expansion that has run (the same frontier, in the same order, with
//   the same per-address cap, as src/analysis/graph/layer.ts read it), under EXPLAIN (ANALYZE, TIMING OFF): the
//   engine's own planning and execution, without the driver, the wire or the JavaScript that reads the rows. The
//   best of two runs, on a warm cache, as the scans that follow find it.
// - Quick checks: the two statements of a check (the root's facts, its depth-1 layer), run for a list of addresses
//   in groups of `batch`, as the service coalesces them under load (src/ledger/layer-read.ts), one group at a time:
//   the time per check of that work as this process sees it. PGlite runs one statement at a time on the thread
//   that calls it, so 1,000 / (that time) is the most checks per second its engine can serve, whatever the rest of
//   the service costs.
import { CompiledQuery, type Kysely } from "kysely";
import type { LayerReport } from "../src/analysis/graph/layer.ts";
import { layerQuery, readAddressFacts } from "../src/ledger/layer-read.ts";
import type { TxGraph } from "../src/risk/graph/types.ts";
import type { DB } from "../src/schema.ts";

interface PlanSummary {
  "Planning Time": number;
  "Execution Time": number;
}

async function explainMs(db: Kysely<DB>, query: CompiledQuery): Promise<number> {
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(
      `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${query.sql}`,
      query.parameters as unknown[],
    ),
  );
  const cell = Object.values(rows[0] ?? {})[0];
  const [plan] = (typeof cell === "string" ? JSON.parse(cell) : cell) as PlanSummary[];
  if (!plan) throw new Error("EXPLAIN returned no plan");
  return plan["Planning Time"] + plan["Execution Time"];
}

/** Milliseconds the engine spends on the layer statements of an expansion that produced `graph` and `layers`. */
export async function layerStatementsMs(
  db: Kysely<DB>,
  graph: TxGraph,
  layers: readonly LayerReport[],
): Promise<number> {
  let total = 0;
  for (const layer of layers) {
    if (layer.statements === 0) continue;
    // A layer expands the nodes of its depth; each is marked expanded once it has been.
    const frontier = [...graph.nodes.values()]
      .filter((node) => node.depth === layer.depth && node.expanded)
      .map((node) => node.address)
      .sort();
    const query = layerQuery({
      chainId: graph.chainId,
      frontier,
      window: graph.window ?? {},
      cap: layer.cap,
    }).compile(db);
    const runs = [await explainMs(db, query), await explainMs(db, query)];
    total += Math.min(...runs);
  }
  return total;
}

/** Milliseconds per check of a quick check's two statements, `batch` addresses per statement; best of 2 rounds. */
export async function quickStatementsMsPerCheck(
  db: Kysely<DB>,
  chainId: number,
  addresses: readonly string[],
  perDirection: number,
  batch: number,
): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < 2; round++) {
    const started = performance.now();
    for (let i = 0; i < addresses.length; i += batch) {
      const group = [...new Set(addresses.slice(i, i + batch))];
      await readAddressFacts(db, chainId, group);
      await layerQuery({ chainId, frontier: group, window: {}, cap: perDirection }).execute(db);
    }
    rounds.push((performance.now() - started) / addresses.length);
  }
  return Math.min(...rounds);
}
