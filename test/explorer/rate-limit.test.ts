// Rate limiting, measured where it matters: request arrival times on the explorer. A host's token bucket spaces
// requests at the configured rate (shared by every chain on that host); a 429 pauses the host for its Retry-After;
// Etherscan's HTTP-200 "rate limit reached" is waited out, its daily limit is not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExplorerError } from "../../src/chains/explorer/index.ts";
import { expectedRows, makeHistory } from "./history-data.ts";
import { ReplayExplorer, type Request } from "./replay-explorer.ts";
import { chainConfig, historyFor, openTestDatabase, storedRows, type TestDatabase } from "./setup.ts";

let database: TestDatabase;
let explorer: ReplayExplorer;
const a = makeHistory({ seed: "rate-a", txs: 120, tokenTransfers: 70 });
const b = makeHistory({ seed: "rate-b", txs: 60, tokenTransfers: 10 });

beforeAll(async () => {
  database = await openTestDatabase();
  explorer = await ReplayExplorer.start(a, b);
});
afterAll(async () => {
  await explorer?.close();
  await database?.drop();
});

/** Intervals between consecutive arrivals, in ms. */
const gaps = (requests: Request[]) => requests.slice(1).map((r, i) => r.at - requests[i]!.at);
/** Timer jitter allowed below a nominal wait. */
const JITTER_MS = 15;
/**
 * The bucket spaces the moments requests are handed to fetch; between that and the arrival lie connection set-up
 * and thread scheduling, which on a loaded machine (two cores shared with other test runs) can take tens of ms. So
 * a gap may fall short by that much (one request that arrives late shortens the gap after it: 132 ms of a 200 ms
 * interval was seen on Node 22 under the full suite), and the span by the delay of its first request. The span
 * proves the rate; each gap need only stay far from the few-ms gaps of an unlimited client.
 */
const SCHEDULING_MS = 50;
function expectSpacing(requests: Request[], intervalMs: number) {
  for (const gap of gaps(requests)) expect(gap).toBeGreaterThanOrEqual(intervalMs / 2);
  const span = requests.at(-1)!.at - requests[0]!.at;
  expect(span).toBeGreaterThanOrEqual((requests.length - 1) * intervalMs - SCHEDULING_MS);
}

describe("explorer rate limiting", () => {
  it("spaces a fetch's requests at the configured rate", async () => {
    const service = historyFor(database, [
      chainConfig(7301, explorer.url, { explorer_rate_limit_per_second: 5 }),
    ]);
    await explorer.clearLog();
    await service.ensureHistory(7301, a.address);
    expect(await explorer.requests()).toHaveLength(5);
    expectSpacing(await explorer.requests(), 200);
    expect(await storedRows(database, 7301, a.address)).toEqual(expectedRows(a));
  });

  it("shares one bucket between the chains and fetches on one host", async () => {
    const chains = [
      chainConfig(7302, explorer.url, { explorer_rate_limit_per_second: 8 }),
      chainConfig(7303, explorer.etherscanUrl, {
        explorer_api_kind: "etherscan",
        explorer_rate_limit_per_second: 8,
      }),
    ];
    const service = historyFor(database, chains, { pageSize: 40 });
    await explorer.clearLog();
    await Promise.all([service.ensureHistory(7302, a.address), service.ensureHistory(7303, b.address)]);
    expect(await explorer.requests()).toHaveLength(8); // 3 + 2 Blockscout pages, 2 + 1 Etherscan pages
    expectSpacing(await explorer.requests(), 125);
  });

  it("waits out a 429's Retry-After (seconds) before the host gets another request", async () => {
    const service = historyFor(database, [chainConfig(7304, explorer.url)]);
    await explorer.clearLog();
    await explorer.inject({ kind: "status", status: 429, headers: { "retry-after": "1" } }, 1, {
      hasParam: "block_number",
    });
    await service.ensureHistory(7304, a.address);
    const i = (await explorer.requests()).findIndex((r) => r.status === 429);
    expect(i).toBeGreaterThan(0);
    expect(
      (await explorer.requests())[i + 1]!.at - (await explorer.requests())[i]!.at,
    ).toBeGreaterThanOrEqual(1000 - JITTER_MS);
    // The same page asked again after the wait, and nothing lost.
    expect((await explorer.requests())[i + 1]!.query.toString()).toBe(
      (await explorer.requests())[i]!.query.toString(),
    );
    expect(await storedRows(database, 7304, a.address)).toEqual(expectedRows(a));
  });

  it("reads Retry-After as an HTTP date too, and backs off without one", async () => {
    const service = historyFor(database, [chainConfig(7305, explorer.url)], {
      backoffBaseMs: 300,
      backoffMaxMs: 5000,
    });
    await explorer.clearLog();
    const inTwoSeconds = new Date(Date.now() + 2000).toUTCString(); // whole seconds: waits 1-2 s
    await explorer.inject({ kind: "status", status: 429, headers: { "retry-after": inTwoSeconds } });
    await explorer.inject({ kind: "status", status: 429 });
    await service.ensureHistory(7305, b.address);
    const [first, second, third] = await explorer.requests();
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000 - JITTER_MS);
    expect(third!.at - second!.at).toBeGreaterThanOrEqual(300 * 0.8 - JITTER_MS);
    expect(await storedRows(database, 7305, b.address)).toEqual(expectedRows(b));
  });

  it("fails at once, clearly, when Retry-After is longer than allowed", async () => {
    const service = historyFor(database, [chainConfig(7306, explorer.url)], { maxRetryAfterMs: 5000 });
    await explorer.inject({ kind: "status", status: 429, headers: { "retry-after": "3600" } });
    const started = Date.now();
    const error = await service.ensureHistory(7306, b.address).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExplorerError);
    expect((error as ExplorerError).kind).toBe("rate_limited");
    expect((error as Error).message).toMatch(/HTTP 429; asked to wait 3600 s, more than the 5 s allowed/);
    // Waiting would take 3,600 s, and even the 5 s allowed would show; the bound leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("waits out Etherscan's HTTP-200 per-second rate limit, but not its daily one", async () => {
    const chain = chainConfig(7307, explorer.etherscanUrl, {
      explorer_api_kind: "etherscan",
      explorer_api_key: "SECRETKEY",
    });
    const service = historyFor(database, [chain], { backoffBaseMs: 200, backoffMaxMs: 5000 });
    await explorer.clearLog();
    await explorer.inject({ kind: "etherscan-rate-limit" });
    await service.ensureHistory(7307, b.address);
    expect((await explorer.requests())[1]!.at - (await explorer.requests())[0]!.at).toBeGreaterThanOrEqual(
      200 * 0.8 - JITTER_MS,
    );
    expect(await storedRows(database, 7307, b.address)).toEqual(expectedRows(b));

    const daily = historyFor(database, [{ ...chain, id: 7308 }]);
    await explorer.clearLog();
    await explorer.inject({
      kind: "etherscan-rate-limit",
      result: "Max daily rate limit reached. 100000 (100%)",
    });
    const error = await daily.ensureHistory(7308, b.address).catch((e: unknown) => e);
    expect((error as ExplorerError).kind).toBe("explorer_error");
    expect((error as Error).message).toContain("explorer said NOTOK: Max daily rate limit reached");
    expect((error as Error).message).not.toContain("SECRETKEY");
    expect(await explorer.requests()).toHaveLength(1);
  });
});
