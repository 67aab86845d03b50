// Investigations and layered analyses end to end through HTTP (docs/api.md,
// "Investigations and layered analyses"): standard mode answers with the complete graph, incremental mode at once with its
// layers completed by the durable layer jobs; the layer invariants on the devnet world; every injected pattern
// found in its case's final layer; pending forms and Cache-Control; reuse of an earlier analysis; 400/403/404;
// a layer that keeps failing fails the analysis with its reason. In-memory PGlite, or PostgreSQL with
// DATABASE_URL; workers run in the test's process.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CompletedLayer } from "../../src/analysis/index.ts";
import { insertLayeredAnalysis } from "../../src/analysis/layered/index.ts";
import { PATTERNS } from "../../src/risk/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { expectLayerInvariants } from "./layers.ts";

let svc: TestService;
const world = devnetWorld();
const positives = world.cases.filter(
  (c) => c.positive && (PATTERNS as readonly string[]).includes(c.pattern),
);
const peel = positives.find((c) => c.pattern === "peel_chain")!;

beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  await writeWorldToStore(svc.database.db, world, 1);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const base = () => `/v1/projects/${svc.project.id}/investigations`;
const create = (payload: object, key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "POST", url: base(), headers: auth(key), payload });
const get = (url: string, key = svc.project.keys.viewer) =>
  svc.app!.inject({ method: "GET", url, headers: auth(key) });

async function layersOf(analysisId: string, maxDepth: number): Promise<CompletedLayer[]> {
  const layers: CompletedLayer[] = [];
  for (let layer = 0; layer < maxDepth; layer++) {
    const res = await get(`/v1/analysis/${analysisId}/layers/${layer}`);
    expect(res.statusCode).toBe(200);
    layers.push(res.json().data as CompletedLayer);
  }
  return layers;
}

