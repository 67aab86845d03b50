// The expansion reads a swap's transaction whole when a frontier address transfers with a contract (the router, a
// pool), so that the conversion's other party is in the graph and followed: a sanctioned sender of a swap whose
// recipient is the client, a peel chain that goes on after a swap. Over the real store (PGlite, and PostgreSQL with
// DATABASE_URL), as the scans read it.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandGraph } from "../../src/analysis/graph/index.ts";
import { analyseGraph } from "../../src/risk/index.ts";
import type { DB } from "../../src/schema.ts";
import { DAY, HOUR, SCENARIO_START, World, writeWorldToStore } from "../../src/worlds/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const CHAIN = 31_337;
const T = SCENARIO_START + 10 * DAY;

const world = new World("conversion-expansion");
const router = world.contract("router", { label: "Uniswap V2: Router 2", category: "defi" });
const pool = world.contract("pool");
const dex = { router, pool };
const lazarus = world.account("lazarus", { label: "OFAC SDN: Lazarus Group", category: "sanctioned" });
const exchange = world.account("exchange", { label: "Bitso 1", category: "exchange" });
// A sanctioned address swaps ETH for USDV with the client as recipient; the client also has a salary.
const client = world.account("client");
const employer = world.account("employer");
world.sendUsd(employer, client, "USDV", 3_000, T - 5 * DAY);
world.swapUsd(lazarus, client, dex, "ETH", "USDV", 20_000, T);
// Someone else swapped through the same pool: not the client's business.
const other = world.account("other");
world.sendUsd(exchange, other, "ETH", 2_000, T - DAY);
world.swapUsd(other, other, dex, "ETH", "USDV", 1_500, T + HOUR);
// A peel chain whose first hop swaps its ETH to USDV with the second hop as recipient.
const hops = [1, 2, 3, 4].map((i) => world.account(`hop${i}`));
world.sendUsd(exchange, hops[0]!, "ETH", 40_000, T);
let usd = 40_000;
for (let i = 0; i < 3; i++) {
  const at = T + (i + 1) * 6 * HOUR;
  world.sendUsd(hops[i]!, world.account(`peel${i}`), i === 0 ? "ETH" : "USDV", usd * 0.08, at);
  if (i === 0) world.swapUsd(hops[0]!, hops[1]!, dex, "ETH", "USDV", usd * 0.9, at + 60);
  else world.sendUsd(hops[i]!, hops[i + 1]!, "USDV", usd * 0.9, at + 60);
  usd *= 0.9;
}
world.sendUsd(hops[3]!, world.account("end"), "USDV", usd * 0.9, T + 30 * HOUR);
world.sendUsd(hops[3]!, world.account("peel3"), "USDV", usd * 0.05, T + 30 * HOUR);

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Kysely<DB>;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  await writeWorldToStore(db, world, CHAIN);
});
afterAll(async () => {
  await database?.drop();
});

const expand = (root: string, maxDepth: number, options = {}) =>
  expandGraph(db, { chainId: CHAIN, roots: [root], maxDepth }, options);

describe("conversions in the expansion", () => {
  it("reads the swap whole: the sanctioned sender is the client's direct counterparty", async () => {
    const { graph, layers } = await expand(client.address, 1);
    expect(layers[0]?.conversions).toMatchObject({ txs: 1, conversions: 1, skipped: 0 });
    expect(graph.nodes.get(lazarus.address)).toMatchObject({ type: "sanctioned", depth: 1 });
    const analysis = analyseGraph(graph, client.address);
    expect(analysis.level).toBe("critical");
    const entry = analysis.exposure.entries.find((e) => e.category === "sanctioned");
    expect(entry).toMatchObject({ direction: "incoming", hops: 1, conversions: ["Uniswap V2: Router 2"] });
    // The other swapper of the pool is not read: its transaction is not the client's.
    expect(graph.nodes.has(other.address)).toBe(false);
  });

  it("misses it when no transaction is read whole (what the read adds)", async () => {
    const { graph } = await expand(client.address, 1, { maxConversionTxs: 0 });
    expect(graph.nodes.has(lazarus.address)).toBe(false);
    expect(analyseGraph(graph, client.address).level).not.toBe("critical");
  });

  it("follows the swap's recipient as the next hop of a peel chain", async () => {
    const { graph } = await expand(hops[0]!.address, 3);
    expect(graph.nodes.get(hops[1]!.address)).toMatchObject({ depth: 1, expanded: true });
    const analysis = analyseGraph(graph, hops[0]!.address);
    expect(analysis.patterns).toContain("peel_chain");
    const without = await expand(hops[0]!.address, 3, { maxConversionTxs: 0 });
    expect(analyseGraph(without.graph, hops[0]!.address).patterns).not.toContain("peel_chain");
  });
});
