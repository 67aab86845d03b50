// The crowded stop of the expansion (src/analysis/graph/layer.ts, docs/decisions/0031): a counterparty with at
// least crowdedTransfers transfers is followed only while its path share is at least its transfers divided by
// busyTransfers; below crowdedTransfers the path share alone decides. Runs on the in-memory PGlite and, with
// DATABASE_URL, on PostgreSQL; the counts come from address_facts, as insertTransfers keeps them.
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandGraph } from "../../src/analysis/graph/index.ts";
import { insertTransfers, type TransferRow } from "../../src/chains/store/transfers.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";

const CHAIN = 1;
const T0 = Date.UTC(2024, 2, 1) / 1000;
const ETH = 10n ** 18n;
const address = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** R: the root; Q: its other counterparty; M: a merchant; P_i: the merchant's customers. */
const R = address(1);
const Q = address(2);
const M = address(3);
const S = address(4);
const peer = (i: number) => address(0x1000 + i);
const PEERS = 39;

let seq = 0;
const transfer = (from: string, to: string, minute: number): TransferRow => {
  seq++;
  return {
    chainId: CHAIN,
    txHash: `0x${seq.toString(16).padStart(64, "0")}`,
    logIndex: -1,
    blockNumber: BigInt(1000 + minute),
    blockTime: new Date((T0 + minute * 60) * 1000),
    from,
    to,
    token: "native",
    value: ETH,
  };
};

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Kysely<DB>;

beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db;
  // No prices: every share is taken by count. R has 2 transfers, one with M (share 1/2) and one with Q; M has 40
  // (R's and one with each of 39 customers); Q has 2 (R's and one with S).
  const rows = [transfer(R, M, 0), transfer(Q, R, 1), transfer(S, Q, 2)];
  for (let i = 1; i <= PEERS; i++) rows.push(transfer(M, peer(i), 10 + i));
  await insertTransfers(db, rows);
});
afterAll(async () => {
  await database?.drop();
});

const expand = (roots: string[], maxDepth: number, options = {}) =>
  expandGraph(db, { chainId: CHAIN, roots, maxDepth }, { degreeLimit: 100, ...options });

describe("crowded counterparties", () => {
  it("are followed while their path share is at least their transfers / busyTransfers", async () => {
    // M: 40 transfers, share 1/2. Against 100: 50 >= 40, so M is expanded and its customers are reached.
    const { graph, layers } = await expand([R], 2, { busyTransfers: 100, crowdedTransfers: 10 });
    expect(graph.nodes.get(M)?.expanded).toBe(true);
    for (let i = 1; i <= PEERS; i++) expect(graph.nodes.get(peer(i))?.depth).toBe(2);
    expect(layers[0]?.crowded).toEqual([]);
    expect(graph.nodes.size).toBe(4 + PEERS);
  });

  it("beyond that they are reached, with their transfers with the frontier, but not expanded", async () => {
    // Against 60: 30 < 40, so M is crowded; Q (2 transfers, below crowdedTransfers) is still followed.
    const { graph, layers } = await expand([R], 2, { busyTransfers: 60, crowdedTransfers: 10 });
    expect(layers[0]?.crowded).toEqual([M]);
    expect(layers[0]?.busy).toEqual([]);
    expect(graph.nodes.get(M)).toMatchObject({ depth: 1, expanded: false });
    expect(graph.edges.filter((e) => e.from === M || e.to === M).map((e) => e.from)).toEqual([R]);
    for (let i = 1; i <= PEERS; i++) expect(graph.nodes.has(peer(i))).toBe(false);
    expect(graph.nodes.get(Q)?.expanded).toBe(true);
    expect(graph.nodes.get(S)?.depth).toBe(2);
    expect([...graph.nodes.keys()].sort()).toEqual([R, Q, M, S].sort());
    expect(graph.truncated).toEqual({ nodes: false, edges: false, time: false, degree: false });
  });

  it("below crowdedTransfers the path share alone decides", async () => {
    const { graph, layers } = await expand([R], 2, { busyTransfers: 60, crowdedTransfers: 41 });
    expect(layers[0]?.crowded).toEqual([]);
    expect(graph.nodes.get(M)?.expanded).toBe(true);
    expect(graph.nodes.size).toBe(4 + PEERS);
  });

  it("a root is expanded however crowded it is", async () => {
    const { graph } = await expand([M], 1, { busyTransfers: 60, crowdedTransfers: 10 });
    expect(graph.nodes.get(M)?.expanded).toBe(true);
    expect(graph.nodes.size).toBe(2 + PEERS);
  });

  it("with the defaults, an address of 40 transfers is below the crowded floor", async () => {
    const { graph, layers } = await expand([R], 2);
    expect(layers[0]?.crowded).toEqual([]);
    expect(graph.nodes.get(M)?.expanded).toBe(true);
  });
});
