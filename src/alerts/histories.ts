// The histories of several alerts of a project at once, each entry with its sentence in the reader's language (the
// case per client's timeline, src/cases), the newest `limit` entries, oldest first.
import type { Kysely } from "kysely";
import type { Lang } from "../messages/index.ts";
import type { DB } from "../schema.ts";
import { historyText } from "./history-text.ts";
import { projectNames } from "./names.ts";

export interface HistoryInWords {
  alertId: string;
  at: Date;
  actor: string;
  change: Record<string, unknown>;
  text: string;
}

export async function historiesInWords(
  db: Kysely<DB>,
  projectId: number,
  alertIds: readonly string[],
  lang: Lang,
  limit: number,
): Promise<HistoryInWords[]> {
  if (alertIds.length === 0) return [];
  const rows = await db
    .selectFrom("alert_history")
    .innerJoin("alerts", "alerts.id", "alert_history.alert_id")
    .select(["alert_history.alert_id", "alert_history.at", "alert_history.actor", "alert_history.change"])
    .where("alerts.project_id", "=", projectId)
    .where("alert_history.alert_id", "in", [...alertIds])
    .orderBy("alert_history.id", "desc")
    .limit(limit)
    .execute();
  const names = await projectNames(db, projectId);
  return rows.reverse().map((r) => ({
    alertId: String(r.alert_id),
    at: r.at,
    actor: r.actor,
    change: r.change,
    text: historyText(lang, r, names),
  }));
}
