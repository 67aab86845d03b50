// Audit rows for every change the service records (keys, settings, reports and filings, addresses, the case file
// of alerts and avisos, list imports), always written in the caller's transaction so that a change and its audit
// row commit or vanish together, each linked into its project's hash chain (audit-chain.ts); the trail's read
// (GET /projects/{id}/audit); and the read of one target's entries, with whether each still holds its hash, for the
// rooms that check their own records against what the audit recorded (an alert's history).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { appendChained, CHAINED, chainOf, entryHash } from "./audit-chain.ts";
import { chainLock } from "./audit-head.ts";

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

/**
 * Takes the chain's lock now, in the caller's transaction (it is held to the end of it). A transaction that changes
 * several rows and audits each change takes it before the first row, so that two such transactions wait at the
 * chain rather than each holding a row the other needs.
 */
export async function lockAuditChain(trx: Kysely<DB>, projectId: number | null): Promise<void> {
  await chainLock(projectId).execute(trx);
}

export interface RecordedEntry {
  id: string;
  actor: string;
  action: string;
  details: Record<string, unknown>;
  createdAt: string;
  /** whether the entry still gives its own hash (the whole chain is checked by `vigia audit verify`) */
  sound: boolean;
}

/** The chain's entries about one target, oldest first. */
export async function recordedEntries(
  db: Kysely<DB>,
  projectId: number | null,
  target: string,
): Promise<RecordedEntry[]> {
  const rows = await db
    .selectFrom("audit_log")
    .select(CHAINED)
    .where(chainOf(projectId))
    .where("target", "=", target)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: String(r.id),
    actor: r.actor,
    action: r.action,
    details: r.details as Record<string, unknown>,
    createdAt: r.created_at.toISOString(),
    sound: r.hash !== null && entryHash({ ...r, id: String(r.id) }) === r.hash,
  }));
}
