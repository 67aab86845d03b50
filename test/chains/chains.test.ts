// The chains feature end to end: GET /v1/chains and GET /v1/chains/{chainId} against a fake Blockscout on
// 127.0.0.1 (list and detail shapes, 404/400), the stats cache (TTL, one upstream call for concurrent requests,
// stale-while-revalidate), a slow, failing or down upstream (the route still answers within 2 s, from the last
// snapshot or from the service's own data), the snapshot surviving a restart, and chains-file validation at
// start-up. Runs on the in-memory PGlite and, with DATABASE_URL, on PostgreSQL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainStatsService } from "../../src/chains/chain-stats.ts";
import { type ChainConfig, loadChainsFile } from "../../src/chains/registry.ts";
import { createProject } from "../../src/keys/index.ts";
import { loadConfig } from "../../src/platform/config.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { type Service, startService } from "../../src/service.ts";
import { testDatabase } from "../support/database.ts";
import { blockscoutStats, FakeBlockscout } from "../support/fake-blockscout.ts";
import {
  auth,
  startTestService,
  TEST_SECRET,
  type TestService,
  writeChainsFile,
} from "../support/service.ts";

/** The stand-in Blockscouts are on 127.0.0.1: the statistics' outbound client allows it in these tests. */
const LOCAL_OUTBOUND = new OutboundClient({ allowPrivate: true });

/** The route must never keep a client waiting longer than this on the upstream (docs/api.md, "Chains (viewer)"). */
const ROUTE_BUDGET_MS = 2000;
const TTL_SECONDS = 1;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** The documented chain detail for the stats `blockscoutStats()` serves. */
const EXPECTED_STATS = {
  market_cap: "329663113187.488651200",
  coin_price: "2735.25",
  coin_image: "https://coin-images.coingecko.com/coins/images/279/small/ethereum.png?1696501628",
  total_addresses: "67136720",
  total_blocks: "302652520",
  total_transactions: "1292967936",
  tvl: null,
};

const NULL_STATS = {
  market_cap: null,
  coin_price: null,
  total_addresses: null,
  total_blocks: null,
  total_transactions: null,
  tvl: null,
};

const CONFIG_COIN_IMAGE = "https://images.example/coin.png";

// One chain (and one fake Blockscout) per scenario, so the scenarios' caches never meet.
const SCENARIOS = [
  "detail",
  "numbers",
  "cache",
  "concurrent",
  "staleDown",
  "staleSlow",
  "coldDown",
  "coldSlow",
  "coldError",
  "coldInvalidJson",
  "notStats",
  "disabled",
] as const;
type Scenario = (typeof SCENARIOS)[number];
const ID: Record<Scenario, number> = Object.fromEntries(SCENARIOS.map((s, i) => [s, 1001 + i])) as Record<
  Scenario,
  number
>;
const NO_SOURCE_ID = 2001;
const RPC_ID = 2002;

let svc: TestService;
const fakes = {} as Record<Scenario, FakeBlockscout>;

