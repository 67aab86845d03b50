// Bitcoin histories from an Esplora API (src/chains/explorer/esplora.ts) against a stand-in on 127.0.0.1 that
// answers as Esplora's API.md defines: GET /address/{a}/txs/chain and /txs/chain/{last txid seen}, 25 confirmed
// transactions a page, newest first, each input with its prevout. Stored: each transaction projected as an import
// projects it (inputs pay outputs in proportion to value), a CoinJoin through its mixer node, the clusters of its
// inputs; paging to the end, stopping at a window's start, the page cap's truncation and the fetch record's coverage;
// throttling and server errors waited out, a refused address and a malformed item failing with what and where. Then
// the running service: a quick check of a Bitcoin chain with an Esplora API reads the history on demand.
// What the stand-in does not imitate: the mempool list, Esplora's plain-text bodies beyond one error, and a real
// instance's own rate limits.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { bech32 } from "@scure/base";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { explorerSource } from "../../src/chains/explorer/index.ts";
import { auth, LOCAL_CHAINS, startTestService } from "../support/service.ts";
import { chainConfig, fetchRecord, historyFor, openTestDatabase, type TestDatabase } from "./setup.ts";

const CHAIN = 177_005_167;
const addr = (n: number) => {
  const program = new Uint8Array(20).fill(9);
  program[0] = n >> 8;
  program[1] = n & 255;
  return bech32.encode("bc", [0, ...bech32.toWords(program)]);
};
const ME = addr(1);
const MY_OTHER = addr(2);
const txid = (n: number) => n.toString(16).padStart(64, "0");
const T0 = 1_760_000_000; // 2025-10-09
const out = (address: string | null, value: number, type = "v0_p2wpkh") => ({
  scriptpubkey: "00",
  scriptpubkey_type: type,
  ...(address ? { scriptpubkey_address: address } : {}),
  value,
});
const tx = (n: number, inputs: [string, number][], outputs: [string | null, number][], confirmed = true) => ({
  txid: txid(n),
  version: 2,
  locktime: 0,
  vin: inputs.map(([a, v], k) => ({
    txid: txid(10_000 + n * 10 + k),
    vout: 0,
    is_coinbase: false,
    prevout: out(a, v),
    sequence: 4294967293,
  })),
  vout: outputs.map(([a, v]) => (a === "op_return" ? out(null, v, "op_return") : out(a, v))),
  size: 200,
  weight: 800,
  fee: 1000,
  status: confirmed
    ? { confirmed: true, block_height: 900_000 + n, block_hash: txid(50_000 + n), block_time: T0 + n * 600 }
    : { confirmed: false },
});

/** 30 transactions of ME, newest first: n = 30 … 1. Every 5th pays ME from a stranger; the others ME pays out. */
function history() {
  const txs = [];
  for (let n = 30; n >= 1; n--) {
    if (n === 12) {
      // ME and its other address spent together: one owner's.
      txs.push(
        tx(
          n,
          [
            [ME, 40_000],
            [MY_OTHER, 60_000],
          ],
          [[addr(300), 99_000]],
        ),
      );
    } else if (n === 20) {
      // A Whirlpool mix of the 0.01 BTC pool that ME entered (with the miner-fee allowance).
      const pool = 1_000_000;
      txs.push(
        tx(
          n,
          [
            [ME, pool + 5_000],
            [addr(401), pool],
            [addr(402), pool],
            [addr(403), pool],
            [addr(404), pool],
          ],
          [addr(501), addr(502), addr(503), addr(504), addr(505)].map((a): [string, number] => [a, pool]),
        ),
      );
    } else if (n % 5 === 0)
      txs.push(
        tx(
          n,
          [[addr(100 + n), 500_000]],
          [
            [ME, 400_000],
            [addr(100 + n), 99_000],
          ],
        ),
      );
    else
      txs.push(
        tx(
          n,
          [[ME, 300_000]],
          [
            [addr(200 + n), 250_000],
            [ME, 49_000],
          ],
        ),
      );
  }
  return txs;
}

interface Server {
  url: string;
  requests: string[];
  /** answers to give before the real one, per path: a status and its body */
  before: Map<string, { status: number; body: string; headers?: Record<string, string> }[]>;
  txs: ReturnType<typeof tx>[];
  close(): Promise<void>;
}

