// The adapter's pure parts: cache planning, Retry-After and backoff, the token bucket, URL redaction, Etherscan's
// envelope, and the chain config fields that select an explorer (with public explorers on or off).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { explorerSource } from "../../src/chains/explorer/config.ts";
import { coverageAfter, planFetch } from "../../src/chains/explorer/coverage.ts";
import { redactUrl } from "../../src/chains/explorer/errors.ts";
import { checkEnvelope } from "../../src/chains/explorer/etherscan.ts";
import { backoffMs, parseRetryAfter } from "../../src/chains/explorer/http.ts";
import { TokenBucket } from "../../src/chains/explorer/rate-limiter.ts";
import { BUILT_IN_CHAINS, loadChainsFile } from "../../src/chains/registry.ts";
import type { FetchRecord } from "../../src/ledger/index.ts";
import { chainConfig } from "./setup.ts";

const HOUR = 3_600_000;
const d = (iso: string) => new Date(iso);
const NOW = d("2025-03-01T12:00:00Z").getTime();
const opts = { now: NOW, freshnessMs: HOUR, refreshOverlapMs: 10 * 60_000 };
const record = (over: Partial<FetchRecord>): FetchRecord => ({
  chainId: 1,
  address: "0x",
  fetchedAt: new Date(NOW - 60_000),
  transferCount: 0,
  coveredFrom: null,
  coveredTo: null,
  truncated: false,
  source: null,
  ...over,
});

describe("planFetch", () => {
  it("fetches what was never fetched", () => {
    expect(planFetch(undefined, {}, opts)).toEqual({ hit: false, window: {} });
  });

  it("answers a fresh record covering the request, and nothing else", () => {
    const full = record({});
    expect(planFetch(full, {}, opts)).toEqual({ hit: true, truncated: false });
    expect(planFetch(full, { from: d("2024-01-01"), to: d("2025-01-01") }, opts)).toMatchObject({
      hit: true,
    });
    const windowed = record({ coveredFrom: d("2025-01-01"), coveredTo: d("2025-02-01") });
    expect(planFetch(windowed, { from: d("2025-01-10"), to: d("2025-01-20") }, opts)).toMatchObject({
      hit: true,
    });
    expect(planFetch(windowed, { from: d("2024-12-31"), to: d("2025-01-20") }, opts)).toMatchObject({
      hit: false,
    });
    expect(planFetch(windowed, { from: d("2025-01-10") }, opts)).toMatchObject({ hit: false });
    expect(planFetch(windowed, {}, opts)).toMatchObject({ hit: false });
  });

  it("answers a fresh truncated record for requests reaching further back, as truncated", () => {
    const capped = record({ coveredFrom: d("2025-02-01"), truncated: true });
    expect(planFetch(capped, {}, opts)).toEqual({ hit: true, truncated: true });
    expect(planFetch(capped, { from: d("2025-02-15") }, opts)).toEqual({ hit: true, truncated: false });
  });

  it("refreshes a stale open-ended record incrementally, keeping its start", () => {
    const stale = record({
      fetchedAt: new Date(NOW - 2 * HOUR),
      coveredFrom: d("2024-06-01"),
      truncated: true,
    });
    expect(planFetch(stale, { from: d("2024-07-01") }, opts)).toEqual({
      hit: false,
      window: { from: new Date(NOW - 2 * HOUR - 10 * 60_000) },
      keep: { from: d("2024-06-01"), truncated: true },
    });
    // A request reaching before what it covered starts over.
    expect(planFetch(stale, { from: d("2024-01-01") }, opts)).toEqual({
      hit: false,
      window: { from: d("2024-01-01") },
    });
  });

  it("derives the coverage of a finished fetch", () => {
    const plan = { hit: false as const, window: { from: d("2025-01-01"), to: d("2025-02-01") } };
    expect(coverageAfter(plan, { truncated: false, reachedFrom: null })).toEqual({
      coveredFrom: d("2025-01-01"),
      coveredTo: d("2025-02-01"),
      truncated: false,
    });
    expect(coverageAfter(plan, { truncated: true, reachedFrom: d("2025-01-15") })).toEqual({
      coveredFrom: d("2025-01-15"),
      coveredTo: d("2025-02-01"),
      truncated: true,
    });
    const incremental = {
      hit: false as const,
      window: { from: d("2025-02-28") },
      keep: { from: null, truncated: false },
    };
    expect(coverageAfter(incremental, { truncated: false, reachedFrom: null })).toEqual({
      coveredFrom: null,
      coveredTo: null,
      truncated: false,
    });
  });
});

