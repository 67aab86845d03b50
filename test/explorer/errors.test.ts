// Failures: 5xx and timeouts are retried with backoff and then fail with a clear error; invalid JSON, redirects,
// oversized answers, explorer-reported errors and malformed items fail at once. A failed fetch writes no
// explorer_fetches row, so nothing half-stored passes for a complete history: the next call fetches again.
import net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ExplorerError } from "../../src/chains/explorer/index.ts";
import { expectedRows, makeHistory } from "./history-data.ts";
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
const history = makeHistory({ seed: "errors", txs: 120, tokenTransfers: 70 });

beforeAll(async () => {
  database = await openTestDatabase();
  explorer = await ReplayExplorer.start(history);
});
beforeEach(async () => {
  await explorer.reset();
});
afterAll(async () => {
  await explorer?.close();
  await database?.drop();
});

async function failure(promise: Promise<unknown>): Promise<ExplorerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExplorerError);
  return error as ExplorerError;
}

describe("explorer errors", () => {
  it("retries 5xx answers with backoff and completes", async () => {
    const service = historyFor(database, [chainConfig(7401, explorer.url)]);
    await explorer.clearLog();
    await explorer.inject({ kind: "status", status: 502 }, 2, { hasParam: "block_number" });
    const result = await service.ensureHistory(7401, history.address);
    expect(result).toMatchObject({ fetched: true, truncated: false });
    const requests = await explorer.requests();
    expect(requests.map((r) => r.status).filter((s) => s !== 200)).toEqual([502, 502]);
    expect(requests).toHaveLength(7);
    expect(await storedRows(database, 7401, history.address)).toEqual(expectedRows(history));
  });

  it("gives up after the retries with an error naming the explorer, and records no fetch", async () => {
    const service = historyFor(database, [chainConfig(7402, explorer.url)], { maxRetries: 2 });
    await explorer.clearLog();
    await explorer.inject({ kind: "status", status: 503 }, 10);
    const error = await failure(service.ensureHistory(7402, history.address));
    expect(error.kind).toBe("http_status");
    expect(error.status).toBe(503);
    expect(error.message).toMatch(
      /^explorer 127\.0\.0\.1:\d+\/api\/v2\/addresses\/0x[0-9a-f]{40}\/transactions: HTTP 503 \(gave up after 3 attempts\)$/,
    );
    expect(await explorer.requests()).toHaveLength(3);
    expect(await fetchRecord(database, 7402, history.address)).toBeUndefined();
  });

  it("fails on invalid JSON at once, leaves no fetch record, and a later call completes the history", async () => {
    const service = historyFor(database, [chainConfig(7403, explorer.url)]);
    await explorer.clearLog();
    // Page 2 of the transactions is broken.
    await explorer.inject({ kind: "invalid-json" }, 1, { hasParam: "block_number" });
    const error = await failure(service.ensureHistory(7403, history.address));
    expect(error.kind).toBe("invalid_json");
    expect(error.message).toMatch(/\/transactions\?block_number=\d+&index=\d+&items_count=50: invalid JSON/);
    expect(await fetchRecord(database, 7403, history.address)).toBeUndefined();
    // Page 1 was stored (idempotently); without a record nothing takes it for the complete history.
    expect((await storedRows(database, 7403, history.address)).length).toBeGreaterThan(0);

    await explorer.clearLog();
    const retry = await service.ensureHistory(7403, history.address);
    expect(retry).toMatchObject({ fetched: true, transfers: expectedRows(history).length, truncated: false });
    expect(await explorer.requests()).toHaveLength(5);
    expect(await storedRows(database, 7403, history.address)).toEqual(expectedRows(history));
    expect(await fetchRecord(database, 7403, history.address)).toBeDefined();
  });

  it("keeps the previous record when a refresh fails half-way", async () => {
    let now = Date.now();
    const service = historyFor(database, [chainConfig(7404, explorer.url)], {
      now: () => now,
      freshnessMs: 1000,
    });
    await service.ensureHistory(7404, history.address);
    const before = await fetchRecord(database, 7404, history.address);
    now += 5000;
    await explorer.inject({ kind: "status", status: 500 }, 10, { pathEndsWith: "/token-transfers" });
    await failure(service.ensureHistory(7404, history.address));
    expect(await fetchRecord(database, 7404, history.address)).toEqual(before);
  });

  it("retries a timed-out request, then fails with a timeout error", async () => {
    const service = historyFor(database, [chainConfig(7405, explorer.url)], {
      requestTimeoutMs: 150,
      maxRetries: 1,
    });
    await explorer.clearLog();
    await explorer.inject({ kind: "delay", ms: 600 }, 1, { pathEndsWith: `${history.address}/transactions` });
    const ok = await service.ensureHistory(7405, history.address);
    expect(ok.fetched).toBe(true);

    const other = historyFor(database, [chainConfig(7406, explorer.url)], {
      requestTimeoutMs: 150,
      maxRetries: 1,
    });
    await explorer.inject({ kind: "delay", ms: 600 }, 2, { pathEndsWith: `${history.address}/transactions` });
    const error = await failure(other.ensureHistory(7406, history.address));
    expect(error.kind).toBe("timeout");
    expect(error.message).toMatch(/: no complete answer within 150 ms \(gave up after 2 attempts\)$/);
  });

  it("retries a refused connection (explorer down), then names the cause", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const service = historyFor(database, [chainConfig(7415, `http://127.0.0.1:${port}`)], { maxRetries: 2 });
    const error = await failure(service.ensureHistory(7415, history.address));
    expect(error.kind).toBe("network");
    expect(error.message).toMatch(/the connection was refused.*\(gave up after 3 attempts\)$/);
  });

  it("does not follow redirects", async () => {
    const service = historyFor(database, [chainConfig(7407, explorer.url)]);
    await explorer.clearLog();
    await explorer.inject({
      kind: "redirect",
      location: `${explorer.url}/api/v2/addresses/${history.address}/transactions`,
    });
    const error = await failure(service.ensureHistory(7407, history.address));
    expect(error.kind).toBe("redirect");
    expect(error.message).toContain("answered HTTP 301");
    expect(await explorer.requests()).toHaveLength(1);
  });

  it("refuses an answer larger than the limit", async () => {
    const service = historyFor(database, [chainConfig(7408, explorer.url)], { maxResponseBytes: 300_000 });
    await explorer.inject({ kind: "huge", bytes: 2_000_000 });
    const error = await failure(service.ensureHistory(7408, history.address));
    expect(error.kind).toBe("too_large");
    expect(error.message).toContain("answer larger than 300000 bytes");
  });

  it("reports what an Etherscan-compatible API says, without the API key", async () => {
    const chain = chainConfig(7409, explorer.etherscanUrl, {
      explorer_api_kind: "etherscan",
      explorer_api_key: "TOPSECRET",
    });
    const service = historyFor(database, [chain]);
    const body = JSON.stringify({ status: "0", message: "NOTOK", result: "Invalid API Key (#err2)|v2" });
    await explorer.inject({ kind: "status", status: 200, body });
    const error = await failure(service.ensureHistory(7409, history.address));
    expect(error.kind).toBe("explorer_error");
    expect(error.message).toContain("explorer said NOTOK: Invalid API Key (#err2)|v2");
    expect(error.message).toContain("apikey=***");
    expect(error.message).not.toContain("TOPSECRET");
  });

  it("rejects a malformed item, naming it", async () => {
    const service = historyFor(database, [chainConfig(7410, explorer.url)]);
    const body = JSON.stringify({
      items: [
        { hash: `0x${"1".repeat(64)}`, block_number: 5, timestamp: "2025-01-01T00:00:00Z", value: "1" },
      ],
      next_page_params: null,
    });
    await explorer.inject({ kind: "status", status: 200, body });
    const error = await failure(service.ensureHistory(7410, history.address));
    expect(error.kind).toBe("invalid_response");
    expect(error.message).toMatch(/transactions page 1: item 0: from\.hash is not an address$/);
    expect(await fetchRecord(database, 7410, history.address)).toBeUndefined();
  });

  it("takes an HTML 404 (a wrong base URL) for an error, not for an empty history", async () => {
    const service = historyFor(database, [chainConfig(7411, `${explorer.url}/wrong`)]);
    const error = await failure(service.ensureHistory(7411, history.address));
    expect(error.kind).toBe("http_status");
    expect(error.message).toMatch(
      /wrong\/api\/v2\/addresses\/0x[0-9a-f]{40}\/transactions: HTTP 404: <html>/,
    );
  });

  it("refuses unknown chains, chains without an explorer, bad addresses and windows without a request", async () => {
    await explorer.clearLog();
    const chains = [chainConfig(7412, explorer.url), chainConfig(7413, "x", { explorer_api_url: null })];
    const service = historyFor(database, chains);
    expect(service.hasExplorer(7412)).toBe(true);
    expect(service.hasExplorer(7413)).toBe(false);
    expect((await failure(service.ensureHistory(1, history.address))).message).toBe(
      "chain 1 is unknown or disabled",
    );
    expect((await failure(service.ensureHistory(7413, history.address))).kind).toBe("not_configured");
    expect((await failure(service.ensureHistory(7412, "0x1234"))).kind).toBe("invalid_request");
    const backwards = { from: new Date("2025-02-01"), to: new Date("2025-01-01") };
    expect((await failure(service.ensureHistory(7412, history.address, backwards))).kind).toBe(
      "invalid_request",
    );
    expect(await explorer.requests()).toHaveLength(0);
  });

  it("stops at once when the caller aborts", async () => {
    const service = historyFor(database, [
      chainConfig(7414, explorer.url, { explorer_rate_limit_per_second: 1 }),
    ]);
    const controller = new AbortController();
    const started = Date.now();
    const pending = service.ensureHistory(7414, history.address, {}, controller.signal);
    setTimeout(() => controller.abort(new Error("analysis cancelled")), 300);
    await expect(pending).rejects.toThrow("analysis cancelled");
    // Unaborted, its 5 pages at 1 request/s take over 4 s; the bound leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await fetchRecord(database, 7414, history.address)).toBeUndefined();
  });
});
