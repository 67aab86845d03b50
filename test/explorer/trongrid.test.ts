// Tron histories from TronGrid (src/chains/explorer/trongrid.ts) against a stand-in on 127.0.0.1 that answers
// TronGrid's two account endpoints the way TronGrid does (base58 and 41-hex addresses, millisecond times, pages
// chained by meta.fingerprint, throttling with 429 and 403) and the node API it also serves for TRC-20 keys
// (/wallet/gettransactioninfobyid, /wallet/gettransactioninfobyblocknum). Stored: TRX moved by TransferContract only,
// TRC-20 transfers keyed by their block and block-wide log index, in the 0x form; the key goes in TRON-PRO-API-KEY.
// Also: Tron mainnet's history source when public explorers are on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tronBase58 } from "../../src/chains/address/index.ts";
import { explorerSource } from "../../src/chains/explorer/index.ts";
import { BUILT_IN_CHAINS, TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import {
  chainConfig,
  fetchRecord,
  historyFor,
  openTestDatabase,
  storedRows,
  type TestDatabase,
} from "./setup.ts";

const CHAIN = 728126428;
const ME = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";
const THIRD = "0x3333333333333333333333333333333333333333";
const USDT = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c";
const SOME_CONTRACT = "0x4444444444444444444444444444444444444444";
const KEY = "test-trongrid-key";
const T0 = Date.parse("2026-03-01T00:00:00Z");
const txid = (n: number) => n.toString(16).padStart(64, "0");
const hex41 = (address: string) => `41${address.slice(2)}`;
const word = (address: string) => address.slice(2).padStart(64, "0");
const TRANSFER = "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

const trx = (n: number, type: string, value: Record<string, unknown>, ms: number, ret = "SUCCESS") => ({
  ret: [{ contractRet: ret, fee: 0 }],
  txID: txid(n),
  blockNumber: 60_000_000 + n,
  block_timestamp: ms,
  raw_data: { contract: [{ type, parameter: { value, type_url: `type.googleapis.com/protocol.${type}` } }] },
});

/** TronGrid's pages, newest first: the key is the fingerprint asked (empty for the first page). */
const TRANSACTIONS: Record<string, { data: unknown[]; fingerprint?: string }> = {
  "": {
    data: [
      trx(
        10,
        "TransferContract",
        { amount: 5_000_000, owner_address: hex41(ME), to_address: hex41(OTHER) },
        T0 + 40_000,
      ),
      // TRC-10: its amount is no TRX
      trx(
        9,
        "TransferAssetContract",
        { amount: 777, asset_name: "31303030303031", owner_address: hex41(ME), to_address: hex41(THIRD) },
        T0 + 30_000,
      ),
    ],
    fingerprint: "fp-transactions-2",
  },
  "fp-transactions-2": {
    data: [
      trx(
        8,
        "TriggerSmartContract",
        { call_value: 9, owner_address: hex41(ME), contract_address: hex41(SOME_CONTRACT), data: "a9059cbb" },
        T0 + 20_000,
      ),
      trx(
        7,
        "TransferContract",
        { amount: 1_500_000, owner_address: tronBase58(OTHER), to_address: tronBase58(ME) },
        T0 + 10_000,
      ),
      trx(
        6,
        "TransferContract",
        { amount: 42, owner_address: hex41(ME), to_address: hex41(THIRD) },
        T0 + 5_000,
        "REVERT",
      ),
    ],
  },
};

const trc20 = (n: number, from: string, to: string, value: string, ms: number) => ({
  transaction_id: txid(n),
  token_info: { symbol: "USDT", address: tronBase58(USDT), decimals: 6, name: "Tether USD" },
  block_timestamp: ms,
  from: tronBase58(from),
  to: tronBase58(to),
  type: "Transfer",
  value,
});

const TRC20: Record<string, { data: unknown[]; fingerprint?: string }> = {
  "": { data: [trc20(21, ME, OTHER, "250000000", T0 + 50_000)], fingerprint: "fp-trc20-2" },
  "fp-trc20-2": { data: [trc20(20, THIRD, ME, "1000000", T0 + 15_000)] },
};

/** The node API: each TRC-20 transaction's block, and the blocks' transaction infos with their logs. */
const BLOCK_OF: Record<string, number> = { [txid(21)]: 60_000_050, [txid(20)]: 60_000_015 };
const transferLog = (from: string, to: string, value: bigint) => ({
  address: USDT.slice(2),
  topics: [TRANSFER, word(from), word(to)],
  data: value.toString(16).padStart(64, "0"),
});
const INFOS: Record<number, unknown[]> = {
  // two logs of an earlier transaction, then ours: its Transfer is the block's log 2
  60000050: [
    { id: txid(99), log: [transferLog(THIRD, OTHER, 1n), transferLog(OTHER, THIRD, 2n)] },
    { id: txid(21), log: [transferLog(ME, OTHER, 250_000_000n)] },
  ],
  // an Approval-like log first in the same transaction: the Transfer is log 1
  60000015: [
    {
      id: txid(20),
      log: [{ address: USDT.slice(2), topics: ["8c5be1e5"], data: "00" }, transferLog(THIRD, ME, 1_000_000n)],
    },
  ],
};

let server: http.Server;
let base: string;
let database: TestDatabase;
const seen: { path: string; key: string | undefined; status: number }[] = [];
const throttled = new Set<string>();

beforeAll(async () => {
  database = await openTestDatabase();
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const key = req.headers["tron-pro-api-key"] as string | undefined;
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      seen.push({ path: `${url.pathname}${url.search}`, key, status });
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    };
    const fingerprint = url.searchParams.get("fingerprint") ?? "";
    const account = `/v1/accounts/${tronBase58(ME)}`;
    // Throttled once each: the second page of transactions with 429, the second page of TRC-20 with 403.
    if (url.pathname === `${account}/transactions` || url.pathname === `${account}/transactions/trc20`) {
      const trc = url.pathname.endsWith("trc20");
      if (fingerprint && !throttled.has(url.pathname)) {
        throttled.add(url.pathname);
        return trc
          ? reply(403, {
              success: false,
              error: "The key exceeds the frequency limit(15), and the query server will be suspended for 0s",
            })
          : reply(429, { success: false }, { "retry-after": "0" });
      }
      const page = (trc ? TRC20 : TRANSACTIONS)[fingerprint];
      if (!page) return reply(400, { success: false, error: "bad fingerprint" });
      return reply(200, {
        data: page.data,
        success: true,
        meta: {
          at: T0 + 60_000,
          page_size: page.data.length,
          ...(page.fingerprint ? { fingerprint: page.fingerprint } : {}),
        },
      });
    }
    if (url.pathname === "/wallet/gettransactioninfobyid") {
      const block = BLOCK_OF[url.searchParams.get("value") ?? ""];
      return reply(200, block === undefined ? {} : { id: url.searchParams.get("value"), blockNumber: block });
    }
    if (url.pathname === "/wallet/gettransactioninfobyblocknum") {
      return reply(200, INFOS[Number(url.searchParams.get("num"))] ?? []);
    }
    reply(404, {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await database?.drop();
});

const iso = (ms: number) => new Date(ms).toISOString();

describe("TronGrid histories", () => {
  it("reads both lists across fingerprint pages and throttling, storing TRX and TRC-20 transfers in the 0x form", async () => {
    const chain = chainConfig(CHAIN, base, {
      kind: "tron",
      explorer_api_kind: "trongrid",
      explorer_api_key: KEY,
    });
    const history = historyFor(database, [chain]);
    const result = await history.ensureHistory(CHAIN, ME);
    expect(result).toMatchObject({ fetched: true, truncated: false, transfers: 4 });

    expect(await storedRows(database, CHAIN, ME)).toEqual(
      [
        {
          tx_hash: `0x${txid(10)}`,
          log_index: -1,
          block_number: "60000010",
          block_time: iso(T0 + 40_000),
          from_address: ME,
          to_address: OTHER,
          token: "native",
          value: "5000000",
        },
        {
          tx_hash: `0x${txid(7)}`,
          log_index: -1,
          block_number: "60000007",
          block_time: iso(T0 + 10_000),
          from_address: OTHER,
          to_address: ME,
          token: "native",
          value: "1500000",
        },
        {
          tx_hash: `0x${txid(21)}`,
          log_index: 2,
          block_number: "60000050",
          block_time: iso(T0 + 50_000),
          from_address: ME,
          to_address: OTHER,
          token: USDT,
          value: "250000000",
        },
        {
          tx_hash: `0x${txid(20)}`,
          log_index: 1,
          block_number: "60000015",
          block_time: iso(T0 + 15_000),
          from_address: THIRD,
          to_address: ME,
          token: USDT,
          value: "1000000",
        },
      ].sort((a, b) => (`${a.tx_hash}:${a.log_index}` < `${b.tx_hash}:${b.log_index}` ? -1 : 1)),
    );

    // Both lists paged by fingerprint, each throttled once and asked again; every request carried the key.
    const listed = seen.filter((s) => s.path.startsWith("/v1/"));
    expect(listed.map((s) => s.status)).toEqual(expect.arrayContaining([429, 403]));
    expect(listed.filter((s) => s.status === 200)).toHaveLength(4);
    expect(listed.filter((s) => s.path.includes("fingerprint=fp-transactions-2"))).toHaveLength(2);
    expect(listed.filter((s) => s.path.includes("fingerprint=fp-trc20-2"))).toHaveLength(2);
    for (const s of listed)
      expect(s.path).toMatch(/only_confirmed=true.*limit=200|limit=200.*only_confirmed=true/);
    expect(new Set(seen.map((s) => s.key))).toEqual(new Set([KEY]));

    const record = await fetchRecord(database, CHAIN, ME);
    expect(record).toMatchObject({
      transfer_count: 4,
      truncated: false,
      source: `trongrid 127.0.0.1:${new URL(base).port}`,
    });

    // Fresh: a second call asks nothing.
    const before = seen.length;
    expect(await history.ensureHistory(CHAIN, ME)).toMatchObject({ fetched: false, transfers: 4 });
    expect(seen.length).toBe(before);
  });

  it("Tron mainnet reads TronGrid's public endpoint when public explorers are on, and nothing when off", () => {
    const tron = BUILT_IN_CHAINS.find((c) => c.id === TRON_MAINNET_ID);
    if (!tron) throw new Error("Tron mainnet is not built in");
    expect(explorerSource(tron, true)).toMatchObject({
      kind: "trongrid",
      apiKey: null,
      origin: "tron_default",
    });
    expect(explorerSource(tron, true)?.baseUrl.href).toBe("https://api.trongrid.io/");
    expect(explorerSource(tron, false)).toBeUndefined();
    // An explorer_api_url of no stated kind on a Tron chain is TronGrid's.
    expect(explorerSource({ ...tron, explorer_api_url: "https://tron.example/" }, false)?.kind).toBe(
      "trongrid",
    );
  });
});
