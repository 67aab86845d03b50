// Public explorers by default (docs/decisions/0025): a built-in chain (its entry from BUILT_IN_CHAINS, its
// `blockscout_url` pointed at a stand-in on 127.0.0.1) fetches the histories its analyses read from that Blockscout
// without any `explorer_api_url`; `explorer_api_url: null` clears it for one chain and VIGIA_PUBLIC_EXPLORERS=false
// for all (no request at all, `hasExplorer` false); a Blockscout answering 500 or a closed port leaves an analysis
// that answers and a history report naming the failure; a 429's Retry-After pauses that host for every analysis of
// the process and no other host. The stand-ins are the replay explorer (Blockscout API v2, in a worker thread that
// timestamps arrivals) and a port nobody listens on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expandGraph } from "../../src/analysis/graph/index.ts";
import { BUILT_IN_CHAINS, type ChainConfig } from "../../src/chains/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { addressOf, HEAD_TIME, makeHistory } from "./history-data.ts";
import { ReplayExplorer } from "./replay-explorer.ts";
import { FAST } from "./setup.ts";

const builtIn = (id: number, overrides: Partial<ChainConfig>): ChainConfig => {
  const chain = BUILT_IN_CHAINS.find((c) => c.id === id);
  if (!chain?.blockscout_url) throw new Error(`built-in chain ${id} has no Blockscout`);
  return { ...chain, ...overrides };
};

/** A port on 127.0.0.1 that refuses connections (listened on, then closed). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const subject = makeHistory({ seed: "pub", txs: 30, tokenTransfers: 6 });
/** Sends the subject ETH in its 4th transaction: a direct counterparty only the explorer knows of. */
const sanctioned = addressOf("pub:peer:3");
// The 429's analyses: two on Ethereum's host (a), one on Polygon's (b).
const limited = makeHistory({ seed: "pub-429", txs: 8, tokenTransfers: 2 });
const beside = makeHistory({ seed: "pub-beside", txs: 8, tokenTransfers: 2 });
const elsewhere = makeHistory({ seed: "pub-elsewhere", txs: 8, tokenTransfers: 2 });
/** Its Blockscout answers 500 to everything about it. */
const failing = makeHistory({ seed: "pub-500", txs: 8, tokenTransfers: 2 });

// Ethereum's Blockscout lets 3 requests a second through (5 by default): the next request is not due before the
// client has read a 429 (its event loop is shared with the embedded database), and the analyses end well within
// their 5 s budget after a 2 s Retry-After.
const RATE_A = 3;
const RETRY_AFTER_S = 2;
/** Timer jitter allowed below a nominal wait (test/explorer/rate-limit.test.ts). */
const JITTER_MS = 15;

let a: ReplayExplorer;
let b: ReplayExplorer;
let refused: string;

