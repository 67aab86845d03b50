// Address clusters kept as bitcoin-etl exports are imported, and GET /clusters/{address} answering them, against a
// real database (PGlite, or PostgreSQL with DATABASE_URL): one owner's co-spent addresses make one cluster, which a
// later import grows and merges with another owner's stored cluster (members re-pointed, the earliest id kept); a
// WabiSabi round's 30 inputs are never merged, and the round is listed against each participant; a labelled
// exchange's spend merges its deposits with nothing; importing an export again changes no cluster; an address no
// transaction merged is alone; a chain that is not Bitcoin, a malformed address and an address the service has
// never seen are answered with what to do.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bech32 } from "@scure/base";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { WABISABI_DENOMINATIONS } from "../../src/risk/index.ts";
import { auth, LOCAL_CHAINS, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 177_005_167;
/** A mainnet P2WPKH address numbered `n` (its program's first two bytes). */
const addr = (n: number) => {
  const program = new Uint8Array(20).fill(7);
  program[0] = n >> 8;
  program[1] = n & 255;
  return bech32.encode("bc", [0, ...bech32.toWords(program)]);
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-clusters-"));
let svc: TestService;
let block = 100;

type Part = [string, number];
const tx = (id: string, inputs: Part[], outputs: Part[]) => {
  block++;
  return {
    hash: id.padStart(64, "0"),
    block_number: block,
    block_timestamp: 1_700_000_000 + block * 600,
    is_coinbase: false,
    inputs: inputs.map(([a, v]) => ({ addresses: [a], value: v, type: "witness_v0_keyhash" })),
    outputs: outputs.map(([a, v]) => ({ addresses: [a], value: v, type: "witness_v0_keyhash" })),
  };
};

/** Writes an export directory of these transactions and imports it into the Bitcoin chain. */
async function importTxs(name: string, txs: ReturnType<typeof tx>[]) {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "transactions.json"), `${txs.map((t) => JSON.stringify(t)).join("\n")}\n`);
  return importEtl(svc.database, { chainId: CHAIN, chainKind: "bitcoin", format: "bitcoin-etl", dir });
}

// Owner A: a1..a3; owner B: b1, b2; 30 WabiSabi participants p0..p29, each with an own address o0..o29 that it
// spent together with its input before; an exchange's hot wallet spending two deposits.
const [a1, a2, a3, b1, b2, hot, d1, d2, shop] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map(addr) as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
const participant = (i: number) => addr(100 + i);
const own = (i: number) => addr(200 + i);
const denominations = [...WABISABI_DENOMINATIONS].filter((v) => v > 100_000n && v < 10_000_000n);
const round = tx(
  "c0",
  Array.from({ length: 30 }, (_, i): Part => [participant(i), 40_000_000 - i * 100_000]),
  Array.from({ length: 60 }, (_, i): Part => [addr(300 + i), Number(denominations[i % denominations.length])])
    .concat([[addr(399), 1_234_567]])
    .sort((x, y) => y[1] - x[1]),
);
const first = [
  tx(
    "a01",
    [
      [a1, 100_000],
      [a2, 200_000],
    ],
    [[shop, 290_000]],
  ),
  tx(
    "b01",
    [
      [b1, 100_000],
      [b2, 200_000],
    ],
    [[shop, 290_000]],
  ),
  ...Array.from({ length: 30 }, (_, i) =>
    tx(
      `e${i.toString(16).padStart(2, "0")}`,
      [
        [participant(i), 20_000_000],
        [own(i), 20_000_000],
      ],
      [[shop, 39_990_000]],
    ),
  ),
  round,
  tx(
    "f01",
    [
      [hot, 9_000_000],
      [d1, 100_000],
      [d2, 100_000],
    ],
    [[shop, 9_190_000]],
  ),
];
const second = [
  tx(
    "a02",
    [
      [a2, 50_000],
      [a3, 60_000],
    ],
    [[shop, 100_000]],
  ),
  // B's b2 and A's a3 spent together: one owner of five, B's stored cluster merged into A's.
  tx(
    "a03",
    [
      [a3, 10_000],
      [b2, 20_000],
    ],
    [[shop, 29_000]],
  ),
];

const get = async (address: string, chainId = CHAIN) =>
  svc.app!.inject({
    url: `/v1/clusters/${encodeURIComponent(address)}?chainId=${chainId}`,
    headers: auth(svc.project.keys.viewer),
  });