async function esplora(txs: ReturnType<typeof tx>[]): Promise<Server> {
  const state = { requests: [] as string[], before: new Map(), txs };
  const server = http.createServer((req, res) => {
    const path = req.url ?? "";
    state.requests.push(path);
    const queued = state.before.get(path)?.shift();
    if (queued) {
      res.writeHead(queued.status, { "content-type": "text/plain", ...queued.headers });
      res.end(queued.body);
      return;
    }
    const m = /^\/api\/address\/([^/]+)\/txs\/chain(?:\/([0-9a-f]{64}))?$/.exec(path);
    if (!m) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("Not Found");
      return;
    }
    const mine = state.txs.filter((t) =>
      [...t.vin.map((i) => i.prevout), ...t.vout].some((o) => o.scriptpubkey_address === m[1]),
    );
    const start = m[2] ? mine.findIndex((t) => t.txid === m[2]) + 1 : 0;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(mine.slice(start, start + 25)));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

const bitcoinChain = (url: string) =>
  chainConfig(CHAIN, url, {
    name: "Bitcoin",
    kind: "bitcoin",
    bitcoin_network: "mainnet",
    currency_symbol: "BTC",
    currency_decimals: 8,
    explorer_api_kind: undefined,
  });

let database: TestDatabase;
let server: Server;
beforeEach(async () => {
  database = await openTestDatabase();
  server = await esplora(history());
});
afterEach(async () => {
  await server.close();
  await database.drop();
});

const transfersOf = async (address: string) =>
  (
    await sql<{
      tx_hash: string;
      from_address: string;
      to_address: string;
      value: string;
      block_number: string;
    }>`
      SELECT tx_hash, from_address, to_address, value::text AS value, block_number::text AS block_number
      FROM transfers WHERE chain_id = ${CHAIN} AND (from_address = ${address} OR to_address = ${address})
      ORDER BY tx_hash, log_index`.execute(database.db)
  ).rows;

describe("Esplora histories", () => {
  it("is a Bitcoin chain's history source only where its config names one", () => {
    expect(explorerSource(bitcoinChain(server.url), true)).toMatchObject({ kind: "esplora" });
    expect(explorerSource({ ...bitcoinChain(server.url), explorer_api_url: null }, true)).toBeUndefined();
  });

  it("pages to the end by the last txid seen and stores each transaction as an import would", async () => {
    const history = historyFor(database, [bitcoinChain(server.url)]);
    const result = await history.ensureHistory(CHAIN, ME);
    expect(result).toMatchObject({ fetched: true, truncated: false });
    expect(server.requests).toEqual([
      `/api/address/${ME}/txs/chain`,
      `/api/address/${ME}/txs/chain/${txid(6)}`,
    ]);
    const rows = await transfersOf(ME);
    // A payment in: the stranger's 500,000 sat pay ME 400,000 × 500,000 / 500,000.
    expect(rows.filter((r) => r.tx_hash === txid(25))).toEqual([
      { tx_hash: txid(25), from_address: addr(125), to_address: ME, value: "400000", block_number: "900025" },
    ]);
    // A payment out with change to ME: no transfer from ME to itself.
    expect(rows.filter((r) => r.tx_hash === txid(29))).toEqual([
      { tx_hash: txid(29), from_address: ME, to_address: addr(229), value: "250000", block_number: "900029" },
    ]);
    // The mix went through its CoinJoin node, labelled a mixer.
    const hub = `coinjoin:${txid(20)}`;
    expect(rows.filter((r) => r.tx_hash === txid(20)).map((r) => [r.from_address, r.to_address])).toEqual([
      [ME, hub],
    ]);
    const { rows: labels } = await sql<{ category: string; source: string }>`
      SELECT category, source FROM labels WHERE address = ${hub} AND chain_id = ${CHAIN}`.execute(
      database.db,
    );
    expect(labels).toEqual([{ category: "mixer", source: "vigia:coinjoin" }]);
    // Its inputs were not merged; ME's co-spend with its other address was.
    const { rows: clusters } = await sql<{ size: number; coinjoins: number }>`
      SELECT c.size, jsonb_array_length(c.coinjoins_excluded) AS coinjoins FROM utxo_cluster_members m
      JOIN utxo_clusters c ON c.chain_id = m.chain_id AND c.key = m.key
      WHERE m.chain_id = ${CHAIN} AND m.address = ${ME}`.execute(database.db);
    expect(clusters).toEqual([{ size: 2, coinjoins: 1 }]);
    expect((await fetchRecord(database, CHAIN, ME))?.covered_from).toBeNull();
    // Fresh: the next ask makes no request.
    const asked = server.requests.length;
    expect((await history.ensureHistory(CHAIN, ME)).fetched).toBe(false);
    expect(server.requests).toHaveLength(asked);
  });

  it("stops at a window's start, and says what a page cap left out", async () => {
    const windowed = historyFor(database, [bitcoinChain(server.url)]);
    await windowed.ensureHistory(CHAIN, ME, { from: new Date((T0 + 20 * 600) * 1000) });
    expect(server.requests).toEqual([`/api/address/${ME}/txs/chain`]);
    expect(await transfersOf(addr(210))).toEqual([]); // before the window: not read

    server.requests.length = 0;
    const capped = historyFor(database, [bitcoinChain(server.url)], { maxPages: 1 });
    const result = await capped.ensureHistory(CHAIN, addr(2), {});
    expect(result.truncated).toBe(false); // MY_OTHER has one transaction: one page, complete
    const me = await historyFor(database, [bitcoinChain(server.url)], {
      maxPages: 1,
      freshnessMs: 0,
    }).ensureHistory(CHAIN, ME);
    expect(me.truncated).toBe(true);
    const record = await fetchRecord(database, CHAIN, ME);
    // Complete from the oldest transaction of the first page (n = 6) on.
    expect(record?.truncated).toBe(true);
    expect(record?.covered_from?.toISOString()).toBe(new Date((T0 + 6 * 600 + 1) * 1000).toISOString());
  });

  it("waits out throttling and server errors; a refused address and a malformed item fail saying where", async () => {
    const first = `/api/address/${ME}/txs/chain`;
    server.before.set(first, [
      { status: 429, body: "Too Many Requests", headers: { "retry-after": "0" } },
      { status: 503, body: "busy" },
    ]);
    const history = historyFor(database, [bitcoinChain(server.url)]);
    expect((await history.ensureHistory(CHAIN, ME)).fetched).toBe(true);
    expect(server.requests.filter((r) => r === first)).toHaveLength(3);

    const other = addr(77);
    server.before.set(`/api/address/${other}/txs/chain`, [{ status: 400, body: "Invalid Bitcoin address" }]);
    await expect(history.ensureHistory(CHAIN, other)).rejects.toThrow(/HTTP 400: Invalid Bitcoin address/);

    server.txs.unshift({ ...tx(31, [[addr(88), 10]], [[addr(89), 5]]), vout: [out(addr(89), -5)] } as never);
    await expect(history.ensureHistory(CHAIN, addr(88))).rejects.toThrow(
      /transactions page 1, item 0: vout\[0\]\.value is not a non-negative integer/,
    );
    // A testnet address on a mainnet chain is refused before any request.
    const asked = server.requests.length;
    await expect(
      history.ensureHistory(CHAIN, bech32.encode("tb", [0, ...bech32.toWords(new Uint8Array(20).fill(1))])),
    ).rejects.toThrow(/mainnet/);
    expect(server.requests).toHaveLength(asked);
  });
});

describe("a Bitcoin chain with an Esplora API in the running service", () => {
  let svc: Awaited<ReturnType<typeof startTestService>>;
  let stand: Server;
  beforeAll(async () => {
    stand = await esplora(history());
    svc = await startTestService({
      chains: [
        ...LOCAL_CHAINS,
        {
          id: CHAIN,
          name: "Bitcoin",
          kind: "bitcoin",
          currency_symbol: "BTC",
          explorer_api_url: stand.url,
          explorer_rate_limit_per_second: 1000,
        },
      ],
      env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true", VIGIA_LOG_LEVEL: "silent" },
    });
    // BTC at USD 60,000 on the history's days (2025-10-09 onwards), as `vigia import prices` would store it.
    await svc.database.db
      .insertInto("prices")
      .values(
        ["2025-10-09", "2025-10-10"].map((day) => ({
          chain_id: CHAIN,
          token: "native",
          day,
          price_usd: "60000",
        })),
      )
      .execute();
  }, 120_000);
  afterAll(async () => {
    await svc?.stop();
    await stand?.close();
  });

  it("reads a new address's cluster from the history it fetched, and its other address's exposure as its own", async () => {
    // MY_OTHER is new: its one transaction, fetched now, spent it with ME. The cluster is read again after the
    // fetch, ME's history fetched in turn, and ME's coin in a Whirlpool mix is its owner's exposure.
    const res = await svc.app!.inject({
      url: `/v1/risk/quick?address=${MY_OTHER}&chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().data;
    expect(stand.requests[0]).toBe(`/api/address/${MY_OTHER}/txs/chain`);
    expect(stand.requests).toContain(`/api/address/${ME}/txs/chain`);
    expect(body.reason).toMatch(
      /^Same owner as bc1\w{5}…\w{4} by common inputs \(a cluster of 2 addresses spent together\), which sent USD [\d,]+ \([\d.]+% of its outgoing funds\) directly to a mixer address \(CoinJoin \(whirlpool/,
    );
  });

  it("reads the history on demand for a quick check, with the explorer as its coverage", async () => {
    const res = await svc.app!.inject({
      url: `/v1/risk/quick?address=${ME}&chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(stand.requests).toContain(`/api/address/${ME}/txs/chain`);
    expect(body.coverage).toMatchObject({ source: "explorer" });
    // ME took part in a Whirlpool mix: its funds went into a mixer.
    expect(body.patterns.map((p: { name: string }) => p.name)).toContain("mixing");
    const cluster = await svc.app!.inject({
      url: `/v1/clusters/${MY_OTHER}?chainId=${CHAIN}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(cluster.json().data).toMatchObject({ size: 2, coinjoinsExcluded: [{ kind: "whirlpool" }] });
  });
});
