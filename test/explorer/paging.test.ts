// Paging: every page of both lists is fetched (Blockscout's next_page_params, Etherscan's page numbers and its
// 10,000-result window), each transfer lands once with the indexer's keys, failed and zero-value transactions and
// NFT transfers are left out, token metadata and contract marks are stored.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON, DAI, expectedRows, makeHistory, USDC } from "./history-data.ts";
import { ReplayExplorer } from "./replay-explorer.ts";
import {
  chainConfig,
  fetchRecord,
  historyFor,
  openTestDatabase,
  storedRows,
  type TestDatabase,
} from "./setup.ts";

let database: TestDatabase;
let explorer: ReplayExplorer;
// 120 mined + 2 pending transactions: 3 Blockscout pages; 70 token transfers: 2 pages.
const history = makeHistory({ seed: "paging", txs: 120, tokenTransfers: 70, pending: 2 });

beforeAll(async () => {
  database = await openTestDatabase();
  explorer = await ReplayExplorer.start(history);
});
afterAll(async () => {
  await explorer?.close();
  await database?.drop();
});

const paths = async () => (await explorer.requests()).map((r) => `${r.path.split("/").at(-1)}?${r.query}`);

describe("Blockscout API v2 paging", () => {
  it("follows next_page_params through every page and stores each transfer once", async () => {
    const chain = chainConfig(7001, explorer.url);
    const service = historyFor(database, [chain]);
    await explorer.clearLog();
    const expected = expectedRows(history);
    const result = await service.ensureHistory(7001, history.address);
    expect(result).toEqual({ fetched: true, transfers: expected.length, truncated: false });

    const requested = await paths();
    expect(requested.filter((p) => p.startsWith("transactions"))).toHaveLength(3);
    expect(requested.filter((p) => p.startsWith("token-transfers"))).toHaveLength(2);
    // The next pages carry next_page_params verbatim and keep the first request's filter.
    const lastOfPage1 = history.transfers.filter((t) => t.token.type === "ERC-20")[49]!;
    expect(requested).toContain(
      `token-transfers?type=ERC-20&block_number=${lastOfPage1.block}&index=${lastOfPage1.logIndex}&items_count=50`,
    );

    expect(await storedRows(database, 7001, history.address)).toEqual(expected);
    // Failed and zero-value transactions, pending ones and the NFT transfer are not there.
    const stored = new Set((await storedRows(database, 7001, history.address)).map((r) => r.tx_hash));
    for (const tx of history.txs) {
      if (tx.status !== "ok" || tx.value === 0n) expect(stored.has(tx.hash)).toBe(false);
    }
    expect(stored.has(history.transfers.find((t) => t.token.type === "ERC-721")!.txHash)).toBe(false);

    const record = await fetchRecord(database, 7001, history.address);
    expect(record).toMatchObject({ transfer_count: expected.length, covered_from: null, covered_to: null });
    expect(record?.truncated).toBe(false);
    expect(record?.source).toBe(`blockscout 127.0.0.1:${new URL(explorer.url).port}`);
  });

  it("stores the explorer's token metadata and contract marks", async () => {
    const tokens = await database.db
      .selectFrom("tokens")
      .select(["address", "symbol", "name", "decimals"])
      .where("chain_id", "=", 7001)
      .orderBy("address")
      .execute();
    expect(tokens).toEqual(
      [USDC, DAI, ANON]
        .map((t) => ({ address: t.address, symbol: t.symbol, name: t.name, decimals: t.decimals }))
        .sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    const contracts = await database.db
      .selectFrom("address_facts")
      .select("address")
      .where("chain_id", "=", 7001)
      .where("is_contract", "=", true)
      .execute();
    const created = history.txs.find((t) => t.created)!.created!;
    expect(contracts.map((c) => c.address)).toEqual(expect.arrayContaining([USDC.address, created]));
    expect(contracts.map((c) => c.address)).not.toContain(history.address);
  });

  it("fetching again (stale cache) adds nothing: every write is idempotent", async () => {
    const chain = chainConfig(7001, explorer.url);
    const service = historyFor(database, [chain], {
      freshnessMs: 0,
      refreshOverlapMs: 10 * 365 * 86_400_000,
    });
    const result = await service.ensureHistory(7001, history.address);
    expect(result.fetched).toBe(true);
    const { rows } = await sql<{
      n: string;
    }>`SELECT count(*)::text AS n FROM transfers WHERE chain_id = 7001`.execute(database.db);
    expect(Number(rows[0]!.n)).toBe(expectedRows(history).length);
  });

  it("reads Blockscout's older field names (block, tx_hash, token.address)", async () => {
    await explorer.set({ legacyFields: true });
    try {
      const service = historyFor(database, [chainConfig(7002, explorer.url)]);
      await service.ensureHistory(7002, history.address);
      expect(await storedRows(database, 7002, history.address)).toEqual(expectedRows(history));
    } finally {
      await explorer.set({ legacyFields: false });
    }
  });

  it("takes a Blockscout explorer_api_url without a kind, and a checksummed address", async () => {
    const chain = chainConfig(7003, explorer.url, { explorer_api_kind: undefined });
    const service = historyFor(database, [chain]);
    await service.ensureHistory(7003, history.address.toUpperCase().replace("0X", "0x"));
    expect(await storedRows(database, 7003, history.address)).toEqual(expectedRows(history));
  });

  it("fetches nothing for a chain that only has a statistics blockscout_url", async () => {
    const chain = chainConfig(7005, "unused", { explorer_api_url: undefined, blockscout_url: explorer.url });
    const service = historyFor(database, [chain]);
    expect(service.hasExplorer(7005)).toBe(false);
    await expect(service.ensureHistory(7005, history.address)).rejects.toThrow("no explorer API configured");
  });

  it("records an address the explorer never saw (404 Not found) as an empty history", async () => {
    const service = historyFor(database, [chainConfig(7004, explorer.url)]);
    const unknown = `0x${"ab".repeat(20)}`;
    await explorer.clearLog();
    expect(await service.ensureHistory(7004, unknown)).toEqual({
      fetched: true,
      transfers: 0,
      truncated: false,
    });
    expect((await explorer.requests()).map((r) => r.status)).toEqual([404, 404]);
    expect(await fetchRecord(database, 7004, unknown)).toMatchObject({ transfer_count: 0, truncated: false });
  });
});

describe("Etherscan-compatible paging", () => {
  it("asks page after page (sort=desc) until a short page, and stores the same rows as from Blockscout", async () => {
    const chain = chainConfig(7101, explorer.etherscanUrl, {
      explorer_api_kind: "etherscan",
      explorer_api_key: "K3Y",
    });
    const service = historyFor(database, [chain], { pageSize: 25 });
    await explorer.clearLog();
    const result = await service.ensureHistory(7101, history.address);
    const expected = expectedRows(history);
    expect(result).toEqual({ fetched: true, transfers: expected.length, truncated: false });
    const txlist = (await explorer.requests()).filter((r) => r.query.get("action") === "txlist");
    const tokentx = (await explorer.requests()).filter((r) => r.query.get("action") === "tokentx");
    expect(txlist.map((r) => r.query.get("page"))).toEqual(["1", "2", "3", "4", "5"]); // 120 = 4 full pages + empty
    expect(tokentx.map((r) => r.query.get("page"))).toEqual(["1", "2", "3"]); // 69 ERC-20 = 2 full + 19
    for (const r of [...txlist, ...tokentx]) {
      expect(Object.fromEntries(r.query)).toMatchObject({
        module: "account",
        address: history.address,
        offset: "25",
        sort: "desc",
        apikey: "K3Y",
      });
    }
    expect(await storedRows(database, 7101, history.address)).toEqual(expected);
    // The same history from Blockscout (chain 7001) gave the very same rows: the keys do not depend on the source.
    expect(await storedRows(database, 7001, history.address)).toEqual(expected);
  });

  it("continues past the result window (page × offset) from the oldest block reached, losing and repeating nothing", async () => {
    await explorer.set({ resultWindow: 50 });
    try {
      const chain = chainConfig(7102, explorer.etherscanUrl, { explorer_api_kind: "etherscan" });
      const service = historyFor(database, [chain], { pageSize: 25, resultWindow: 50 });
      await explorer.clearLog();
      const result = await service.ensureHistory(7102, history.address);
      expect(result).toMatchObject({ fetched: true, truncated: false });
      expect((await explorer.requests()).every((r) => r.status === 200)).toBe(true);
      const txlist = (await explorer.requests()).filter((r) => r.query.get("action") === "txlist");
      expect(txlist.map((r) => [r.query.get("page"), r.query.get("endblock")])).toEqual([
        ["1", null],
        ["2", null],
        ["1", String(history.txs.filter((t) => t.block !== null)[49]!.block)],
        ["2", String(history.txs.filter((t) => t.block !== null)[49]!.block)],
        ["1", String(history.txs.filter((t) => t.block !== null)[98]!.block)], // 22 left: a short page
      ]);
      expect(await storedRows(database, 7102, history.address)).toEqual(expectedRows(history));
    } finally {
      await explorer.set({ resultWindow: 10_000 });
    }
  });
});