const clusterRows = async () =>
  (
    await sql<{ key: string; id: string; size: number; joined_by: string[] }>`
      SELECT key::text, id, size, joined_by FROM utxo_clusters WHERE chain_id = ${CHAIN} ORDER BY key`.execute(
      svc.database.db,
    )
  ).rows;
const memberRows = async () =>
  (
    await sql<{ address: string; key: string }>`
      SELECT address, key::text FROM utxo_cluster_members WHERE chain_id = ${CHAIN} ORDER BY address`.execute(
      svc.database.db,
    )
  ).rows;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_LOG_LEVEL: process.env.DEBUG_LOG ? "error" : "silent" },
    chains: [...LOCAL_CHAINS, { id: CHAIN, name: "Bitcoin", kind: "bitcoin", currency_symbol: "BTC" }],
  });
  await sql`
    INSERT INTO labels (address, chain_id, label, category, source)
    VALUES (${hot}, ${CHAIN}, 'Exchange: hot wallet', 'exchange', 'test')`.execute(svc.database.db);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("address clusters", () => {
  it("keeps one owner's co-spent addresses as one cluster, and never merges a WabiSabi round's inputs", async () => {
    const summary = await importTxs("first", first);
    expect(summary.bitcoin).toMatchObject({ coinjoins: 1, clusters: { merged_away: 0 } });
    const a = await get(a2);
    expect(a.statusCode).toBe(200);
    expect(a.json().data).toEqual({
      chainId: CHAIN,
      address: a2,
      id: `c:${a1}`,
      size: 2,
      addresses: [a1, a2],
      joinedBy: ["a01".padStart(64, "0")],
      coinjoinsExcluded: [],
      serviceScale: false,
      updatedAt: expect.any(String),
    });
    // Each participant is in a cluster with its own address only, and the round is listed against it.
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { data } = (await get(participant(i))).json();
      expect(data).toMatchObject({
        size: 2,
        coinjoinsExcluded: [{ txid: round.hash, kind: "wabisabi", confidence: "high" }],
      });
      expect(new Set(data.addresses)).toEqual(new Set([participant(i), own(i)]));
      ids.add(data.id);
    }
    expect(ids.size).toBe(30);
    // The round's outputs were merged with nothing.
    expect((await get(addr(310))).json().data).toMatchObject({ size: 1, updatedAt: null, joinedBy: [] });
    // The exchange's spend merged its deposits with nothing.
    for (const d of [d1, d2, hot]) expect((await get(d)).json().data.size).toBe(1);
  });

  it("grows and merges stored clusters as a later import arrives, keeping the earliest id", async () => {
    const before = await clusterRows();
    const summary = await importTxs("second", second);
    expect(summary.bitcoin).toMatchObject({ clusters: { merged_away: 1 } });
    for (const address of [a1, a2, a3, b1, b2]) {
      const { data } = (await get(address)).json();
      expect(data).toMatchObject({ id: `c:${a1}`, size: 5 });
      expect(data.joinedBy).toHaveLength(4);
    }
    const after = await clusterRows();
    // B's row is gone, its members point at A's row, which kept its key.
    expect(after).toHaveLength(before.length - 1);
    const aKey = before.find((r) => r.id === `c:${a1}`)?.key;
    const members = await memberRows();
    for (const address of [a1, a2, a3, b1, b2]) {
      expect(members.find((m) => m.address === address)?.key).toBe(aKey);
    }
  });

  it("changes no cluster when an export is imported again", async () => {
    const [rows, members] = [await clusterRows(), await memberRows()];
    await importTxs("first-again", first);
    await importTxs("second-again", second);
    expect(await clusterRows()).toEqual(rows);
    expect(await memberRows()).toEqual(members);
  });

  it("answers a chain that is not Bitcoin, a malformed address and an unknown one with what to do", async () => {
    const evm = await get("0x00000000000000000000000000000000000a11ce", 31337);
    expect(evm.statusCode).toBe(400);
    expect(evm.json().message).toContain("not a Bitcoin chain");
    const bad = await get("bc1qnotanaddress");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe("/address");
    const unknown = await get(addr(4000));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain("vigia import btc-etl");
    const es = await svc.app!.inject({
      url: `/v1/clusters/${addr(4000)}?chainId=${CHAIN}`,
      headers: { ...auth(svc.project.keys.viewer), "accept-language": "es" },
    });
    expect(es.json().message).toContain("importe las transacciones");
    expect((await get(a1, 999_999)).statusCode).toBe(404);
    expect((await svc.app!.inject({ url: `/v1/clusters/${a1}?chainId=${CHAIN}` })).statusCode).toBe(401);
  });
});
