// Work that is taken away stops (docs/api.md, "Limits on heavy work"). An analysis run inside a request has a
// deadline: past it a scan's addresses fail with a fixed reason, and a standard investigation is answered still
// running and a worker finishes it. A job handler honours pg-boss's abort signal: the run stops and stores nothing.
// The explorer that never answers (until aborted) is the only stand-in: a data source outside the service.
// In-memory PGlite, or PostgreSQL with DATABASE_URL; workers run in the test's process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HistoryProvider } from "../../src/analysis/graph/index.ts";
import type { AnalysisContext } from "../../src/analysis/index.ts";
import { runRiskJob } from "../../src/analysis/jobs.ts";
import {
  advanceAnalysis,
  getLayeredAnalysis,
  insertLayeredAnalysis,
} from "../../src/analysis/layered/index.ts";
import { scanRisk } from "../../src/analysis/scan.ts";
import { insertQueued, newAnalysisId } from "../../src/analysis/store.ts";
import { createInvestigation, getInvestigation } from "../../src/investigations/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const world = devnetWorld();
const subject = world.cases.find((c) => c.pattern === "sanctions_exposure")!.subject;

/** An explorer that never answers; it gives up only when its caller aborts. */
const hangingExplorer: HistoryProvider = {
  hasExplorer: () => true,
  ensureCovered: (_chainId, _address, _range, signal) =>
    new Promise((_, reject) =>
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true }),
    ),
};

/** The service's own analysis context, but with the hanging explorer and the given deadline. */
const hanging = (requestDeadlineMs?: number): AnalysisContext => ({
  db: svc.database.db,
  registry: svc.registry,
  jobs: svc.jobs,
  expansion: { history: hangingExplorer, budget: { maxMillis: 60_000 } },
  ...(requestDeadlineMs !== undefined ? { requestDeadlineMs } : {}),
});

beforeAll(async () => {
  svc = await startTestService({
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  await writeWorldToStore(svc.database.db, world, 1);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

describe("the deadline of an analysis run inside a request", () => {
  it("fails a scan's addresses with a fixed reason when it passes", async () => {
    const started = Date.now();
    const { results, summary } = await scanRisk(hanging(300), {
      projectId: svc.project.id,
      addresses: [{ address: subject, chainId: "1" }],
      maxDepth: 2,
      skipExisting: false,
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(summary).toMatchObject({ total: 1, failed: 1 });
    expect(results[0]).toMatchObject({
      status: "failed",
      riskReason: "The analysis ran out of time",
      riskScore: null,
      riskLevel: null,
    });
  });

  it("answers a standard investigation still running, and a worker finishes it", async () => {
    const created = await createInvestigation(hanging(300), {
      projectId: svc.project.id,
      name: "Past its deadline",
      address: subject,
      chainId: 1,
      incremental: false,
      maxDepth: 2,
    });
    expect(created.graph).toBeUndefined();
    expect(["queued", "running"]).toContain(created.status);
    // The service's worker (its own explorer-less context) carries on from the first unfinished layer.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const found = await getInvestigation(svc.database.db, svc.project.id, created.id);
      if (found?.status === "completed") break;
      if (Date.now() > deadline) throw new Error(`investigation still ${found?.status}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 90_000);
});

describe("a job whose work is taken away (pg-boss's abort signal)", () => {
  it("stops a risk job's run, and stores nothing even on its last attempt", async () => {
    const id = newAnalysisId();
    await insertQueued(svc.database.db, {
      id,
      projectId: svc.project.id,
      chainId: 1,
      address: subject,
      kind: "job",
      maxDepth: 3,
    });
    const controller = new AbortController();
    const run = runRiskJob(hanging(), id, true, controller.signal);
    setTimeout(() => controller.abort(new Error("the job's claim was lost")), 300);
    await expect(run).rejects.toThrow("the job's claim was lost");
    const row = await svc.database.db
      .selectFrom("analyses")
      .select(["status", "error"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "running", error: null });
  });

  it("stops a layer's run before it is stored", async () => {
    const id = crypto.randomUUID();
    await insertLayeredAnalysis(svc.database.db, {
      id,
      projectId: svc.other.id,
      chainId: 1,
      address: subject,
      maxDepth: 2,
      incremental: true,
    });
    const controller = new AbortController();
    const run = advanceAnalysis(hanging(), id, controller.signal);
    setTimeout(() => controller.abort(new Error("the worker is stopping")), 300);
    await expect(run).rejects.toThrow("the worker is stopping");
    const analysis = await getLayeredAnalysis(svc.database.db, undefined, id);
    expect(analysis).toMatchObject({ completedLayers: 0, status: "running" });
    const layers = await svc.database.db
      .selectFrom("analysis_layers")
      .select("layer")
      .where("analysis_id", "=", id)
      .execute();
    expect(layers).toEqual([]);
  });
});
