// A scan whose data source fails tells the client a fixed reason; the driver's message (table names, hosts) stays
// in the log. PGlite, or PostgreSQL with DATABASE_URL.
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

it("answers a fixed reason when the store fails, without the driver's message", async () => {
  await sql`ALTER TABLE transfers RENAME TO transfers_gone`.execute(svc.database.db);
  try {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/addresses/scan-risk`,
      headers: auth(svc.project.keys.developer),
      payload: { addresses: [{ address: `0x${"ab".repeat(20)}`, chainId: "1" }], maxDepth: 1 },
    });
    expect(res.statusCode).toBe(200);
    const [result] = res.json().data.results;
    expect(result).toMatchObject({ status: "failed", error: "Data source failed" });
    expect(res.body).not.toMatch(/transfers|relation|does not exist/);
  } finally {
    await sql`ALTER TABLE transfers_gone RENAME TO transfers`.execute(svc.database.db);
  }
});