async function waitForProgress(analysisId: string, done: (p: { status: string }) => boolean) {
  const seen: string[] = [];
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await get(`/v1/analysis/${analysisId}/progress`);
    expect(res.statusCode).toBe(200);
    const progress = res.json().data;
    if (seen.at(-1) !== progress.status) seen.push(progress.status);
    if (done(progress)) return { progress, seen };
    if (Date.now() > deadline) throw new Error(`analysis ${analysisId} still ${progress.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("standard investigations", () => {
  it("answer 201 with the record and the complete graph, equal to the final layer's; layers hold the invariants", async () => {
    const res = await create({ name: "Peel", wallet: peel.subject, maxDepth: 4 });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: "Peel",
      address: peel.subject,
      chain_id: 1,
      incremental: false,
      max_depth: 4,
      status: "completed",
    });
    expect(data.analysis_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(data.risk_score).toBeGreaterThan(0);
    const layers = await layersOf(data.analysis_id, 4);
    expectLayerInvariants(layers, 4, peel.subject);
    expect(data.graph).toEqual(layers[3]!.cumulativeGraph);
    expect(layers[3]!.riskScore).toBe(data.risk_score);
    expect(layers[3]!.detectedPatterns.map((p) => p.patternType)).toContain("peel_chain");
    // the analysis is also an ordinary stored analysis: progress says completed with the final score
    const progress = (await get(`/v1/analysis/${data.analysis_id}/progress`)).json().data;
    expect(progress).toMatchObject({
      analysisId: data.analysis_id,
      status: "completed",
      completedLayers: 4,
      maxDepth: 4,
      incremental: false,
      riskScore: data.risk_score,
      patternsDetected: layers[3]!.detectedPatterns.length,
    });
    expect(new Date(progress.startedAt).toISOString()).toBe(progress.startedAt);
  }, 60_000);

  it("find every injected pattern of the devnet world in the final layer, with its evidence", async () => {
    for (const c of positives) {
      const res = await create({ name: c.id, address: c.subject, chainId: "1", maxDepth: 3 });
      expect(res.statusCode, c.id).toBe(201);
      const { graph, analysis_id } = res.json().data;
      expect(graph.nodes[c.subject]).toBeDefined();
      const final = (await layersOf(analysis_id, 3))[2]!;
      const found = final.detectedPatterns.filter((p) => p.patternType === c.pattern);
      expect(
        found.length,
        `${c.id}: ${c.pattern} in ${JSON.stringify(final.detectedPatterns)}`,
      ).toBeGreaterThan(0);
      for (const p of found) {
        expect(p.evidence.txHashes.length).toBeGreaterThan(0);
        expect(p.evidence.wallets).toContain(p.subject);
        expect(p.description.length).toBeGreaterThan(10);
      }
    }
  }, 120_000);

  it("reuse an earlier analysis of the same wallet, chain and depth; another depth starts a new one", async () => {
    const first = (await create({ name: "A", wallet: peel.subject, maxDepth: 2 })).json().data;
    const second = (
      await create({ name: "B", wallet: peel.subject.toUpperCase().replace("0X", "0x"), maxDepth: 2 })
    ).json().data;
    expect(second.analysis_id).toBe(first.analysis_id);
    expect(second.id).not.toBe(first.id);
    expect(second.graph).toEqual(first.graph);
    const deeper = (await create({ name: "C", wallet: peel.subject, maxDepth: 3, incremental: true })).json()
      .data;
    expect(deeper.analysis_id).not.toBe(first.analysis_id);
  }, 60_000);
});

describe("incremental investigations", () => {
  it("answer at once; the layer jobs go pending -> running -> completed, layer by layer", async () => {
    const subject = positives.find((c) => c.pattern === "round_tripping")!.subject;
    const res = await create({ name: "Round trip", wallet: subject, incremental: true, maxDepth: 7 });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ incremental: true, max_depth: 7, risk_score: null });
    expect(["pending", "running"]).toContain(data.status);
    const { progress, seen } = await waitForProgress(data.analysis_id, (p) => p.status === "completed");
    expect(seen.at(-1)).toBe("completed");
    expect(progress).toMatchObject({ completedLayers: 7, maxDepth: 7, incremental: true });
    const layers = await layersOf(data.analysis_id, 7);
    expectLayerInvariants(layers, 7, subject);
    expect(layers.at(-1)!.detectedPatterns.map((p) => p.patternType)).toContain("round_tripping");
    const record = (await get(`${base()}/${data.id}`)).json().data;
    expect(record).toMatchObject({ id: data.id, status: "completed", risk_score: layers[6]!.riskScore });
  }, 90_000);

  it("a completed layer is byte-identical on every read and cacheable; a pending one is not", async () => {
    const done = (await create({ name: "Cache", wallet: peel.subject, maxDepth: 2 })).json().data;
    const url = `/v1/analysis/${done.analysis_id}/layers/1`;
    const [a, b] = [await get(url), await get(url, svc.project.keys.developer)];
    expect(a.headers["cache-control"]).toBe("public, max-age=3600");
    // A shared cache keys it by the API key: one key's answer is never served to another.
    expect(a.headers.vary).toBe("x-api-key, x-api-header, Cookie, Accept-Language");
    expect(a.headers["content-type"]).toMatch(/^application\/json/);
    expect(a.body).toBe(b.body);
    expect(a.json()).toMatchObject({
      success: true,
      data: { layer: 1, status: "completed", isProvisional: false },
    });

    // An analysis no worker has taken yet (written straight to the store, no job): every layer pending.
    const id = randomUUID();
    await insertLayeredAnalysis(svc.database.db, {
      id,
      projectId: svc.project.id,
      chainId: 1,
      address: peel.subject,
      maxDepth: 3,
      incremental: true,
    });
    const pending = await get(`/v1/analysis/${id}/layers/2`);
    expect(pending.statusCode).toBe(200);
    expect(pending.headers["cache-control"]).toBe("no-cache");
    expect(pending.json()).toEqual({
      success: true,
      data: { analysisId: id, layer: 2, status: "pending", totalLayers: 3 },
    });
    const progress = (await get(`/v1/analysis/${id}/progress`)).json().data;
    expect(progress).toMatchObject({
      status: "pending",
      completedLayers: 0,
      riskScore: 0,
      patternsDetected: 0,
    });
  });
});

describe("errors and scoping", () => {
  it("unknown or another project's analysis: 404; a layer outside 0..totalLayers-1 or not an integer: 400", async () => {
    const mine = (await create({ name: "Scope", wallet: peel.subject, maxDepth: 2 })).json().data;
    for (const url of [
      `/v1/analysis/${randomUUID()}/progress`,
      `/v1/analysis/${randomUUID()}/layers/0`,
      "/v1/analysis/not-a-uuid/progress",
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: "not_found", message: "Analysis not found" });
    }
    const other = svc.other.keys.admin;
    expect((await get(`/v1/analysis/${mine.analysis_id}/progress`, other)).statusCode).toBe(404);
    expect((await get(`/v1/analysis/${mine.analysis_id}/layers/0`, other)).statusCode).toBe(404);
    expect((await get(`/v1/projects/${svc.other.id}/investigations/${mine.id}`, other)).statusCode).toBe(404);
    for (const layer of ["2", "-1", "abc", "1.5", "99999999999"]) {
      const res = await get(`/v1/analysis/${mine.analysis_id}/layers/${layer}`);
      expect(res.statusCode, layer).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: "invalid_request", message: "Invalid path" });
    }
    expect((await get(`${base()}/${randomUUID()}`)).statusCode).toBe(404);
    expect((await get(`${base()}/nope`)).statusCode).toBe(404);
  });

  it("bad bodies: 400 Invalid body; a viewer: 403; an unknown chain: 404", async () => {
    const bad: object[] = [
      {},
      { name: "x" },
      { wallet: peel.subject },
      { name: "", wallet: peel.subject },
      { name: "   ", wallet: peel.subject },
      { name: "x", wallet: "0x1234" },
      { name: "x", wallet: "not an address at all" },
      { name: "x", wallet: peel.subject, maxDepth: 0 },
      { name: "x", wallet: peel.subject, maxDepth: 8 },
      { name: "x", wallet: peel.subject, incremental: "yes" },
      { name: "x", wallet: peel.subject, chainId: "one" },
      { name: "x", wallet: peel.subject, chainId: 0 },
      { name: "x", wallet: peel.subject, address: positives[0]!.subject },
    ];
    for (const body of bad) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: "Invalid body" });
    }
    expect((await create({ name: "x", wallet: peel.subject }, svc.project.keys.viewer)).statusCode).toBe(403);
    const unknown = await create({ name: "x", wallet: peel.subject, chainId: 424242 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/^Chain 424242 not found: the chains here are 1 \(Ethereum\), /);
  });

  it("lists the project's investigations, newest first, paginated", async () => {
    const all = (await get(`${base()}?limit=100`)).json().data as { id: string; created_at: string }[];
    expect(all.length).toBeGreaterThan(5);
    const times = all.map((i) => i.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const page = (await get(`${base()}?limit=2&offset=1`)).json().data as { id: string }[];
    expect(page.map((i) => i.id)).toEqual(all.slice(1, 3).map((i) => i.id));
    expect(
      (await get(`/v1/projects/${svc.other.id}/investigations`, svc.other.keys.admin)).json().data,
    ).toEqual([]);
  });

  it("a layer that keeps failing fails the analysis with a fixed public reason (the detail stays in the log)", async () => {
    // An address the expansion refuses (written straight to the store): every run of layer 0 throws.
    const id = randomUUID();
    await insertLayeredAnalysis(svc.database.db, {
      id,
      projectId: svc.project.id,
      chainId: 1,
      address: "not-an-address",
      maxDepth: 2,
      incremental: true,
    });
    const { queueNextLayer } = await import("../../src/analysis/layered/index.ts");
    await queueNextLayer({ db: svc.database.db, registry: undefined as never, jobs: svc.jobs }, id);
    const { progress } = await waitForProgress(id, (p) => p.status === "failed");
    expect(progress.error).toBe("Layer 0 failed: a data source failed");
    expect(progress.error).not.toContain("not-an-address");
    const layer = (await get(`/v1/analysis/${id}/layers/0`)).json().data;
    expect(layer).toMatchObject({ status: "failed", layer: 0, totalLayers: 2 });
  }, 60_000);
});