describe("HTTP helpers", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("0.5")).toBe(500);
    expect(parseRetryAfter("Sat, 01 Mar 2025 12:00:10 GMT", NOW)).toBe(10_000);
    expect(parseRetryAfter("Sat, 01 Mar 2025 11:00:00 GMT", NOW)).toBe(0);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("backs off exponentially with jitter, up to the maximum", () => {
    const o = { backoffBaseMs: 100, backoffMaxMs: 1000 };
    for (let i = 0; i < 50; i += 1) {
      expect(backoffMs(1, o)).toBeGreaterThanOrEqual(80);
      expect(backoffMs(1, o)).toBeLessThanOrEqual(120);
      expect(backoffMs(3, o)).toBeGreaterThanOrEqual(320);
      expect(backoffMs(3, o)).toBeLessThanOrEqual(480);
      expect(backoffMs(10, o)).toBeLessThanOrEqual(1200);
    }
  });

  it("keeps API keys out of URLs shown in messages", () => {
    expect(redactUrl(new URL("https://api.etherscan.io/v2/api?chainid=1&apikey=SECRET&page=2"))).toBe(
      "api.etherscan.io/v2/api?chainid=1&apikey=***&page=2",
    );
  });

  it("spaces a token bucket's grants at its rate, after a pause, and lets a burst through", async () => {
    // Virtual time: sleeping moves the clock, so the spacing checked is the bucket's own, not the machine's load.
    let clockMs = 1_000;
    const clock = {
      now: () => clockMs,
      sleep: async (ms: number) => {
        clockMs += ms;
      },
    };
    const bucket = new TokenBucket(20, 1, clock);
    const times: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      await bucket.take();
      times.push(clockMs);
    }
    expect(times).toEqual([1_000, 1_050, 1_100, 1_150]);
    bucket.pause(200);
    const paused = clockMs;
    await bucket.take();
    expect(clockMs - paused).toBe(200);

    const burst = new TokenBucket(1, 3, clock);
    const start = clockMs;
    await Promise.all([burst.take(), burst.take(), burst.take()]);
    expect(clockMs).toBe(start);
    await burst.take();
    expect(clockMs - start).toBe(1_000);
  });

  it("spaces grants on the real clock too", async () => {
    const bucket = new TokenBucket(50);
    const start = performance.now();
    for (let i = 0; i < 4; i += 1) await bucket.take();
    // Three waits of 20 ms each at least; a loaded machine can only make it later.
    expect(performance.now() - start).toBeGreaterThanOrEqual(59);
  });
});

describe("Etherscan envelope", () => {
  it("tells lists, empty lists, rate limits and errors apart", () => {
    expect(checkEnvelope({ status: "1", message: "OK", result: [{}] }, "x")).toHaveLength(1);
    expect(checkEnvelope({ status: "0", message: "No transactions found", result: [] }, "x")).toEqual([]);
    const limited = { status: "0", message: "NOTOK", result: "Max rate limit reached, please use API Key" };
    expect(() => checkEnvelope(limited, "x")).toThrow(
      expect.objectContaining({ kind: "rate_limited", retryable: true }),
    );
    const daily = { status: "0", message: "NOTOK", result: "Max daily rate limit reached" };
    expect(() => checkEnvelope(daily, "x")).toThrow(
      expect.objectContaining({ kind: "explorer_error", retryable: false }),
    );
    expect(() => checkEnvelope([], "x")).toThrow("x: not a JSON object");
  });
});