beforeAll(async () => {
  for (const scenario of SCENARIOS) fakes[scenario] = await FakeBlockscout.start();
  fakes.numbers.stats = blockscoutStats({
    // Some Blockscout versions send JSON numbers; tvl is set on chains that track it.
    total_blocks: 302652520,
    total_addresses: 67136720,
    coin_price: 2735.25,
    tvl: "1523000000.5",
    market_cap: null,
  });
  const chains = [
    ...SCENARIOS.map((s) => ({
      id: ID[s],
      name: `Fake ${s}`,
      currency_symbol: "ETH",
      blockscout_url: fakes[s].url,
      coin_image: CONFIG_COIN_IMAGE,
      explorer_url: `https://explorer.example/${s}`,
      ...(s === "disabled" ? { enabled: false } : {}),
    })),
    {
      id: NO_SOURCE_ID,
      name: "No source",
      currency_symbol: "NOS",
      currency_decimals: 6,
      coin_image: CONFIG_COIN_IMAGE,
    },
    {
      id: RPC_ID,
      name: "With RPC",
      currency_symbol: "RPC",
      rpc_url: "http://127.0.0.1:9/secret-provider-key",
      blockscout_url: null,
    },
  ];
  // The stand-in Blockscouts run on 127.0.0.1: statistics go through the outbound client, which allows them here.
  svc = await startTestService({
    chains,
    env: { VIGIA_CHAIN_STATS_TTL_SECONDS: String(TTL_SECONDS), VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
  });
});

afterAll(async () => {
  await svc?.stop();
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

const get = (url: string, key: string | null = svc.project.keys.viewer) =>
  svc.app!.inject({ method: "GET", url: `/v1${url}`, headers: key ? auth(key) : {} });

/** GET /v1/chains/{id}, with the wall time the inject took. */
async function detail(id: number | string) {
  const started = performance.now();
  const res = await get(`/chains/${id}`);
  return { res, ms: performance.now() - started, body: res.json() };
}

async function storedSnapshot(chainId: number) {
  return svc.database.db
    .selectFrom("chain_snapshots")
    .select(["data", "fetched_at"])
    .where("chain_id", "=", chainId)
    .executeTakeFirst();
}

describe("GET /v1/chains", () => {
  it("lists the enabled chains, ordered by id, without RPC or Blockscout URLs", async () => {
    const res = await get("/chains");
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    const expected = [
      ...SCENARIOS.filter((s) => s !== "disabled").map((s) => ({
        id: ID[s],
        name: `Fake ${s}`,
        explorer_url: `https://explorer.example/${s}`,
        currency_symbol: "ETH",
        currency_decimals: 18,
      })),
      {
        id: NO_SOURCE_ID,
        name: "No source",
        explorer_url: null,
        currency_symbol: "NOS",
        currency_decimals: 6,
      },
      { id: RPC_ID, name: "With RPC", explorer_url: null, currency_symbol: "RPC", currency_decimals: 18 },
    ];
    expect(body).toEqual({ success: true, data: expected });
    for (const item of body.data) {
      expect(Object.keys(item).sort()).toEqual([
        "currency_decimals",
        "currency_symbol",
        "explorer_url",
        "id",
        "name",
      ]);
    }
    expect(res.body).not.toContain("rpc_url");
    expect(res.body).not.toContain("secret-provider-key");
    expect(res.body).not.toContain("blockscout");
    expect(res.body).not.toContain("127.0.0.1");
    expect(body.data.map((c: { id: number }) => c.id)).not.toContain(ID.disabled);
  });

  it("requires an api key", async () => {
    for (const url of ["/chains", `/chains/${ID.detail}`]) {
      const res = await get(url, null);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({
        success: false,
        error: "unauthorized",
        message: "The api key is invalid",
      });
    }
  });
});

describe("GET /v1/chains/{chainId}", () => {
  it("returns the documented chain detail from the chain's Blockscout stats", async () => {
    const before = Date.now();
    const { res, body } = await detail(ID.detail);
    expect(res.statusCode).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        name: "Fake detail",
        chain_id: ID.detail,
        currency_symbol: "ETH",
        ...EXPECTED_STATS,
        stats_source: "blockscout",
        stats_updated_at: expect.any(String),
      },
    });
    expect(Number.isInteger(body.data.chain_id)).toBe(true);
    const updated = Date.parse(body.data.stats_updated_at);
    expect(new Date(updated).toISOString()).toBe(body.data.stats_updated_at);
    expect(updated).toBeGreaterThanOrEqual(before - 5);
    expect(updated).toBeLessThanOrEqual(Date.now() + 5);
    // Only the spec's subset of Blockscout's fields is exposed.
    for (const field of ["gas_prices", "average_block_time", "transactions_today", "total_gas_used"]) {
      expect(body.data).not.toHaveProperty(field);
    }
    expect(fakes.detail.requests).toBe(1);
  });

  it("turns numbers Blockscout sends as JSON numbers into decimal strings and keeps a non-null tvl", async () => {
    const { res, body } = await detail(ID.numbers);
    expect(res.statusCode).toBe(200);
    expect(body.data).toMatchObject({
      total_blocks: "302652520",
      total_addresses: "67136720",
      total_transactions: "1292967936",
      coin_price: "2735.25",
      market_cap: null,
      tvl: "1523000000.5",
      stats_source: "blockscout",
    });
  });

  it("serves the service's own data for a chain without a Blockscout instance", async () => {
    const { res, body } = await detail(NO_SOURCE_ID);
    expect(res.statusCode).toBe(200);
    expect(body.data).toEqual({
      name: "No source",
      chain_id: NO_SOURCE_ID,
      currency_symbol: "NOS",
      ...NULL_STATS,
      coin_image: CONFIG_COIN_IMAGE,
      stats_source: "index",
      stats_updated_at: null,
    });
  });

  it("answers 404 not_found for an unknown chain and for a disabled one, without asking the upstream", async () => {
    for (const id of [999_999, ID.disabled]) {
      const { res, body } = await detail(id);
      expect(res.statusCode, String(id)).toBe(404);
      // The answer names the chains there are, so that a caller who wrote the wrong id sees the right one.
      expect(body).toMatchObject({ success: false, error: "not_found" });
      expect(body.message).toMatch(new RegExp(`^Chain ${id} not found: the chains here are \\d+ \\(`));
      expect(body.message).not.toContain(`${ID.disabled} (`);
    }
    expect(fakes.disabled.requests).toBe(0);
  });

  it("answers 400 for a chain id that is not a positive safe integer", async () => {
    for (const id of ["abc", "1.5", "0", "-1", "1001x", "9007199254740993"]) {
      const { res, body } = await detail(id);
      expect(res.statusCode, id).toBe(400);
      expect(body, id).toMatchObject({ success: false, error: "invalid_request", message: "Invalid path" });
    }
  });
});

