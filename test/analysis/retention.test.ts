// Retention of finished analyses (docs/api.md, "Retention"): analyses finished before the cutoff are deleted with
// their layers, a batch at a time, except those an investigation points at; queued, running and recent ones stay.
// In-memory PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneAnalyses } from "../../src/analysis/index.ts";
import { startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const DAY = 86_400_000;

async function analysis(name: string, kind: string, status: string, finishedDaysAgo: number | null) {
  const id = crypto.randomUUID();
  const finished = finishedDaysAgo === null ? null : new Date(Date.now() - finishedDaysAgo * DAY);
  await svc.database.db
    .insertInto("analyses")
    .values({
      id,
      project_id: svc.project.id,
      chain_id: 1,
      address: `0x${name.padStart(40, "0")}`,
      kind,
      max_depth: 2,
      status,
      created_at: finished ?? new Date(),
      completed_at: finished,
    } as never)
    .execute();
  return id;
}

describe("pruning finished analyses", () => {
  it("deletes old finished analyses and their layers, keeping investigations' and unfinished ones", async () => {
    const db = svc.database.db;
    const oldScan = await analysis("a1", "scan", "completed", 100);
    const oldFailedJob = await analysis("a2", "job", "failed", 95);
    const oldLayered = await analysis("a3", "investigation", "completed", 120);
    await db
      .insertInto("analysis_layers")
      .values({ analysis_id: oldLayered, layer: 0, body: "{}" })
      .execute();
    const investigated = await analysis("a4", "investigation", "completed", 200);
    await db
      .insertInto("investigations")
      .values({
        id: crypto.randomUUID(),
        project_id: svc.project.id,
        name: "Kept",
        address: `0x${"a4".padStart(40, "0")}`,
        chain_id: 1,
        incremental: true,
        max_depth: 2,
        analysis_id: investigated,
      })
      .execute();
    const recent = await analysis("a5", "scan", "completed", 10);
    const stuck = await analysis("a6", "job", "running", null);

    const cutoff = new Date(Date.now() - 90 * DAY);
    // One at a time, oldest first, until nothing is left to delete.
    expect(await pruneAnalyses(db, cutoff, 1)).toBe(1);
    expect(await pruneAnalyses(db, cutoff, 1)).toBe(1);
    expect(await pruneAnalyses(db, cutoff, 5)).toBe(1);
    expect(await pruneAnalyses(db, cutoff, 5)).toBe(0);

    const left = await db.selectFrom("analyses").select("id").execute();
    const ids = new Set(left.map((r) => r.id));
    for (const gone of [oldScan, oldFailedJob, oldLayered]) expect(ids.has(gone)).toBe(false);
    for (const kept of [investigated, recent, stuck]) expect(ids.has(kept)).toBe(true);
    const layers = await db
      .selectFrom("analysis_layers")
      .select("layer")
      .where("analysis_id", "=", oldLayered)
      .execute();
    expect(layers).toEqual([]);
  });
});
