// An alert's history in the audit log (docs/api.md, "Alerts"; docs/operations.md, "The audit log"): every entry of
// an alert's history (raised, evidence added, each triage change and note, deadlines dropped, filings, evidence
// exported) is also written to the project's audit chain, in the same transaction, with the history row's id and
// contents. When the alert is served, its history is compared with those entries, so that a history row edited,
// removed or slipped in around the service is shown as such (`historyAudit`) rather than as genuine.
//
// Histories written before this check existed have no entries: the upgrade records, once, in the service's own
// chain, the first history row the audit covers (`startHistoryAudit`); the rows before it are counted apart.
import type { Kysely } from "kysely";
import { canonicalJson, recordedEntries, writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";

const SINCE_TARGET = "alert_history";
const SINCE_ACTION = "alert_history.audited_from";

/** The audit action of a history entry: what happened to the alert. */
export function historyAction(change: Record<string, unknown>): string {
  const status = change.status as { from?: string; to?: string } | undefined;
  if (status?.to === "closed") return "alert.closed";
  if (status?.from === "closed") return "alert.reopened";
  if (typeof change.event === "string") return `alert.${change.event}`;
  if (status) return "alert.status_changed";
  if (change.approval !== undefined) return "alert.approved";
  if (change.assignee !== undefined) return "alert.reassigned";
  if (change.note !== undefined) return "alert.noted";
  return "alert.changed";
}

export const alertTarget = (alertId: string) => `alert:${alertId}`;

/** Writes the audit entry of one history row, in the transaction that inserted it. */
export async function auditHistoryRow(
  trx: Kysely<DB>,
  row: { projectId: number; alertId: string; historyId: string; actor: string; at: Date; change: unknown },
): Promise<void> {
  const change = row.change as Record<string, unknown>;
  await writeAudit(trx, {
    projectId: row.projectId,
    actor: row.actor,
    action: historyAction(change),
    target: alertTarget(row.alertId),
    details: { history: row.historyId, at: row.at.toISOString(), change },
  });
}

/**
 * Records where the audit's cover of alert histories begins (the history rows written from now on), once, by the
 * process that applied the upgrade; nothing on a store with no history.
 */
export async function startHistoryAudit(db: Kysely<DB>): Promise<void> {
  const last = await db
    .selectFrom("alert_history")
    .select((eb) => eb.fn.max("id").as("id"))
    .executeTakeFirst();
  // A store with no history yet needs no mark: every row it will hold is audited.
  if (last?.id === null || last?.id === undefined) return;
  await writeAudit(db, {
    projectId: null,
    actor: "system",
    action: SINCE_ACTION,
    target: SINCE_TARGET,
    details: { from: String(BigInt(last?.id ?? 0) + 1n) },
  });
}

export interface HistoryDifference {
  /** the history row's id (also of a row removed, as the audit recorded it) */
  historyId: string;
  /** its place in `history`, null for a row no longer there */
  index: number | null;
  /**
   * `changed`: the row differs from what the audit recorded; `removed`: the audit recorded a row that is gone;
   * `unrecorded`: a row the audit never recorded (written around the service); `audit_entry_changed`: the audit
   * entry that recorded it no longer holds its own hash
   */
  problem: "changed" | "removed" | "unrecorded" | "audit_entry_changed";
  /** what the audit recorded, for `changed` and `removed` */
  recorded?: { at: string; actor: string; change: unknown };
}

export interface HistoryAudit {
  /** every history row matches the audit's record of it, and none the audit recorded is missing */
  verified: boolean;
  /** rows written before alert histories were audited (not checked) */
  beforeAudit: number;
  differences: HistoryDifference[];
}

/** Compares an alert's history rows with the audit's entries of them. */
export async function checkHistory(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
  rows: readonly { id: string; at: string; actor: string; change: unknown }[],
): Promise<HistoryAudit> {
  const since = (await recordedEntries(db, null, SINCE_TARGET)).find((e) => e.action === SINCE_ACTION);
  // A mark that no longer holds its hash is not believed: every row must then be recorded.
  const from = since?.sound ? BigInt(String(since.details.from ?? "0")) : 0n;
  const recorded = new Map<string, { at: string; actor: string; change: unknown; sound: boolean }>();
  for (const e of await recordedEntries(db, projectId, alertTarget(alertId))) {
    const history = e.details.history;
    if (typeof history !== "string") continue;
    recorded.set(history, {
      at: String(e.details.at),
      actor: e.actor,
      change: e.details.change,
      sound: e.sound,
    });
  }
  const differences: HistoryDifference[] = [];
  let beforeAudit = 0;
  rows.forEach((row, index) => {
    const rec = recorded.get(row.id);
    recorded.delete(row.id);
    if (!rec) {
      if (BigInt(row.id) < from) beforeAudit++;
      else differences.push({ historyId: row.id, index, problem: "unrecorded" });
      return;
    }
    const { sound, ...as } = rec;
    if (!sound) differences.push({ historyId: row.id, index, problem: "audit_entry_changed" });
    else if (
      as.at !== row.at ||
      as.actor !== row.actor ||
      canonicalJson(as.change) !== canonicalJson(row.change)
    )
      differences.push({ historyId: row.id, index, problem: "changed", recorded: as });
  });
  for (const [historyId, rec] of recorded) {
    const { sound: _sound, ...as } = rec;
    differences.push({ historyId, index: null, problem: "removed", recorded: as });
  }
  return { verified: differences.length === 0, beforeAudit, differences };
}
