// Every statement of the service runs under a timeout (VIGIA_STATEMENT_TIMEOUT_MS; docs/operations.md): on
// PostgreSQL the server cancels a statement past it and the client gets 503 with Retry-After, never a 500;
// migrations run under the longer maintenance timeout. PGlite runs statements on the service's own thread and
// cannot interrupt one, which the test of the configuration states; the rest runs on PostgreSQL only.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/platform/config.ts";
import { toAppError } from "../src/platform/http/app.ts";
import { onPostgres } from "./support/database.ts";
import { startTestService, type TestService } from "./support/service.ts";

let svc: TestService | undefined;
beforeAll(async () => {
  if (onPostgres) svc = await startTestService({ env: { VIGIA_STATEMENT_TIMEOUT_MS: "500" } });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

describe("statement timeouts", () => {
  it("are configured with a positive number of milliseconds, 60 s by default", () => {
    expect(loadConfig({}).statementTimeoutMs).toBe(60_000);
    expect(loadConfig({ VIGIA_STATEMENT_TIMEOUT_MS: "2500" }).statementTimeoutMs).toBe(2500);
    for (const bad of ["0", "-1", "1.5", "soon"])
      expect(() => loadConfig({ VIGIA_STATEMENT_TIMEOUT_MS: bad })).toThrow(/VIGIA_STATEMENT_TIMEOUT_MS/);
  });

  it("turn a cancelled statement into 503 with Retry-After, not a 500", () => {
    const cancelled = Object.assign(new Error("canceling statement due to statement timeout"), {
      code: "57014",
    });
    const error = toAppError(cancelled);
    expect(error.status).toBe(503);
    expect(error.retryAfter).toBe(5);
    expect(error.toBody().message).not.toMatch(/canceling/);
  });

  it.skipIf(!onPostgres)("cancel a statement that runs past the timeout on PostgreSQL", async () => {
    const db = svc!.database.db;
    const started = Date.now();
    await expect(sql`SELECT pg_sleep(3)`.execute(db)).rejects.toMatchObject({ code: "57014" });
    expect(Date.now() - started).toBeLessThan(2500);
    // A quick statement on the same pool still runs.
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });
});
