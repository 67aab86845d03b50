// Caching: explorer_fetches records what a fetch covered; a request inside it, within the freshness window, makes
// no request at all; a stale open-ended history is refreshed from shortly before its last fetch only; a date window
// stops paging at its start; caps make a result truncated, and the part that was fetched still answers from cache.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressOf, expectedRows, HEAD_TIME, makeHistory } from "./history-data.ts";
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
const plain = makeHistory({ seed: "cache", txs: 120, tokenTransfers: 70 });
const growing = makeHistory({ seed: "grow", txs: 120, tokenTransfers: 70 });
const windowed = makeHistory({ seed: "window", txs: 120, tokenTransfers: 70 });
const capped = makeHistory({ seed: "capped", txs: 120, tokenTransfers: 70 });

beforeAll(async () => {
  database = await openTestDatabase();
  explorer = await ReplayExplorer.start(plain, growing, windowed, capped);
});
afterAll(async () => {
  await explorer?.close();
  await database?.drop();
});

const at = (unixSeconds: number) => new Date(unixSeconds * 1000);
const HOUR = 3_600_000;

describe("explorer cache", () => {
  it("answers a second request within the freshness window without calling the explorer", async () => {
    const service = historyFor(database, [chainConfig(7201, explorer.url)], { freshnessMs: HOUR });
    const first = await service.ensureHistory(7201, plain.address);
    expect(first.fetched).toBe(true);
    await explorer.clearLog();
    const second = await service.ensureHistory(7201, plain.address);
    expect(second).toEqual({ fetched: false, transfers: first.transfers, truncated: false });
    // Also for a window inside what was fetched, and from another instance (the record is in the database).
    const other = historyFor(database, [chainConfig(7201, explorer.url)], { freshnessMs: HOUR });
    const windowResult = await other.ensureHistory(7201, plain.address, { from: at(HEAD_TIME - 3600) });
    expect(windowResult).toEqual({
      fetched: false,
      transfers: expectedRows(plain, { from: at(HEAD_TIME - 3600) }).length,
      truncated: false,
    });
    expect(await explorer.requests()).toHaveLength(0);
  });

  it("shares one fetch between concurrent requests for an address", async () => {
    const service = historyFor(database, [chainConfig(7202, explorer.url)]);
    await explorer.clearLog();
    const results = await Promise.all([1, 2, 3].map(() => service.ensureHistory(7202, plain.address)));
    expect(results.map((r) => r.fetched).sort()).toEqual([false, false, true]);
    expect(await explorer.requests()).toHaveLength(5); // 3 + 2 pages, once
  });

  it("refreshes a stale history from shortly before its last fetch, keeping what it covered", async () => {
    let now = (HEAD_TIME + 60) * 1000;
    const service = historyFor(database, [chainConfig(7203, explorer.url)], {
      freshnessMs: HOUR,
      refreshOverlapMs: 10 * 60_000,
      now: () => now,
    });
    await service.ensureHistory(7203, growing.address);
    // New activity after the fetch, then the cache goes stale.
    const newer = makeHistory({
      seed: "grow",
      txs: 3,
      tokenTransfers: 0,
      headBlock: 21_500_030,
      headTime: HEAD_TIME + 360,
    });
    const added = newer.txs.map((t, i) => ({
      ...t,
      hash: addressOf(`new${i}`).padEnd(66, "7"),
      nonce: 500 + i,
    }));
    growing.txs.unshift(...added);
    await explorer.prependTxs(growing.address, added);
    now += 2 * HOUR;
    await explorer.clearLog();
    const result = await service.ensureHistory(7203, growing.address);
    expect(result).toMatchObject({ fetched: true, truncated: false });
    // Only the first page of each list: it already reaches back past (last fetch - overlap).
    expect((await explorer.requests()).map((r) => r.query.has("block_number"))).toEqual([false, false]);
    expect(await storedRows(database, 7203, growing.address)).toEqual(expectedRows(growing));
    const record = await fetchRecord(database, 7203, growing.address);
    expect(record).toMatchObject({ covered_from: null, covered_to: null, truncated: false });
    expect(record?.fetched_at.getTime()).toBe(now);
  });

  it("fetches only a date window, stopping at its start, and answers narrower windows from the cache", async () => {
    const service = historyFor(database, [chainConfig(7204, explorer.url)]);
    const mined = windowed.txs.filter((t) => t.block !== null);
    // From the 60th to the 20th newest transaction: the second page of transactions reaches past the start.
    const window = { from: at(mined[60]!.time), to: at(mined[20]!.time) };
    await explorer.clearLog();
    const result = await service.ensureHistory(7204, windowed.address, window);
    expect(result).toEqual({
      fetched: true,
      transfers: expectedRows(windowed, window).length,
      truncated: false,
    });
    const txPages = (await explorer.requests()).filter((r) => r.path.endsWith("/transactions"));
    expect(txPages).toHaveLength(2);
    expect(await storedRows(database, 7204, windowed.address)).toEqual(expectedRows(windowed, window));
    expect(await fetchRecord(database, 7204, windowed.address)).toMatchObject({
      covered_from: window.from,
      covered_to: window.to,
    });

    await explorer.clearLog();
    const inside = { from: at(mined[50]!.time), to: at(mined[30]!.time) };
    expect(await service.ensureHistory(7204, windowed.address, inside)).toEqual({
      fetched: false,
      transfers: expectedRows(windowed, inside).length,
      truncated: false,
    });
    expect(await explorer.requests()).toHaveLength(0);

    // Reaching outside (here: up to now) needs the explorer again.
    const wider = await service.ensureHistory(7204, windowed.address, { from: window.from });
    expect(wider.fetched).toBe(true);
    expect(await storedRows(database, 7204, windowed.address)).toEqual(
      expectedRows(windowed, { from: window.from }),
    );
  });

  it("reports a capped fetch as truncated, and the part it covers is answered from the cache", async () => {
    const service = historyFor(database, [chainConfig(7205, explorer.url)], { maxPages: 2 });
    await explorer.clearLog();
    const result = await service.ensureHistory(7205, capped.address);
    expect(result.truncated).toBe(true);
    expect((await explorer.requests()).filter((r) => r.path.endsWith("/transactions"))).toHaveLength(2);
    expect((await explorer.requests()).filter((r) => r.path.endsWith("/token-transfers"))).toHaveLength(2);
    // Complete from one second after the oldest transaction reached (the 100th), on.
    const reached = capped.txs[99]!.time + 1;
    const record = await fetchRecord(database, 7205, capped.address);
    expect(record).toMatchObject({ truncated: true, covered_from: at(reached), covered_to: null });
    expect(await storedRows(database, 7205, capped.address)).toEqual(
      expectedRows(capped, { from: at(capped.txs[99]!.time) }),
    );

    await explorer.clearLog();
    // Asking again would hit the same cap: answered from the cache, still truncated.
    expect(await service.ensureHistory(7205, capped.address)).toMatchObject({
      fetched: false,
      truncated: true,
    });
    // A window inside what was fetched is complete.
    expect(await service.ensureHistory(7205, capped.address, { from: at(reached) })).toEqual({
      fetched: false,
      transfers: expectedRows(capped, { from: at(reached) }).length,
      truncated: false,
    });
    expect(await explorer.requests()).toHaveLength(0);
  });

  it("caps the transfers of a list as well", async () => {
    const service = historyFor(database, [chainConfig(7206, explorer.url)], { maxTransfers: 30 });
    const result = await service.ensureHistory(7206, capped.address);
    expect(result.truncated).toBe(true);
    const record = await fetchRecord(database, 7206, capped.address);
    expect(record?.truncated).toBe(true);
    // One page of each list: 50 transactions hold more than 30 transfers, so do 50 token transfers.
    expect(record?.transfer_count).toBe((await storedRows(database, 7206, capped.address)).length);
  });
});
