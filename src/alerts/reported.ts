// Alerts and the filings they led to: the alerts an aviso names must be the project's, and when the aviso's file is
// marked filed with the regulator, its alerts still open are closed as `reported`, with the folio (or the file) as
// their reference and the change in their history.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { appendHistory } from "./raise.ts";

/** The ids among `ids` that are not alerts of the project. */
export async function missingAlerts(
  db: Kysely<DB>,
  projectId: number,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom("alerts")
    .select("id")
    .where("project_id", "=", projectId)
    .where("id", "in", [...ids])
    .execute();
  const known = new Set(found.map((r) => String(r.id)));
  return ids.filter((id) => !known.has(id));
}

/** Closes the project's alerts among `ids` that are not closed as `reported`, with `reference`; how many. */
export async function closeReported(
  db: Kysely<DB>,
  projectId: number,
  ids: readonly string[],
  reference: string,
  actor: string,
  at: Date,
): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    const open = await trx
      .selectFrom("alerts")
      .select(["id", "status"])
      .where("project_id", "=", projectId)
      .where("id", "in", [...ids])
      .where("status", "<>", "closed")
      .forUpdate()
      .execute();
    for (const a of open) {
      await trx
        .updateTable("alerts")
        .set({ status: "closed", resolution: "reported", reference, updated_at: at })
        .where("id", "=", a.id)
        .execute();
      await appendHistory(
        trx,
        String(a.id),
        actor,
        {
          status: { from: a.status, to: "closed" },
          resolution: "reported",
          reference,
          event: "filing_filed",
        },
        at,
      );
    }
    return open.length;
  });
}