describe("chain config", () => {
  it("selects the explorer: explorer_api_url of its kind, whatever public explorers say", () => {
    const etherscan = chainConfig(1, "https://api.etherscan.io/v2/api?chainid=1", {
      explorer_api_kind: "etherscan",
      blockscout_url: "https://eth.blockscout.com",
    });
    for (const publicExplorers of [true, false]) {
      expect(explorerSource(etherscan, publicExplorers)).toMatchObject({
        kind: "etherscan",
        apiKey: null,
        ratePerSecond: 1000,
        origin: "explorer_api_url",
      });
    }
    const blockscout = chainConfig(1, "https://eth.blockscout.com", {
      explorer_rate_limit_per_second: undefined,
    });
    expect(explorerSource(blockscout, false)).toMatchObject({ kind: "blockscout", ratePerSecond: 5 });
    expect(explorerSource(blockscout, false)?.baseUrl.href).toBe("https://eth.blockscout.com/");
  });

  it("without explorer_api_url, the statistics' blockscout_url serves histories only with public explorers on", () => {
    const builtIn = chainConfig(1, "x", {
      explorer_api_url: undefined,
      explorer_api_kind: undefined,
      explorer_rate_limit_per_second: undefined,
      blockscout_url: "https://eth.blockscout.com",
    });
    expect(explorerSource(builtIn, true)).toMatchObject({
      kind: "blockscout",
      apiKey: null,
      ratePerSecond: 5,
      origin: "blockscout_url",
    });
    expect(explorerSource(builtIn, true)?.baseUrl.href).toBe("https://eth.blockscout.com/");
    expect(explorerSource(builtIn, false)).toBeUndefined();
    // null clears the chain's explorer: no histories, whatever blockscout_url and the setting say.
    expect(explorerSource({ ...builtIn, explorer_api_url: null }, true)).toBeUndefined();
    // No blockscout_url: nothing to ask.
    expect(explorerSource({ ...builtIn, blockscout_url: null }, true)).toBeUndefined();
    // Its rate and key apply to the Blockscout; a key for an Etherscan-compatible API is never sent there.
    const tuned = { ...builtIn, explorer_rate_limit_per_second: 2, explorer_api_key: "k" };
    expect(explorerSource(tuned, true)).toMatchObject({ ratePerSecond: 2, apiKey: "k" });
    expect(explorerSource({ ...tuned, explorer_api_kind: "etherscan" as const }, true)).toMatchObject({
      kind: "blockscout",
      apiKey: null,
    });
  });

  it("the built-in chains with a Blockscout ask it by default, Tron mainnet TronGrid, and only those", () => {
    const asking = BUILT_IN_CHAINS.filter((c) => explorerSource(c, true)).map((c) => [
      c.id,
      explorerSource(c, true)?.kind,
      explorerSource(c, true)?.baseUrl.href,
    ]);
    expect(asking).toEqual([
      [1, "blockscout", "https://eth.blockscout.com/"],
      [137, "blockscout", "https://polygon.blockscout.com/"],
      [42161, "blockscout", "https://arbitrum.blockscout.com/"],
      [8453, "blockscout", "https://base.blockscout.com/"],
      [728126428, "trongrid", "https://api.trongrid.io/"],
    ]);
    expect(BUILT_IN_CHAINS.filter((c) => explorerSource(c, false))).toEqual([]);
  });

  it("accepts the explorer fields in a chains file and rejects a wrong kind", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-explorer-"));
    try {
      const file = path.join(dir, "chains.json");
      const chain = {
        id: 100,
        name: "Gnosis",
        currency_symbol: "XDAI",
        explorer_api_url: "https://gnosis.blockscout.com",
        explorer_api_kind: "blockscout",
        explorer_api_key: "k",
        explorer_rate_limit_per_second: 2.5,
      };
      fs.writeFileSync(file, JSON.stringify([chain]));
      expect(loadChainsFile(file)[0]).toMatchObject(chain);
      fs.writeFileSync(file, JSON.stringify([{ ...chain, explorer_api_kind: "covalent" }]));
      expect(() => loadChainsFile(file)).toThrow("/explorer_api_kind");
      fs.writeFileSync(file, JSON.stringify([{ ...chain, explorer_rate_limit_per_second: 0 }]));
      expect(() => loadChainsFile(file)).toThrow("/explorer_rate_limit_per_second");
      // Absent and null stay apart: absent lets blockscout_url serve (public explorers on), null clears.
      const { explorer_api_url: _, ...absent } = chain;
      const stats = { ...absent, blockscout_url: "https://gnosis.blockscout.com" };
      fs.writeFileSync(file, JSON.stringify([stats, { ...stats, id: 101, explorer_api_url: null }]));
      const [defaulted, cleared] = loadChainsFile(file);
      expect(defaulted?.explorer_api_url).toBeUndefined();
      expect(explorerSource(defaulted!, true)?.origin).toBe("blockscout_url");
      expect(cleared?.explorer_api_url).toBeNull();
      expect(explorerSource(cleared!, true)).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