describe("stats cache", () => {
  it("does not ask the upstream again within the TTL, and refreshes after it", async () => {
    const fake = fakes.cache;
    const first = await detail(ID.cache);
    expect(first.body.data.total_blocks).toBe("302652520");
    expect(fake.requests).toBe(1);

    const second = await detail(ID.cache);
    expect(second.body.data).toEqual(first.body.data);
    expect(fake.requests).toBe(1);

    fake.stats = blockscoutStats({ total_blocks: "302659999", coin_price: "2801.10" });
    await sleep(TTL_SECONDS * 1000 + 150);

    // Past the TTL the stale snapshot is answered at once while the refresh runs behind it.
    const third = await detail(ID.cache);
    expect(third.res.statusCode).toBe(200);
    expect(third.ms).toBeLessThan(ROUTE_BUDGET_MS);
    await until("the refresh request", () => fake.requests === 2);
    await until(
      "the refreshed snapshot",
      async () => (await detail(ID.cache)).body.data.total_blocks === "302659999",
    );

    const fourth = await detail(ID.cache);
    expect(fourth.body.data).toMatchObject({ total_blocks: "302659999", coin_price: "2801.10" });
    expect(Date.parse(fourth.body.data.stats_updated_at)).toBeGreaterThan(
      Date.parse(first.body.data.stats_updated_at),
    );
    expect(fake.requests).toBe(2);

    // The refreshed figures are served from memory as soon as they arrive; the snapshot row is written beside
    // them and may land a moment later on a loaded machine.
    await until(
      "the stored snapshot",
      async () => (await storedSnapshot(ID.cache))?.data.total_blocks === "302659999",
    );
    const row = await storedSnapshot(ID.cache);
    expect(row?.data).toMatchObject({ total_blocks: "302659999", coin_price: "2801.10" });
    expect(row?.fetched_at.toISOString()).toBe(fourth.body.data.stats_updated_at);
  });

  it("asks the upstream once for concurrent requests on a cold cache", async () => {
    const fake = fakes.concurrent;
    fake.slow(200);
    const results = await Promise.all(Array.from({ length: 8 }, () => detail(ID.concurrent)));
    for (const { res, body } of results) {
      expect(res.statusCode).toBe(200);
      expect(body.data).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
    }
    expect(fake.requests).toBe(1);
  });
});

