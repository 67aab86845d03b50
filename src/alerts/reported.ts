// Alerts and the filings they led to: the alerts an aviso names must be the project's; when the aviso's file is
// marked filed with the regulator, its alerts still open are closed as `reported`, with the folio (or the file) as
// their reference and the change in their history; a transfer's 24-hour aviso closes the alerts of that transfer
// that wait on it; and an alert closed as `reported` by the officer records the files it marked filed.
import { type Kysely, sql } from "kysely";
import { lockAuditChain } from "../projects/index.ts";
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
    await lockAuditChain(trx, projectId);
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

/**
 * The project's open alerts that wait on `filing` (a transfer's 24-hour aviso) for one of the transfers `txHashes`,
 * each with every transfer it waits on (an alert that several transfers extended waits on each one's aviso).
 */
export async function alertsAwaitingTransfers(
  db: Kysely<DB>,
  projectId: number,
  filing: string,
  txHashes: readonly string[],
): Promise<{ id: string; txHashes: string[] }[]> {
  if (txHashes.length === 0) return [];
  const rows = await db
    .selectFrom("alerts")
    .select(["id", "evidence"])
    .where("project_id", "=", projectId)
    .where("deadline_filing", "=", filing)
    .where("status", "<>", "closed")
    .where((eb) =>
      eb.or(
        txHashes.map((h) => sql<boolean>`evidence->'transfers' @> ${JSON.stringify([{ txHash: h }])}::jsonb`),
      ),
    )
    .execute();
  return rows.map((r) => {
    const evidence = (typeof r.evidence === "string" ? JSON.parse(r.evidence) : r.evidence) as {
      transfers?: { txHash: string }[];
    };
    return { id: String(r.id), txHashes: [...new Set((evidence.transfers ?? []).map((t) => t.txHash))] };
  });
}

/** Records on the alert's history the files its `reported` closing marked filed (or why none was). */
export async function noteFilingsMarked(
  db: Kysely<DB>,
  alertId: string,
  marked: { paths: string[]; skipped: string[] },
  actor: string,
  at: Date,
): Promise<void> {
  await appendHistory(db, alertId, actor, { event: "filings_marked_filed", ...marked }, at);
}
