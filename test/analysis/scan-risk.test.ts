// Risk endpoints end to end through HTTP (docs/api.md, "Risk analysis"): the devnet's demo
// world written to the store (src/worlds/render/store.ts), then scan-risk validation exactly as docs/api.md says,
// every injected pattern reported for its case subject, skipExisting and the summary counts, failed addresses
// beside completed ones, the stored results, and the quick check. In-memory PGlite, or PostgreSQL with
// DATABASE_URL.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QUICK_TRANSFERS_PER_DIRECTION } from "../../src/analysis/quick.ts";
import { PATTERNS } from "../../src/risk/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const world = devnetWorld();
const positives = world.cases.filter(
  (c) => c.positive && (PATTERNS as readonly string[]).includes(c.pattern),
);
const sanctioned = world.cases.filter((c) => c.pattern === "sanctions_exposure");
const CHAIN = "1";

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  await writeWorldToStore(svc.database.db, world, Number(CHAIN));
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const scanUrl = () => `/v1/projects/${svc.project.id}/addresses/scan-risk`;
const scan = (payload: unknown, key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "POST", url: scanUrl(), headers: auth(key), payload: payload as object });
const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;

describe("POST scan-risk validation", () => {
  const one = [{ address: addr(1), chainId: CHAIN }];
  const invalidBodies: [string, unknown][] = [
    ["no addresses", { addresses: [] }],
    [
      "51 addresses",
      { addresses: Array.from({ length: 51 }, (_, i) => ({ address: addr(i + 1), chainId: CHAIN })) },
    ],
    ["an address under 10 characters", { addresses: [{ address: "0x1234567", chainId: CHAIN }] }],
    ["maxDepth 0", { addresses: one, maxDepth: 0 }],
    ["maxDepth 8", { addresses: one, maxDepth: 8 }],
    ["maxDepth 2.5", { addresses: one, maxDepth: 2.5 }],
    ["maxDepth as a string", { addresses: one, maxDepth: "3" }],
    ["chainId as a number", { addresses: [{ address: addr(1), chainId: 1 }] }],
    ["skipExisting as a string", { addresses: one, skipExisting: "true" }],
    ["addresses as an object", { addresses: { address: addr(1), chainId: CHAIN } }],
    ["missing chainId", { addresses: [{ address: addr(1) }] }],
    ["missing addresses", {}],
  ];
  it.each(invalidBodies)("%s: 400 Invalid body", async (_name, body) => {
    const res = await scan(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, error: "invalid_request", message: "Invalid body" });
  });

  it("a viewer key: 403 naming the role it needs; no key: 401", async () => {
    const res = await scan({ addresses: one }, svc.project.keys.viewer);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      error: "forbidden",
      message: "Forbidden: this action needs a key of role developer or above; this key's role is viewer",
    });
    const anonymous = await svc.app!.inject({ method: "POST", url: scanUrl(), payload: { addresses: one } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe("The api key is invalid");
  });

  it("1 and 50 addresses, maxDepth 1 and 7 are accepted", async () => {
    const fifty = Array.from({ length: 50 }, (_, i) => ({ address: addr(i + 1), chainId: CHAIN }));
    const res = await scan({ addresses: fifty, maxDepth: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.summary).toMatchObject({ total: 50, completed: 50, failed: 0 });
    expect((await scan({ addresses: one, maxDepth: 7, skipExisting: false })).statusCode).toBe(200);
  });
});