describe("slow, failing or down upstream", () => {
  it("down: serves the last snapshot within 2 s", async () => {
    const fake = fakes.staleDown;
    const first = await detail(ID.staleDown);
    expect(first.body.data.stats_source).toBe("blockscout");
    await sleep(TTL_SECONDS * 1000 + 150);
    await fake.down();

    for (let i = 0; i < 3; i++) {
      const { res, ms, body } = await detail(ID.staleDown);
      expect(res.statusCode).toBe(200);
      expect(ms).toBeLessThan(ROUTE_BUDGET_MS);
      expect(body.data).toEqual(first.body.data);
    }
  });

  it("slow: serves the last snapshot within 2 s", async () => {
    const fake = fakes.staleSlow;
    const first = await detail(ID.staleSlow);
    await sleep(TTL_SECONDS * 1000 + 150);
    fake.slow(5000);

    const { res, ms, body } = await detail(ID.staleSlow);
    expect(res.statusCode).toBe(200);
    expect(ms).toBeLessThan(ROUTE_BUDGET_MS);
    expect(body.data).toEqual(first.body.data);
    await until("the refresh request", () => fake.requests === 2); // started, and the route did not wait for it
  });

  it("down with no snapshot: the service's own data within 2 s", async () => {
    const fake = fakes.coldDown;
    await fake.down();
    const { res, ms, body } = await detail(ID.coldDown);
    expect(res.statusCode).toBe(200);
    expect(ms).toBeLessThan(ROUTE_BUDGET_MS);
    expect(body.data).toEqual({
      name: "Fake coldDown",
      chain_id: ID.coldDown,
      currency_symbol: "ETH",
      ...NULL_STATS,
      coin_image: CONFIG_COIN_IMAGE,
      stats_source: "index",
      stats_updated_at: null,
    });
    expect(await storedSnapshot(ID.coldDown)).toBeUndefined();
  });

  it("slow with no snapshot: the service's own data within 2 s; the late answer becomes the snapshot", async () => {
    const fake = fakes.coldSlow;
    fake.slow(2500);
    const { res, ms, body } = await detail(ID.coldSlow);
    expect(res.statusCode).toBe(200);
    expect(ms).toBeLessThan(ROUTE_BUDGET_MS);
    expect(body.data).toMatchObject({ ...NULL_STATS, stats_source: "index", stats_updated_at: null });

    await until(
      "the late answer to be stored",
      async () => (await storedSnapshot(ID.coldSlow)) !== undefined,
    );
    const later = await detail(ID.coldSlow);
    expect(later.body.data).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
    expect(fake.requests).toBe(1);
  });

  it("500 or invalid JSON with no snapshot: the service's own data, and no retry at once", async () => {
    fakes.coldError.fail();
    fakes.coldInvalidJson.invalidJson();
    for (const scenario of ["coldError", "coldInvalidJson"] as const) {
      for (let i = 0; i < 2; i++) {
        const { res, ms, body } = await detail(ID[scenario]);
        expect(res.statusCode, scenario).toBe(200);
        expect(ms, scenario).toBeLessThan(ROUTE_BUDGET_MS);
        expect(body.data, scenario).toMatchObject({ ...NULL_STATS, stats_source: "index" });
      }
      // A failing upstream is not asked again right away (it would be asked on every request otherwise).
      expect(fakes[scenario].requests, scenario).toBe(1);
      expect(await storedSnapshot(ID[scenario]), scenario).toBeUndefined();
    }
  });
});

describe("upstream answering 200 with something other than stats", () => {
  it("keeps the last snapshot instead of replacing it with empty figures", async () => {
    const fake = fakes.notStats;
    const first = await detail(ID.notStats);
    expect(first.body.data).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
    fake.stats = { message: "Not found" };
    await sleep(TTL_SECONDS * 1000 + 150);

    const { res, ms, body } = await detail(ID.notStats);
    expect(res.statusCode).toBe(200);
    expect(ms).toBeLessThan(ROUTE_BUDGET_MS);
    expect(body.data).toEqual(first.body.data);
    await until("the refresh request", () => fake.requests === 2);
    await sleep(100); // let the refresh settle before reading what it left behind
    expect((await detail(ID.notStats)).body.data).toEqual(first.body.data);
    expect((await storedSnapshot(ID.notStats))?.data).toMatchObject(EXPECTED_STATS);
  });
});