beforeAll(async () => {
  [a, b] = await Promise.all([
    ReplayExplorer.start(subject, limited, beside),
    ReplayExplorer.start(elsewhere, failing),
  ]);
  refused = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

async function fetchRecords(svc: TestService, chainId: number) {
  const { rows } = await sql<{ address: string; source: string }>`
    SELECT address, source FROM explorer_fetches WHERE chain_id = ${chainId} ORDER BY address`.execute(
    svc.database.db,
  );
  return rows;
}

const quick = (svc: TestService, address: string, chainId: number) =>
  svc.app!.inject({
    method: "GET",
    url: `/v1/risk/quick?address=${address}&chainId=${chainId}`,
    headers: auth(svc.project.keys.viewer),
  });

describe("public explorers on (the default)", () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      // Test services turn public explorers off; this one has the default back, its Blockscouts on 127.0.0.1.
      env: { VIGIA_PUBLIC_EXPLORERS: "true" },
      chains: [
        builtIn(1, { blockscout_url: a.url, explorer_rate_limit_per_second: RATE_A }),
        builtIn(137, { blockscout_url: b.url }),
        builtIn(8453, { blockscout_url: refused }),
        // Its Blockscout is a stand-in too, but the operator cleared its explorer.
        builtIn(42161, { blockscout_url: a.url, explorer_api_url: null }),
      ],
      service: { explorer: FAST },
    });
    await svc.database.db
      .insertInto("labels")
      .values({
        address: sanctioned,
        chain_id: 0,
        label: "OFAC SDN test entry",
        category: "sanctioned",
        source: "test",
      })
      .execute();
    const day = (unix: number) => new Date(unix * 1000).toISOString().slice(0, 10);
    await svc.database.db
      .insertInto("prices")
      .values(
        [HEAD_TIME - 86_400, HEAD_TIME].map((t) => ({
          chain_id: 1,
          token: "native",
          day: day(t),
          price_usd: "3000",
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it("a built-in chain fetches from its blockscout_url: the quick check sees a counterparty only the explorer knows", async () => {
    expect(svc.config.publicExplorers).toBe(true);
    expect(svc.history.hasExplorer(1)).toBe(true);
    await a.clearLog();
    const res = await quick(svc, subject.address, 1);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.risk).toBeGreaterThanOrEqual(80);
    expect(res.json().data.reason).toMatch(/sanction/i);
    const paths = (await a.requests()).map((r) => r.path);
    expect(paths).toEqual([
      `/api/v2/addresses/${subject.address}/transactions`,
      `/api/v2/addresses/${subject.address}/token-transfers`,
    ]);
    const host = new URL(a.url).host;
    expect(await fetchRecords(svc, 1)).toEqual([{ address: subject.address, source: `blockscout ${host}` }]);
    // Cache-through: the next analysis reads the store.
    await a.clearLog();
    expect((await quick(svc, subject.address, 1)).json().data.risk).toBeGreaterThanOrEqual(80);
    expect(await a.requests()).toEqual([]);
  });

  it("a chain whose explorer_api_url is null asks nobody, though its blockscout_url would answer", async () => {
    expect(svc.history.hasExplorer(42161)).toBe(false);
    await a.clearLog();
    expect((await quick(svc, subject.address, 42161)).json().data).toMatchObject({ patterns: [] });
    expect(await a.requests()).toEqual([]);
    expect(await fetchRecords(svc, 42161)).toEqual([]);
  });

  it("the start's line names each chain's explorer host, and the chains that read the store only", () => {
    const line = svc.history.describeSources(svc.registry.enabled());
    expect(line).toBe(
      `Address histories: Ethereum (1) from ${new URL(a.url).host} (blockscout_url), ` +
        `Polygon PoS (137) from ${new URL(b.url).host} (blockscout_url), ` +
        `Base (8453) from ${new URL(refused).host} (blockscout_url); the store only for Arbitrum One (42161) ` +
        "(VIGIA_PUBLIC_EXPLORERS=false stops asking blockscout_url instances, which see the addresses analysed)",
    );
  });

  it("a Blockscout answering 500: the analyses answer, and the history report names the failure", async () => {
    await b.inject({ kind: "status", status: 500 }, 1000, {
      pathEndsWith: `${failing.address}/transactions`,
    });
    try {
      expect((await quick(svc, failing.address, 137)).statusCode).toBe(200);
      const { layers } = await expandGraph(
        svc.database.db,
        { chainId: 137, roots: [failing.address], maxDepth: 1 },
        { history: svc.history },
      );
      expect(layers[0]!.history).toMatchObject({ ensured: 0, skipped: [] });
      expect(layers[0]!.history.failed).toEqual([
        { address: failing.address, error: expect.stringMatching(/HTTP 500 \(gave up after 4 attempts\)/) },
      ]);
      // An investigation records it in its layer.
      const created = await svc.app!.inject({
        method: "POST",
        url: `/v1/projects/${svc.project.id}/investigations`,
        headers: auth(svc.project.keys.developer),
        payload: { name: "Explorer down", wallet: failing.address, chainId: 137, maxDepth: 1 },
      });
      expect(created.statusCode).toBe(201);
      const layer = await svc.app!.inject({
        method: "GET",
        url: `/v1/analysis/${created.json().data.analysis_id}/layers/0`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(layer.json().data.layerMetadata.errorCount).toBe(1);
      expect(await fetchRecords(svc, 137)).toEqual([]);
    } finally {
      await b.reset();
    }
  });

  it("a Blockscout refusing connections: the analysis answers, and the history report names the failure", async () => {
    expect((await quick(svc, subject.address, 8453)).statusCode).toBe(200);
    const { layers } = await expandGraph(
      svc.database.db,
      { chainId: 8453, roots: [subject.address], maxDepth: 1 },
      { history: svc.history },
    );
    expect(layers[0]!.history.failed).toEqual([
      {
        address: subject.address,
        error: expect.stringMatching(/the connection was refused.*\(gave up after 4 attempts\)/),
      },
    ]);
  });

  it("a 429's Retry-After pauses its host for every analysis of the process, and no other host", async () => {
    await Promise.all([a.reset(), b.reset()]);
    await a.inject({ kind: "status", status: 429, headers: { "retry-after": String(RETRY_AFTER_S) } }, 1, {
      pathEndsWith: `${limited.address}/transactions`,
    });
    // Three analyses at once: two on Ethereum's host, one on Polygon's.
    const answers = await Promise.all([
      quick(svc, limited.address, 1),
      quick(svc, beside.address, 1),
      quick(svc, elsewhere.address, 137),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const onA = await a.requests();
    const onB = await b.requests();
    const tooMany = onA.find((r) => r.status === 429)!;
    expect(tooMany.path).toBe(`/api/v2/addresses/${limited.address}/transactions`);
    const resumes = tooMany.at + RETRY_AFTER_S * 1000 - JITTER_MS;
    // Every later request to the host waited, whichever analysis it served; the one refused came again.
    const later = onA.filter((r) => r.at > tooMany.at);
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) expect(r.at, r.path).toBeGreaterThanOrEqual(resumes);
    expect(later.map((r) => r.path)).toContain(tooMany.path);
    expect(later.some((r) => r.path.includes(beside.address))).toBe(true);
    // The other host was not held up.
    expect(onB.map((r) => r.path)).toEqual([
      `/api/v2/addresses/${elsewhere.address}/transactions`,
      `/api/v2/addresses/${elsewhere.address}/token-transfers`,
    ]);
    for (const r of onB) expect(r.at, r.path).toBeLessThan(resumes);
    // Each history was fetched whole.
    const fetched = (await fetchRecords(svc, 1)).map((r) => r.address);
    expect(fetched).toEqual(expect.arrayContaining([limited.address, beside.address]));
    expect((await fetchRecords(svc, 137)).map((r) => r.address)).toEqual([elsewhere.address]);
  });
});

describe("public explorers off (VIGIA_PUBLIC_EXPLORERS=false)", () => {
  let svc: TestService;
  const explicit = 7201;
  beforeAll(async () => {
    svc = await startTestService({
      env: { VIGIA_PUBLIC_EXPLORERS: "false" },
      chains: [
        builtIn(1, { blockscout_url: a.url }),
        // An operator's explicit explorer is asked whatever the setting says.
        {
          id: explicit,
          name: "Explicit explorer",
          currency_symbol: "ETH",
          explorer_api_url: b.url,
          explorer_rate_limit_per_second: 1000,
        },
      ],
      service: { explorer: FAST },
    });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it("a built-in chain makes no request: it reads the store as it is", async () => {
    expect(svc.config.publicExplorers).toBe(false);
    expect(svc.history.hasExplorer(1)).toBe(false);
    await a.reset();
    const res = await quick(svc, subject.address, 1);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ patterns: [] });
    const scan = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: { addresses: [{ address: subject.address, chainId: "1" }], maxDepth: 2 },
    });
    expect(scan.statusCode).toBe(200);
    expect(await a.requests()).toEqual([]);
    expect(await fetchRecords(svc, 1)).toEqual([]);
    await expect(svc.history.ensureHistory(1, subject.address)).rejects.toThrow(
      "its blockscout_url is not asked: public explorers are off",
    );
  });

  it("a chain with an explicit explorer_api_url still fetches, and the start's line says public explorers are off", async () => {
    expect(svc.history.hasExplorer(explicit)).toBe(true);
    await b.reset();
    expect((await quick(svc, elsewhere.address, explicit)).statusCode).toBe(200);
    expect((await b.requests()).length).toBeGreaterThan(0);
    expect(svc.history.describeSources(svc.registry.enabled())).toBe(
      `Address histories: Explicit explorer (${explicit}) from ${new URL(b.url).host}; the store only for ` +
        "Ethereum (1) (public explorers off: VIGIA_PUBLIC_EXPLORERS=false)",
    );
  });
});