describe("scan-risk on the devnet world", () => {
  it("reports every injected pattern for its case subject, with the documented result shape", async () => {
    expect(positives.map((c) => c.pattern).sort()).toEqual([...PATTERNS].sort());
    const res = await scan({
      addresses: positives.map((c) => ({ address: c.subject, chainId: CHAIN })),
      maxDepth: 3,
      skipExisting: false,
    });
    expect(res.statusCode).toBe(200);
    const { summary, results } = res.json().data;
    expect(summary).toMatchObject({
      total: positives.length,
      completed: positives.length,
      skipped: 0,
      failed: 0,
    });
    expect(summary.duration).toBeGreaterThanOrEqual(0);
    positives.forEach((c, i) => {
      const r = results[i];
      expect(r.address).toBe(c.subject.toLowerCase());
      expect(r.status).toBe("completed");
      expect(r.patterns, c.id).toContain(c.pattern);
      expect(r.suspiciousActivity).toBe(true);
      expect(r.analysisId).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.chainId).toBe(CHAIN);
      expect(r.transactionGraph).toMatchObject({ rootAddress: r.address, maxDepth: 3 });
      expect(r.transactionGraph.totalEdges).toBeGreaterThan(0);
      expect(r.analysisEvidence.transactionsAnalyzed).toBe(r.transactionGraph.totalEdges);
      expect(r.analysisEvidence.uniqueAddressesFound).toBeGreaterThan(0);
      expect(typeof r.riskReason).toBe("string");
    });
  });

  it("gives an address the same score scanned alone as in a batch", async () => {
    const cases = [...positives, ...sanctioned];
    const batch = await scan({
      addresses: cases.map((c) => ({ address: c.subject, chainId: CHAIN })),
      skipExisting: false,
    });
    const together = batch
      .json()
      .data.results.map((r: { riskScore: number; patterns: string[] }) => [r.riskScore, r.patterns]);
    const alone = [];
    for (const c of cases) {
      const r = (
        await scan({ addresses: [{ address: c.subject, chainId: CHAIN }], skipExisting: false })
      ).json().data.results[0];
      alone.push([r.riskScore, r.patterns]);
    }
    expect(together).toEqual(alone);
  });

  it("scores 1, 2 and 3 hops from a sanctioned address in falling order, 1 hop critical", async () => {
    const byHop = [...sanctioned].sort((a, b) => (a.id < b.id ? -1 : 1));
    const res = await scan({
      addresses: byHop.map((c) => ({ address: c.subject, chainId: CHAIN })),
      skipExisting: false,
    });
    const scores = res.json().data.results.map((r: { riskScore: number }) => r.riskScore);
    const levels = res.json().data.results.map((r: { riskLevel: string }) => r.riskLevel);
    expect(levels[0]).toBe("critical");
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(scores[1]).toBeGreaterThan(scores[2]);
  });

  it("skipExisting answers stored results as skipped; unknown chains and non-EVM addresses fail alone", async () => {
    const [a, b] = positives;
    const first = await scan({ addresses: [{ address: a!.subject, chainId: CHAIN }], maxDepth: 2 });
    const stored = first.json().data.results[0];
    expect(stored.status).toBe("completed");

    const res = await scan({
      addresses: [
        { address: a!.subject.toUpperCase().replace("0X", "0x"), chainId: CHAIN },
        { address: b!.subject, chainId: CHAIN },
        { address: b!.subject, chainId: "999999" },
        { address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", chainId: CHAIN },
      ],
      maxDepth: 2,
    });
    expect(res.statusCode).toBe(200);
    const { summary, results } = res.json().data;
    expect(summary).toMatchObject({ total: 4, completed: 1, skipped: 1, failed: 2 });
    expect(results[0]).toMatchObject({
      status: "skipped",
      analysisId: stored.analysisId,
      riskScore: stored.riskScore,
    });
    expect(results[1]).toMatchObject({ status: "completed", address: b!.subject.toLowerCase() });
    expect(results[2]).toMatchObject({ status: "failed", chainId: "999999" });
    expect(results[2].riskReason).toMatch(/chain/i);
    expect(results[3]).toMatchObject({ status: "failed" });
    expect(results[3].riskReason).toMatch(/EVM/);
    // A failure is never a score: no number and no level an integrator could read as an all-clear.
    for (const failed of results.slice(2)) expect(failed).toMatchObject({ riskScore: null, riskLevel: null });
    for (const r of results) expect(r.analysisId).toMatch(/^[0-9a-f-]{36}$/);

    // Another depth is another analysis; skipExisting false analyses again with a new id.
    const again = await scan({
      addresses: [{ address: a!.subject, chainId: CHAIN }],
      maxDepth: 2,
      skipExisting: false,
    });
    expect(again.json().data.results[0].status).toBe("completed");
    expect(again.json().data.results[0].analysisId).not.toBe(stored.analysisId);
    const deeper = await scan({ addresses: [{ address: a!.subject, chainId: CHAIN }], maxDepth: 4 });
    expect(deeper.json().data.results[0].status).toBe("completed");
  });

  it("GET scan-risk lists the latest stored result of each address, and the missing ones", async () => {
    const [a] = positives;
    const missing = addr(0xdead);
    const url = `${scanUrl()}?addresses=${a!.subject.toUpperCase().replace("0X", "0x")},${missing}&chainId=${CHAIN}`;
    const res = await svc.app!.inject({ method: "GET", url, headers: auth(svc.project.keys.viewer) });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ total: 2, missing: 1, missingAddresses: [missing] });
    expect(data.results[0]).toMatchObject({ address: a!.subject.toLowerCase(), chainId: CHAIN, maxDepth: 4 });
    expect(data.results[0].patterns).toContain(a!.pattern);
    expect(data.results[0].patternsDetected).toBe(data.results[0].patterns.length);

    const tooMany = Array.from({ length: 101 }, (_, i) => addr(i + 1)).join(",");
    const bad = await svc.app!.inject({
      method: "GET",
      url: `${scanUrl()}?addresses=${tooMany}`,
      headers: auth(svc.project.keys.viewer),
    });
    expect(bad.statusCode).toBe(400);

    // Another project sees none of them.
    const other = await svc.app!.inject({
      method: "GET",
      url: `/v1/projects/${svc.other.id}/addresses/scan-risk?addresses=${a!.subject}`,
      headers: auth(svc.other.keys.admin),
    });
    expect(other.json().data).toMatchObject({ total: 1, missing: 1, results: [] });
  });
});

