// Audit rows for key and settings changes, always written in the caller's transaction so that a change and
// its audit row commit or vanish together; and the trail's read (GET /projects/{id}/audit).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface AuditEntry {
  projectId: number | null;
  actor: string;
  action: string;
  target?: string;
  details?: Record<string, unknown>;
}

export async function writeAudit(trx: Kysely<DB>, entry: AuditEntry): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      project_id: entry.projectId,
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
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
