// Reading alerts: the inbox (newest first, filtered) and one alert with its history, as the API shows them, the
// history checked against the audit log.
import type { Kysely, Selectable } from "kysely";
import { notFound } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import { checkHistory } from "./history-audit.ts";
import { type AlertFilter, type AlertStatus, type AlertView, TRANSITIONS } from "./schemas.ts";
import type { AlertsTable } from "./tables.ts";

export function alertView(row: Selectable<AlertsTable>, now: Date): AlertView {
  return {
    id: String(row.id),
    subject: {
      chainId: row.chain_id,
      address: row.address,
      userId: row.user_id,
      addressId: row.address_id === null ? null : String(row.address_id),
    },
    cause: row.cause,
    causeKey: row.cause_key,
    level: row.level,
    reason: row.reason,
    evidence: row.evidence,
    deadline:
      row.deadline === null
        ? null
        : {
            at: row.deadline.toISOString(),
            filing: row.deadline_filing ?? "",
            source: row.deadline_source ?? "",
            overdue: row.status !== "closed" && row.deadline.getTime() < now.getTime(),
          },
    links: {
      notificationId: row.notification_id === null ? null : String(row.notification_id),
      analysisId: row.evidence.analyses?.at(-1)?.analysisId ?? null,
      address:
        row.address_id === null ? null : `/v1/projects/${row.project_id}/addresses/${String(row.address_id)}`,
    },
    status: row.status as AlertView["status"],
    transitions: [...TRANSITIONS[row.status as AlertStatus]],
    resolution: row.resolution as AlertView["resolution"],
    reference: row.reference,
    assignee: row.assignee,
    approval: row.approval ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listAlerts(
  db: Kysely<DB>,
  projectId: number,
  filter: AlertFilter,
  now: Date,
): Promise<AlertView[]> {
  let query = db.selectFrom("alerts").selectAll().where("project_id", "=", projectId);
  if (filter.status) query = query.where("status", "=", filter.status);
  if (filter.level) query = query.where("level", "=", filter.level);
  if (filter.cause) query = query.where("cause", "=", filter.cause);
  if (filter.assignee) query = query.where("assignee", "=", filter.assignee);
  const rows = await query
    .orderBy("id", "desc")
    .limit(filter.limit ?? 20)
    .offset(filter.offset ?? 0)
    .execute();
  return rows.map((r) => alertView(r, now));
}

export async function alertRow(db: Kysely<DB>, projectId: number, alertId: string, lock = false) {
  let query = db
    .selectFrom("alerts")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("id", "=", alertId);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw notFound("Alert");
  return row;
}

async function historyRows(db: Kysely<DB>, alertId: string) {
  const rows = await db
    .selectFrom("alert_history")
    .select(["id", "at", "actor", "change"])
    .where("alert_id", "=", alertId)
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: String(r.id), at: r.at.toISOString(), actor: r.actor, change: r.change }));
}

export async function alertHistory(db: Kysely<DB>, alertId: string) {
  return (await historyRows(db, alertId)).map(({ id: _id, ...h }) => h);
}

/** The alert, its history, and that history checked against the audit log's record of it (history-audit.ts). */
export async function getAlert(db: Kysely<DB>, projectId: number, alertId: string, now: Date) {
  const row = await alertRow(db, projectId, alertId);
  const rows = await historyRows(db, alertId);
  return {
    ...alertView(row, now),
    history: rows.map(({ id: _id, ...h }) => h),
    historyAudit: await checkHistory(db, projectId, String(row.id), rows),
  };
}
