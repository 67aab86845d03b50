// The pause of a project's deliveries after its endpoint timed out (src/integrator/health.ts): it doubles with each
// pause in a row, a round of attempts failing together is one pause, and a success ends it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIRST_PAUSE_MS, recordFailure, recordSuccess } from "../../src/integrator/health.ts";
import { openTestDatabase } from "../support/db-only.ts";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let projectId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  const project = await database.db
    .insertInto("projects")
    .values({ name: "slow integrator" })
    .returning("id")
    .executeTakeFirstOrThrow();
  projectId = project.id;
  await database.db
    .insertInto("integrations")
    .values({ project_id: projectId, webhook_secret_enc: "sealed" })
    .execute();
});
afterAll(() => database.drop());

const at = (ms: number) => new Date(Date.UTC(2026, 10, 26, 12) + ms);

describe("the pause of a project's deliveries", () => {
  it("is one pause for the attempts that fail together, doubles with the next, and ends on a success", async () => {
    const db = database.db;
    // Four deliveries in flight time out within a few ms: one pause of FIRST_PAUSE_MS.
    const round = await Promise.all(
      [0, 1, 2, 3].map((i) => recordFailure(db, projectId, "timeout", at(i), true)),
    );
    expect(round[0]).toBe(FIRST_PAUSE_MS);
    expect(round.slice(1)).toEqual([FIRST_PAUSE_MS - 1, FIRST_PAUSE_MS - 2, FIRST_PAUSE_MS - 3]);
    // After the pause, the next attempt times out: twice as long.
    expect(await recordFailure(db, projectId, "timeout", at(FIRST_PAUSE_MS + 10_000), true)).toBe(
      2 * FIRST_PAUSE_MS,
    );
    // A status answer is a failure that does not pause.
    expect(await recordFailure(db, projectId, "status 500", at(FIRST_PAUSE_MS + 20_000), false)).toBe(0);
    const failing = await db
      .selectFrom("integrations")
      .select(["failing_since", "delivery_backoffs"])
      .where("project_id", "=", projectId)
      .executeTakeFirstOrThrow();
    expect(new Date(failing.failing_since as Date).getTime()).toBe(at(0).getTime());
    expect(failing.delivery_backoffs).toBe(2);
    await recordSuccess(db, projectId);
    expect(await recordFailure(db, projectId, "timeout", at(60_000), true)).toBe(FIRST_PAUSE_MS);
  });
});