describe("ChainStatsService", () => {
  const chain = (id: number, blockscout: string): ChainConfig => ({
    id,
    name: `Direct ${id}`,
    currency_symbol: "ETH",
    currency_decimals: 18,
    explorer_url: null,
    blockscout_url: blockscout,
    rpc_url: null,
    coin_image: null,
    enabled: true,
  });

  it("asks a failed upstream again once the back-off has passed", async () => {
    const fake = await FakeBlockscout.start();
    try {
      let now = Date.now();
      const stats = new ChainStatsService(svc.database.db, {
        outbound: LOCAL_OUTBOUND,
        ttlMs: 60_000,
        timeoutMs: 1500,
        retryAfterFailureMs: 30_000,
        now: () => now,
      });
      const c = chain(3001, fake.url);
      fake.fail();
      expect((await stats.detail(c)).stats_source).toBe("index");
      fake.ok();
      expect((await stats.detail(c)).stats_source).toBe("index");
      expect(fake.requests).toBe(1);
      now += 30_001;
      expect(await stats.detail(c)).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
      expect(fake.requests).toBe(2);
    } finally {
      await fake.close();
    }
  });

  it("treats a 200 body that is not Blockscout stats as a failed refresh", async () => {
    const fake = await FakeBlockscout.start();
    try {
      let now = Date.now();
      const stats = new ChainStatsService(svc.database.db, {
        outbound: LOCAL_OUTBOUND,
        ttlMs: 1000,
        timeoutMs: 1500,
        retryAfterFailureMs: 1000,
        now: () => now,
      });
      const c = chain(3003, fake.url);
      const good = await stats.detail(c);
      expect(good).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
      for (const body of [[], { message: "Not found" }, { items: [], next_page_params: null }, "stats"]) {
        fake.stats = body as Record<string, unknown>;
        now += 5000; // past the TTL and any back-off: the next call refreshes
        const asked = fake.requests;
        await stats.detail(c);
        await until("the refresh request", () => fake.requests === asked + 1);
        await sleep(50);
        expect(await stats.detail(c), JSON.stringify(body)).toEqual(good);
      }
    } finally {
      await fake.close();
    }
  });

  it("a second instance on the same database serves the stored snapshot while the upstream is down", async () => {
    const fake = await FakeBlockscout.start();
    try {
      const c = chain(3002, fake.url);
      const opts = { ttlMs: 1, timeoutMs: 1500, outbound: LOCAL_OUTBOUND };
      const first = await new ChainStatsService(svc.database.db, opts).detail(c);
      expect(first.stats_source).toBe("blockscout");
      await fake.down();
      const started = performance.now();
      const second = await new ChainStatsService(svc.database.db, opts).detail(c);
      expect(performance.now() - started).toBeLessThan(ROUTE_BUDGET_MS);
      expect(second).toEqual(first);
    } finally {
      await fake.close();
    }
  });
});

describe("snapshot across a restart", () => {
  it("a service started afresh on the same database serves the stored snapshot while the upstream is down", async () => {
    const fake = await FakeBlockscout.start();
    const database = testDatabase(); // PostgreSQL: one schema, reused by both starts
    const dataDir = database.databaseUrl
      ? undefined
      : fs.mkdtempSync(path.join(os.tmpdir(), "vigia-restart-"));
    const chainsFile = writeChainsFile([
      { id: 4001, name: "Restart chain", currency_symbol: "ETH", blockscout_url: fake.url },
    ]);
    const start = () =>
      startService(
        loadConfig({
          VIGIA_SECRET: TEST_SECRET,
          VIGIA_LOG_LEVEL: "silent",
          PORT: "0",
          VIGIA_CHAINS: chainsFile,
          VIGIA_CHAIN_STATS_TTL_SECONDS: String(TTL_SECONDS),
          VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
          ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { VIGIA_DATA_DIR: dataDir }),
        }),
        { http: true, workers: false, ...(database.schema ? { schema: database.schema } : {}) },
      );
    const fetchDetail = async (service: Service, key: string) => {
      const started = performance.now();
      const res = await service.app!.inject({ method: "GET", url: "/v1/chains/4001", headers: auth(key) });
      return { res, ms: performance.now() - started, body: res.json() };
    };
    let service: Service | undefined;
    try {
      service = await start();
      const { key } = await createProject(service.keys, { name: "Restart" }, { kind: "cli" });
      const first = await fetchDetail(service, key);
      expect(first.body.data).toMatchObject({ ...EXPECTED_STATS, stats_source: "blockscout" });
      const row = await service.database.db
        .selectFrom("chain_snapshots")
        .selectAll()
        .where("chain_id", "=", 4001)
        .executeTakeFirstOrThrow();
      expect(row.data).toMatchObject(EXPECTED_STATS);
      expect(row.fetched_at.toISOString()).toBe(first.body.data.stats_updated_at);
      await service.close();
      service = undefined;

      await fake.down();
      await sleep(TTL_SECONDS * 1000 + 150); // the stored snapshot is stale too: the upstream would be asked
      service = await start();
      const again = await fetchDetail(service, key);
      expect(again.res.statusCode).toBe(200);
      expect(again.ms).toBeLessThan(ROUTE_BUDGET_MS);
      expect(again.body.data).toEqual(first.body.data);
    } finally {
      await service?.close();
      await fake.close();
      await database.drop();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(path.dirname(chainsFile), { recursive: true, force: true });
    }
  });
});

