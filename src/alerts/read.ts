// Reading alerts: one alert as the API shows it (its reason in the reader's language, its deadline in its
// jurisdiction's time zone, its assignee by name, the alerts linked to it) and with its history in words, the history
// checked against the audit log. The inbox's paging is inbox.ts.
import type { Kysely, Selectable } from "kysely";
import { jurisdiction } from "../jurisdictions/index.ts";
import type { Lang } from "../messages/index.ts";
import { notFound } from "../platform/errors.ts";
import type { DB } from "../schema.ts";
import { checkHistory } from "./history-audit.ts";
import { historyText } from "./history-text.ts";
import { linkedAlertIds } from "./linked.ts";
import { assignedUserId, type Names, projectNames } from "./names.ts";
import { type ReasonSource, reasonText, verdictReason } from "./reason-text.ts";
import { type AlertStatus, type AlertView, TRANSITIONS } from "./schemas.ts";
import type { AlertsTable } from "./tables.ts";

/** A filing's jurisdiction is its id's prefix (`MX-URGENT`, `CO-...`); UTC for a filing of none the service knows. */
const filingTimeZone = (filing: string | null) =>
  jurisdiction(filing?.split("-")[0] ?? "")?.timeZone ?? "UTC";

export interface ViewContext {
  names: Names;
  linked: ReadonlyMap<string, string[]>;
  /** the language of `reasonText` */
  lang: Lang;
}

const reasonSource = (row: Selectable<AlertsTable>): ReasonSource => ({
  cause: row.cause,
  causeKey: row.cause_key,
  level: row.level,
  address: row.address,
  userId: row.user_id,
  evidence: row.evidence,
});

/** The alert's reason in `lang`, its instants read in the zone of its deadline's jurisdiction (else UTC). */
export function reasonTextOf(row: Selectable<AlertsTable>, lang: Lang): string {
  return reasonText(lang, reasonSource(row), filingTimeZone(row.deadline_filing));
}

/** The stored evidence with each analysis's reason in `lang`. */
function evidenceView(row: Selectable<AlertsTable>, lang: Lang): AlertView["evidence"] {
  const { analyses, ...rest } = row.evidence;
  if (analyses === undefined) return rest;
  const source = reasonSource(row);
  return { ...rest, analyses: analyses.map((v) => ({ ...v, reasonText: verdictReason(lang, v, source) })) };
}

export function alertView(row: Selectable<AlertsTable>, now: Date, ctx: ViewContext): AlertView {
  const userId = assignedUserId(row.assignee);
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
    reasonText: reasonTextOf(row, ctx.lang),
    evidence: evidenceView(row, ctx.lang),
    deadline:
      row.deadline === null
        ? null
        : {
            at: row.deadline.toISOString(),
            filing: row.deadline_filing ?? "",
            source: row.deadline_source ?? "",
            overdue: row.status !== "closed" && row.deadline.getTime() < now.getTime(),
            timeZone: filingTimeZone(row.deadline_filing),
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
    assigneeUser:
      userId === null ? null : { id: userId, displayName: ctx.names.user(userId) ?? `user:${userId}` },
    linkedAlertIds: ctx.linked.get(String(row.id)) ?? [],
    approval: row.approval ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The views of rows of one project, their names and links read once for all of them. */
export async function alertViews(
  db: Kysely<DB>,
  projectId: number,
  rows: readonly Selectable<AlertsTable>[],
  now: Date,
  lang: Lang,
  names?: Names,
): Promise<AlertView[]> {
  const ctx = {
    names: names ?? (await projectNames(db, projectId)),
    linked: await linkedAlertIds(db, projectId, rows),
    lang,
  };
  return rows.map((r) => alertView(r, now, ctx));
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

/**
 * The alert, its history (each entry with its sentence in `lang`), and that history checked against the audit log's
 * record of it (history-audit.ts).
 */
export async function getAlert(db: Kysely<DB>, projectId: number, alertId: string, now: Date, lang: Lang) {
  const row = await alertRow(db, projectId, alertId);
  const rows = await historyRows(db, alertId);
  const names = await projectNames(db, projectId);
  const [view] = await alertViews(db, projectId, [row], now, lang, names);
  return {
    ...(view as AlertView),
    history: rows.map(({ id: _id, ...h }) => ({ ...h, text: historyText(lang, h, names) })),
    historyAudit: await checkHistory(db, projectId, String(row.id), rows),
  };
}
