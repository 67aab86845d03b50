// How a project's integrator has been answering, shared by every worker through its integrations row: since when
// every call has failed (the alert on an integrator failing for an hour, and what the project's admin reads in
// GET /projects/{id}), and the pause of its deliveries after its webhook endpoint timed out or was unreachable,
// doubling with each such failure in a row, so that its messages do not hold the delivery slots.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";

/** The first pause after a timeout; each one in a row doubles it, up to MAX_PAUSE_MS. */
export const FIRST_PAUSE_MS = 5_000;
export const MAX_PAUSE_MS = 5 * 60_000;

/** Records a call that succeeded: the integrator is failing no more, and its deliveries are not paused. */
export async function recordSuccess(db: Kysely<DB>, projectId: number): Promise<void> {
  await db
    .updateTable("integrations")
    .set({ failing_since: null, last_failure: null, delivery_backoffs: 0, delivery_paused_until: null })
    .where("project_id", "=", projectId)
    .where((eb) => eb.or([eb("failing_since", "is not", null), eb("delivery_backoffs", ">", 0)]))
    .execute();
}

/**
 * Records a call that failed, at `at`. `pause`: it timed out or could not reach the endpoint, and the project's
 * deliveries wait (FIRST_PAUSE_MS, doubling with each in a row); its pause, in ms, or 0.
 */
export async function recordFailure(
  db: Kysely<DB>,
  projectId: number,
  reason: string,
  at: Date,
  pause: boolean,
): Promise<number> {
  const row = await db
    .updateTable("integrations")
    .set({
      failing_since: sql`COALESCE(failing_since, ${at})`,
      last_failure: reason,
      ...(pause ? { delivery_backoffs: sql`delivery_backoffs + 1` } : {}),
    })
    .where("project_id", "=", projectId)
    .returning("delivery_backoffs")
    .executeTakeFirst();
  if (!pause || !row) return 0;
  const ms = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(16, row.delivery_backoffs - 1));
  await db
    .updateTable("integrations")
    .set({ delivery_paused_until: new Date(at.getTime() + ms) })
    .where("project_id", "=", projectId)
    .execute();
  return ms;
}

/** How many projects' integrators have failed every call for at least `forMs` (vigia_integrators_failing). */
export async function integratorsFailing(db: Kysely<DB>, at: Date, forMs: number): Promise<number> {
  const row = await db
    .selectFrom("integrations")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("failing_since", "<=", new Date(at.getTime() - forMs))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
