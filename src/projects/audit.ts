// Audit rows for key and settings changes, always written in the caller's transaction so that a change and
// its audit row commit or vanish together, each linked into its project's hash chain (audit-chain.ts); and the
// trail's read (GET /projects/{id}/audit).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { appendChained } from "./audit-chain.ts";

export interface AuditEntry {
  projectId: number | null;
  actor: string;
  action: string;
  target?: string;
  details?: Record<string, unknown>;
}

/** Appends to the project's chain (src/projects/audit-chain.ts); outside a transaction, in one of its own. */
export async function writeAudit(trx: Kysely<DB>, entry: AuditEntry): Promise<void> {
  const append = (t: Kysely<DB>) =>
    appendChained(t, {
      project_id: entry.projectId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      details: entry.details ?? {},
    });
  await (trx.isTransaction ? append(trx) : trx.transaction().execute(append));
}

export interface AuditRow {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  created_at: string;
}

export async function listAudit(
  db: Kysely<DB>,
  projectId: number,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom("audit_log")
    .select(["id", "actor", "action", "target", "details", "created_at"])
    .where("project_id", "=", projectId)
    .orderBy("id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows.map((r) => ({ ...r, id: String(r.id), created_at: r.created_at.toISOString() }));
}
