// A project's layered analyses are capped (VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT; docs/api.md, "Limits on heavy
// work"): past the cap of queued and running ones, a new investigation (incremental or standard) gets 429 with
// Retry-After, while reusing an existing analysis and other projects are not affected. The service runs no
// workers, so the analyses it starts stay queued. In-memory PGlite, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT: "2" } });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const create = (projectId: number, key: string, payload: object) =>
  svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${projectId}/investigations`,
    headers: auth(key),
    payload: { name: "Capped", maxDepth: 3, ...payload },
  });

describe("the cap on a project's layered analyses", () => {
  it("answers 429 past the cap, reuses within it, and leaves other projects alone", async () => {
    const { id, keys } = svc.project;
    // Two at once, concurrently: both fit.
    const first = await Promise.all([
      create(id, keys.developer, { wallet: wallet(1), incremental: true }),
      create(id, keys.developer, { wallet: wallet(2), incremental: true }),
    ]);
    expect(first.map((r) => r.statusCode)).toEqual([201, 201]);

    for (const incremental of [true, false]) {
      const refused = await create(id, keys.developer, { wallet: wallet(3), incremental });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["retry-after"]).toBe("30");
      expect(refused.json()).toMatchObject({ success: false, error: "rate_limited" });
      expect(refused.json().message).toMatch(/2 analyses queued or running/);
    }
    // No record was left behind by the refused ones.
    const listed = await svc.app!.inject({
      method: "GET",
      url: `/v1/projects/${id}/investigations`,
      headers: auth(keys.viewer),
    });
    expect(listed.json().data).toHaveLength(2);

    // The same wallet, chain and depth reuses the queued analysis: no new work, no refusal.
    const reused = await create(id, keys.developer, { wallet: wallet(1), incremental: true });
    expect(reused.statusCode).toBe(201);
    expect(reused.json().data.analysis_id).toBe(first[0]!.json().data.analysis_id);

    const other = await create(svc.other.id, svc.other.keys.admin, { wallet: wallet(3), incremental: true });
    expect(other.statusCode).toBe(201);
  });
});
