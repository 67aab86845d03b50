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
 * deliveries wait (FIRST_PAUSE_MS, doubling with each pause in a row); the pause left, in ms, or 0. Failures while
 * a pause is on (the other deliveries that were in flight with this one) leave it as it is: a round of attempts
 * that time out together is one pause, not one doubling each. One statement, so that workers failing at once
 * count once between them.
 */
export async function recordFailure(
  db: Kysely<DB>,
  projectId: number,
  reason: string,
  at: Date,
  pause: boolean,
): Promise<number> {
  const idle = sql<boolean>`(delivery_paused_until IS NULL OR delivery_paused_until <= ${at})`;
  // SET expressions read the row as it was: the pause doubles from the failures before this one.
  const nextPause = sql<Date>`${at}::timestamptz + LEAST(${MAX_PAUSE_MS}, ${FIRST_PAUSE_MS} * power(2, LEAST(16, delivery_backoffs))) * interval '1 millisecond'`;
  const row = await db
    .updateTable("integrations")
    .set({
      failing_since: sql`COALESCE(failing_since, ${at})`,
      last_failure: reason,
      ...(pause
        ? {
            delivery_backoffs: sql`CASE WHEN ${idle} THEN delivery_backoffs + 1 ELSE delivery_backoffs END`,
            delivery_paused_until: sql`CASE WHEN ${idle} THEN ${nextPause} ELSE delivery_paused_until END`,
          }
        : {}),
    })
    .where("project_id", "=", projectId)
    .returning("delivery_paused_until")
    .executeTakeFirst();
  if (!pause || !row?.delivery_paused_until) return 0;
  return Math.max(0, new Date(row.delivery_paused_until).getTime() - at.getTime());
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
