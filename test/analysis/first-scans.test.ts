// A result as soon as the clients look (docs/api.md, "Addresses and monitoring" and "Risk analysis";
// docs/decisions/0028): registering an address starts its first scan in the background, and
// GET .../addresses/scan-risk says `pending` until it completes, then gives its result, with no POST scan; the
// newest completed analysis of any kind (scan, risk job, investigation) is the stored result; a verdict withheld
// for want of data is none; a project past its share of the risk-job cap still registers, its scans deferred and
// queued as places free; an address registered without chainId (every chain) is scanned on each chain where the
// ledger holds data of it.
// On the devnet world (chain 1), PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainsToScan, drainDeferredScans, startFirstScans } from "../../src/analysis/first-scans.ts";
import type { AnalysisContext } from "../../src/analysis/index.ts";
import { runRiskJob } from "../../src/analysis/jobs.ts";
import { advanceAnalysis } from "../../src/analysis/layered/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { holdTransfer } from "../support/ledger.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const world = devnetWorld();
const positive = (pattern: string) => world.cases.filter((c) => c.pattern === pattern && c.positive);
const sanctions = positive("sanctions_exposure").sort((a, b) => a.note.localeCompare(b.note));
const CAP = 4; // risk jobs per project: first scans take at most 2 places

let idle: TestService; // no workers: jobs stay queued until the test runs them
let busy: TestService; // workers: jobs run by themselves

beforeAll(async () => {
  idle = await startTestService({ env: { VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: String(CAP) } });
  busy = await startTestService({
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  await writeWorldToStore(idle.database.db, world, 1);
  await writeWorldToStore(busy.database.db, world, 1);
}, 120_000);
afterAll(async () => {
  await idle?.stop();
  await busy?.stop();
});

const ctxOf = (svc: TestService, extra: Partial<AnalysisContext> = {}): AnalysisContext => ({
  db: svc.database.db,
  registry: svc.registry,
  jobs: svc.jobs,
  maxActiveJobsPerProject: CAP,
  ...extra,
});

async function call(svc: TestService, method: "GET" | "POST", url: string, key: string, payload?: object) {
  return svc.app!.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });
}

/** A project and an admin key of it (the test project, or the other one). */
type Project = { id: number; keys: { admin: string } };

/** Registers an address on a chain, or (null) on every chain. */
async function register(
  svc: TestService,
  address: string,
  chainId: number | null = 1,
  project: Project = svc.project,
) {
  const res = await call(svc, "POST", `/v1/projects/${project.id}/addresses`, project.keys.admin, {
    address,
    ...(chainId === null ? {} : { chainId }),
    foreign_user_id: "user-1",
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; chain_id: number | null; risk: unknown };
}

async function stored(svc: TestService, addresses: string[], query = "", project: Project = svc.project) {
  const url = `/v1/projects/${project.id}/addresses/scan-risk?addresses=${addresses.join(",")}${query}`;
  const res = await call(svc, "GET", url, project.keys.admin);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    total: number;
    missing: number;
    pending: number;
    results: {
      analysisId: string;
      address: string;
      chainId: string;
      source: string;
      riskLevel: string;
      maxDepth: number;
      fromDate: string | null;
    }[];
    missingAddresses: string[];
    pendingAddresses: string[];
  };
}

/** The project's analyses of an address, oldest first. */
const analysesOf = (svc: TestService, address: string, projectId = svc.project.id) =>
  svc.database.db
    .selectFrom("analyses")
    .select(["id", "kind", "status", "chain_id", "max_depth", "window_from"])
    .where("project_id", "=", projectId)
    .where("address", "=", address)
    .orderBy("created_at")
    .execute();

