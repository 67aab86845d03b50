// Risk jobs are capped per project: a project flooding POST /risk gets 429 with Retry-After once it has the
// documented number queued or running, while another project's jobs are still accepted and run; and a queued row
// whose job is gone (pg-boss gave up on it, or its jobs were deleted) is queued again by the stalled-analysis sweep
// and completes. (A process killed while starting a job leaves both or neither: risk-job-crash.test.ts.)
// PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepStalled } from "../../src/analysis/index.ts";
import { holdTransfer } from "../support/ledger.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CAP = 3;
let idle: TestService; // no workers: its jobs stay queued
let busy: TestService; // workers: its jobs run
const address = `0x${"ab".repeat(20)}`;

beforeAll(async () => {
  idle = await startTestService({ env: { VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: String(CAP) } });
  busy = await startTestService({
    env: { VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT: String(CAP) },
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  // Chain 1 holds data: the jobs complete with a verdict (on a chain with none they fail with no_data).
  await holdTransfer(busy.database.db, { chainId: 1, from: address, to: `0x${"cd".repeat(20)}` });
}, 60_000);
afterAll(async () => {
  await idle?.stop();
  await busy?.stop();
});

const start = (svc: TestService, key: string) =>
  svc.app!.inject({ method: "POST", url: "/v1/risk", headers: auth(key), payload: { address, chainId: 1 } });

async function settled(svc: TestService, jobId: string, key = svc.project.keys.viewer, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.app!.inject({ url: `/v1/risk/${jobId}`, headers: auth(key) });
    const data = res.json().data;
    if (data.status === "completed" || data.status === "failed") return data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${data.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("per-project caps on risk jobs", () => {
  it("answers 429 past the cap (concurrent requests included); another project is not affected", async () => {
    const flood = await Promise.all(
      Array.from({ length: 10 }, () => start(idle, idle.project.keys.developer)),
    );
    const statuses = flood.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 202)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10 - CAP);
    const refused = flood.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toMatchObject({ success: false, error: "rate_limited" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await start(idle, idle.other.keys.admin)).statusCode).toBe(202);
    // Finished jobs free their places.
    await idle.database.db
      .updateTable("analyses")
      .set({ status: "failed", error: "test" })
      .where("project_id", "=", idle.project.id)
      .execute();
    expect((await start(idle, idle.project.keys.developer)).statusCode).toBe(202);
  });

  it("runs another project's jobs while one project floods", async () => {
    const flood = await Promise.all(
      Array.from({ length: 10 }, () => start(busy, busy.project.keys.developer)),
    );
    expect(flood.filter((r) => r.statusCode === 429).length).toBeGreaterThan(0);
    const other = await start(busy, busy.other.keys.admin);
    expect(other.statusCode).toBe(202);
    expect((await settled(busy, other.json().data.jobId, busy.other.keys.admin)).status).toBe("completed");
  });
});

describe("a queued risk job whose pg-boss job is gone", () => {
  it("is queued again by the sweep and completes", async () => {
    const id = crypto.randomUUID();
    const stale = new Date(Date.now() - 30 * 60_000);
    // Queued, no job to run it, not touched since.
    await busy.database.db
      .insertInto("analyses")
      .values({
        id,
        project_id: busy.project.id,
        chain_id: 1,
        address,
        kind: "job",
        max_depth: 3,
        status: "queued",
        created_at: stale,
        updated_at: stale,
      } as never)
      .execute();
    const stop = sweepStalled({ db: busy.database.db, registry: busy.registry, jobs: busy.jobs });
    try {
      expect((await settled(busy, id)).status).toBe("completed");
    } finally {
      stop();
    }
  }, 60_000);
});