describe("chains file (VIGIA_CHAINS)", () => {
  const good = { id: 5001, name: "Good", currency_symbol: "ETH" };

  it("start-up fails with a message naming the file and the invalid entry", async () => {
    const file = writeChainsFile([good, { id: "abc", name: "Broken", currency_symbol: "ETH" }]);
    const database = testDatabase();
    try {
      const config = loadConfig({
        VIGIA_SECRET: TEST_SECRET,
        VIGIA_LOG_LEVEL: "silent",
        VIGIA_CHAINS: file,
        ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      });
      config.dataDir = database.dataDir;
      const started = startService(config, {
        http: false,
        workers: false,
        ...(database.schema ? { schema: database.schema } : {}),
      });
      await expect(started).rejects.toThrow(file);
      await expect(started).rejects.toThrow(/chain #2: \/id /);
    } finally {
      await database.drop();
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it.each([
    [
      "a wrong type",
      [good, { ...good, id: 5002, currency_decimals: "18" }],
      /chain #2: \/currency_decimals /,
    ],
    ["a missing field", [{ id: 5002, name: "No symbol" }], /chain #1: \/currency_symbol /],
    [
      "an unknown field (typo)",
      [good, { ...good, id: 5002, rpcUrl: "http://127.0.0.1:1" }],
      /chain #2: \/rpcUrl Unexpected property/,
    ],
    ["a chain id below 1", [{ ...good, id: 0 }], /chain #1: \/id /],
    ["a duplicate chain id", [good, { ...good, name: "Again" }], /chain #2: .*5001/],
    ["not a list", { chain: good }, /must hold an array of chains/],
  ])("rejects %s", (_label, content, message) => {
    const file = writeChainsFile(content as unknown[]);
    try {
      expect(() => loadChainsFile(file)).toThrow(message);
      expect(() => loadChainsFile(file)).toThrow(file);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it("rejects a file that cannot be read or parsed, naming it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-chains-"));
    try {
      const missing = path.join(dir, "missing.json");
      expect(() => loadChainsFile(missing)).toThrow(`VIGIA_CHAINS: cannot read ${missing}`);
      const broken = path.join(dir, "broken.json");
      fs.writeFileSync(broken, "[{");
      expect(() => loadChainsFile(broken)).toThrow(`VIGIA_CHAINS: cannot read ${broken}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("accepts a valid file, with defaults, as an array or as {chains: [...]}", () => {
    for (const content of [[good], { chains: [good] }]) {
      const file = writeChainsFile(content as unknown[]);
      try {
        const loaded = loadChainsFile(file);
        expect(loaded).toHaveLength(1);
        // Only the fields of this feature: other features add their own optional ones to the schema.
        expect(loaded).toMatchObject([
          {
            ...good,
            currency_decimals: 18,
            explorer_url: null,
            blockscout_url: null,
            rpc_url: null,
            coin_image: null,
            enabled: true,
          },
        ]);
      } finally {
        fs.rmSync(path.dirname(file), { recursive: true, force: true });
      }
    }
  });
});