describe("registering an address starts its first scan", () => {
  it("GET scan-risk says pending at once, then gives the scan's result without any POST scan", async () => {
    const address = sanctions[0]!.subject;
    await register(idle, address);
    const before = await stored(idle, [address]);
    expect(before).toMatchObject({
      total: 1,
      missing: 0,
      pending: 1,
      results: [],
      missingAddresses: [],
      pendingAddresses: [address],
    });
    // One risk job over the whole history at the default depth, and no scan.
    const rows = await analysesOf(idle, address);
    expect(rows).toEqual([
      expect.objectContaining({
        kind: "job",
        status: "queued",
        chain_id: 1,
        max_depth: 3,
        window_from: null,
      }),
    ]);

    await runRiskJob(ctxOf(idle), rows[0]!.id, true);
    const after = await stored(idle, [address]);
    expect(after).toMatchObject({ total: 1, missing: 0, pending: 0, pendingAddresses: [] });
    expect(after.results).toEqual([
      expect.objectContaining({
        analysisId: rows[0]!.id,
        address,
        source: "job",
        riskLevel: "critical",
        maxDepth: 3,
        fromDate: null,
      }),
    ]);
    // The address record shows it as its risk, and GET /risk/{jobId} as a job.
    const list = await call(
      idle,
      "GET",
      `/v1/projects/${idle.project.id}/addresses`,
      idle.project.keys.viewer,
    );
    const record = list.json().data.find((a: { address: string }) => a.address === address);
    expect(record.risk).toMatchObject({ analysisId: rows[0]!.id, source: "job" });
    const job = await call(idle, "GET", `/v1/risk/${rows[0]!.id}`, idle.project.keys.viewer);
    expect(job.json().data).toMatchObject({ status: "completed", result: { riskLevel: "critical" } });
    expect((await analysesOf(idle, address)).filter((r) => r.kind === "scan")).toEqual([]);
  });

  it("with workers, the result arrives by itself: never missing on the way", async () => {
    const address = positive("peel_chain")[0]!.subject;
    await register(busy, address);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const now = await stored(busy, [address]);
      expect(now.missingAddresses).toEqual([]);
      if (now.results.length > 0) {
        expect(now.results[0]).toMatchObject({ address, source: "job", maxDepth: 3 });
        break;
      }
      expect(now.pendingAddresses).toEqual([address]);
      if (Date.now() > deadline) throw new Error("no result within a minute");
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 90_000);

  it("a verdict withheld for want of data is no stored result: missing once it has failed", async () => {
    // Chain 137 holds nothing: the first scan fails with no_data.
    const address = sanctions[1]!.subject;
    await register(idle, address, 137);
    expect(await stored(idle, [address], "&chainId=137")).toMatchObject({ pending: 1, missing: 0 });
    const [job] = await analysesOf(idle, address);
    await runRiskJob(ctxOf(idle), job!.id, true);
    const read = await call(idle, "GET", `/v1/risk/${job!.id}`, idle.project.keys.viewer);
    expect(read.json().data).toMatchObject({ status: "failed", result: { errorCode: "no_data" } });
    expect(await stored(idle, [address])).toMatchObject({
      pending: 0,
      missing: 1,
      results: [],
      missingAddresses: [address],
    });
  });
});

describe("the newest completed analysis of any kind is the stored result", () => {
  const investigate = async (wallet: string, incremental: boolean) => {
    const res = await call(
      idle,
      "POST",
      `/v1/projects/${idle.project.id}/investigations`,
      idle.project.keys.developer,
      { name: `case ${wallet.slice(0, 8)}`, wallet, chainId: 1, incremental, maxDepth: 3 },
    );
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data.analysis_id as string;
  };
  const scan = async (address: string) => {
    const res = await call(
      idle,
      "POST",
      `/v1/projects/${idle.project.id}/addresses/scan-risk`,
      idle.project.keys.developer,
      { addresses: [{ address, chainId: "1" }], maxDepth: 2, skipExisting: false },
    );
    return res.json().data.results[0].analysisId as string;
  };

  it("an investigation (pending while it runs), then a risk job, then a scan: each newer one wins", async () => {
    const address = positive("structuring")[0]!.subject;
    const id = await investigate(address, true);
    expect(await stored(idle, [address])).toMatchObject({ pending: 1, pendingAddresses: [address] });
    // A running investigation's layers are provisional: not a stored result.
    await advanceAnalysis(ctxOf(idle), id);
    expect(await stored(idle, [address])).toMatchObject({ pending: 1, results: [] });
    await advanceAnalysis(ctxOf(idle), id);
    await advanceAnalysis(ctxOf(idle), id);
    expect((await stored(idle, [address])).results).toEqual([
      expect.objectContaining({ analysisId: id, source: "investigation", maxDepth: 3 }),
    ]);

    const job = await call(idle, "POST", "/v1/risk", idle.project.keys.developer, {
      address,
      chainId: 1,
      fromDate: "2020-01-01",
    });
    const { jobId } = job.json().data;
    // Queued: the investigation's result stands meanwhile (a result is never hidden by a pending one).
    expect((await stored(idle, [address])).results[0]).toMatchObject({ analysisId: id });
    await runRiskJob(ctxOf(idle), jobId, true);
    expect((await stored(idle, [address])).results).toEqual([
      expect.objectContaining({ analysisId: jobId, source: "job", fromDate: "2020-01-01T00:00:00.000Z" }),
    ]);

    const scanned = await scan(address);
    expect((await stored(idle, [address])).results).toEqual([
      expect.objectContaining({ analysisId: scanned, source: "scan", maxDepth: 2 }),
    ]);
    // On its chain, and on no other.
    expect((await stored(idle, [address], "&chainId=1")).results[0]).toMatchObject({ analysisId: scanned });
    expect(await stored(idle, [address], "&chainId=137")).toMatchObject({ missing: 1, results: [] });
  });

  it("a scan, then an investigation: the investigation wins", async () => {
    const address = positive("mixing")[0]!.subject;
    await scan(address);
    const id = await investigate(address, false);
    expect((await stored(idle, [address])).results).toEqual([
      expect.objectContaining({ analysisId: id, source: "investigation" }),
    ]);
  });
});

describe("a project past its share of the risk-job cap", () => {
  const project = () => idle.other;
  const addr = (i: number) => `0x${(0xf1000 + i).toString(16).padStart(40, "0")}`;
  const startJob = (address: string) =>
    call(idle, "POST", "/v1/risk", project().keys.admin, { address, chainId: 1 });

  it("still registers: scans past half the cap wait, pending, and the rest of the cap stays the project's", async () => {
    for (let i = 0; i < 4; i++)
      await holdTransfer(idle.database.db, { chainId: 1, from: addr(i), to: addr(9) });
    for (let i = 0; i < 4; i++) await register(idle, addr(i), 1, project());
    // Two places for first scans (half of 4): two queued, two deferred.
    const kinds = await Promise.all([0, 1, 2, 3].map((i) => analysesOf(idle, addr(i), project().id)));
    expect(kinds.map((rows) => rows.length)).toEqual([1, 1, 0, 0]);
    const view = await stored(idle, [0, 1, 2, 3].map(addr), "", project());
    expect(view).toMatchObject({ pending: 4, missing: 0, results: [] });
    // The project's own POST /risk still has the other half of its cap.
    expect((await startJob(addr(5))).statusCode).toBe(202);
    expect((await startJob(addr(6))).statusCode).toBe(202);
    expect((await startJob(addr(7))).statusCode).toBe(429);
    // At the cap itself, a registration still succeeds; its scan waits.
    await holdTransfer(idle.database.db, { chainId: 1, from: addr(4), to: addr(9) });
    await register(idle, addr(4), 1, project());
    expect(await stored(idle, [addr(4)], "", project())).toMatchObject({ pending: 1 });
    const metrics = await call(idle, "GET", "/metrics", idle.project.keys.admin);
    expect(metrics.body).toMatch(/vigia_first_scans_total\{outcome="deferred"\} 3/);

    // Nothing frees a place: nothing is queued.
    expect(await drainDeferredScans(ctxOf(idle))).toBe(0);
    // The first two scans finish: two deferred scans take their places, oldest first.
    for (const rows of kinds.slice(0, 2)) await runRiskJob(ctxOf(idle), rows[0]!.id, true);
    expect(await drainDeferredScans(ctxOf(idle))).toBe(0); // POST /risk's two jobs hold the share
    await idle.database.db
      .updateTable("analyses")
      .set({ status: "failed", error: "test" })
      .where("project_id", "=", project().id)
      .where("address", "in", [addr(5), addr(6)])
      .execute();
    expect(await drainDeferredScans(ctxOf(idle), project().id)).toBe(2);
    const queued = await Promise.all([2, 3, 4].map((i) => analysesOf(idle, addr(i), project().id)));
    expect(queued.map((rows) => rows.length)).toEqual([1, 1, 0]);
    for (const rows of queued.slice(0, 2)) await runRiskJob(ctxOf(idle), rows[0]!.id, true);
    expect(await drainDeferredScans(ctxOf(idle))).toBe(1);
    const [last] = await analysesOf(idle, addr(4), project().id);
    await runRiskJob(ctxOf(idle), last!.id, true);
    const done = await stored(idle, [0, 1, 2, 3, 4].map(addr), "", project());
    expect(done).toMatchObject({ total: 5, pending: 0, missing: 0 });
    expect(done.results.map((r) => r.source)).toEqual(["job", "job", "job", "job", "job"]);
  });

  it("a second analysis on its way is not queued twice", async () => {
    const address = addr(8);
    await holdTransfer(idle.database.db, { chainId: 1, from: address, to: addr(9) });
    expect((await startJob(address)).statusCode).toBe(202);
    const outcomes = await startFirstScans(ctxOf(idle), { projectId: project().id, address, chainId: 1 });
    expect(outcomes).toEqual([{ chainId: 1, outcome: "skipped" }]);
    expect(await analysesOf(idle, address, project().id)).toHaveLength(1);
  });
});

describe("an address registered on every chain", () => {
  it("is scanned on each chain where the ledger holds data of it (the default chain when none)", async () => {
    const both = sanctions[2]!.subject;
    await holdTransfer(idle.database.db, { chainId: 137, from: both, to: `0x${"77".repeat(20)}` });
    expect(await chainsToScan(ctxOf(idle), both, null)).toEqual([1, 137]);
    expect(await chainsToScan(ctxOf(idle), `0x${"99".repeat(20)}`, null)).toEqual([1]);
    expect(await chainsToScan(ctxOf(idle), both, 31337)).toEqual([31337]);

    // Registered as the original's clients do it, without chainId: one record, a first scan on each chain.
    const record = await register(idle, both, null);
    expect(record).toMatchObject({ chain_id: null });
    const rows = await analysesOf(idle, both);
    expect(rows.map((r) => [r.kind, r.status, r.chain_id]).sort()).toEqual([
      ["job", "queued", 1],
      ["job", "queued", 137],
    ]);
    expect(await stored(idle, [both])).toMatchObject({ pending: 1, missing: 0 });
    for (const r of rows) await runRiskJob(ctxOf(idle), r.id, true);
    expect((await stored(idle, [both], "&chainId=137")).results).toEqual([
      expect.objectContaining({ source: "job", chainId: "137" }),
    ]);
    expect((await stored(idle, [both], "&chainId=1")).results).toEqual([
      expect.objectContaining({ source: "job", chainId: "1", riskLevel: "critical" }),
    ]);
  });
});