describe("GET /risk/quick", () => {
  const quick = (query: string) =>
    svc.app!.inject({
      method: "GET",
      url: `/v1/risk/quick?${query}`,
      headers: auth(svc.project.keys.viewer),
    });

  it("a direct counterparty of a sanctioned address is high risk, with the quick result shape", async () => {
    const oneHop = sanctioned.find((c) => c.id.endsWith("-d1"))!;
    const res = await quick(`address=${oneHop.subject}&chainId=${CHAIN}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.risk).toBeGreaterThanOrEqual(60);
    expect(data.reason).toMatch(/sanction/i);
    expect(Array.isArray(data.patterns)).toBe(true);
  });

  it("reports a pattern visible within one hop with its evidence", async () => {
    const structuring = positives.find((c) => c.pattern === "structuring")!;
    const res = await quick(`address=${structuring.subject}`);
    const p = res.json().data.patterns.find((x: { name: string }) => x.name === "structuring");
    expect(p).toBeDefined();
    expect(p.severity).toBe("high");
    expect(p.involvedWallets).toContain(structuring.subject.toLowerCase());
    expect(p.involvedTxs.length).toBeGreaterThan(0);
    expect(p.usdAmount).toBeGreaterThan(0);
    expect(p.message.length).toBeGreaterThan(0);
  });

  it("an unseen address is minimal; a bad address is 400; an unknown chain 404; no key 401", async () => {
    const clean = await quick(`address=${addr(0xbeef)}`);
    expect(clean.json().data).toMatchObject({ risk: 0, patterns: [] });
    for (const q of ["address=0x1234", "address=bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "chainId=1"]) {
      const res = await quick(q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: "Invalid query" });
    }
    expect((await quick(`address=${addr(1)}&chainId=999999`)).statusCode).toBe(404);
    const anonymous = await svc.app!.inject({ method: "GET", url: `/v1/risk/quick?address=${addr(1)}` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("of a busy address reads the newest transfers each way and says so; of others, says nothing of it", async () => {
    const busy = addr(0xb05e);
    const senders = QUICK_TRANSFERS_PER_DIRECTION + 200;
    // Each from its own sender, a second apart: more incoming transfers than the quick check reads.
    await sql`INSERT INTO transfers (chain_id, tx_hash, log_index, block_number, block_time, from_address,
        to_address, token, value)
      SELECT ${Number(CHAIN)}, '0xfeed' || lpad(to_hex(n), 60, '0'), 0, 900000 + n,
        timestamptz '2024-06-01T00:00:00Z' + n * interval '1 second', '0xee' || lpad(to_hex(n), 38, '0'),
        ${busy}, 'native', 1000000000000000
      FROM generate_series(1, ${senders}) n`.execute(svc.database.db);
    const res = await quick(`address=${busy}&chainId=${CHAIN}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.reason).toContain(
      `Checked the newest ${QUICK_TRANSFERS_PER_DIRECTION.toLocaleString("en-US")} transfers in each direction`,
    );
    // What it rests on: the newest N incoming transfers, not all of them.
    expect(res.json().data.reason).toMatch(new RegExp(`\\b${QUICK_TRANSFERS_PER_DIRECTION} transfers\\b`));
    const quiet = await quick(`address=${positives[0]!.subject}&chainId=${CHAIN}`);
    expect(quiet.json().data.reason).not.toContain("Checked the newest");
  });
});
