// An alert's deadline withdrawn: the filing it named turned out not to be owed (a listed client's 24-hour aviso in
// Mexico, whose client another of the project's jurisdictions governs). The alert stays open for the officer; its
// history says why the deadline went.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { appendHistory } from "./raise.ts";

export async function dropDeadline(
  db: Kysely<DB>,
  alertIds: readonly string[],
  filing: string,
  why: string,
  at: Date,
): Promise<void> {
  if (alertIds.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const dropped = await trx
      .updateTable("alerts")
      .set({ deadline: null, deadline_filing: null, deadline_source: null, updated_at: at })
      .where("id", "in", [...alertIds])
      .where("deadline_filing", "=", filing)
      .returning("id")
      .execute();
    for (const a of dropped)
      await appendHistory(trx, String(a.id), "system", { event: "deadline_dropped", filing, why }, at);
  });
}
