// Triage (docs/api.md, "Alerts"): PATCH moves an alert between `open`, `in_review`, `escalated` and `closed`
// (TRANSITIONS), sets its assignee (a person of the project who is not disabled, stored `user:<id>`; or, the older
// and deprecated way, the label of one of the project's keys that is not revoked), records a
// resolution when it closes (`reported` with the filing's folio or reference), records a directivo's approval of a
// politically exposed person (`pep` alerts: RCG Art. 23 Ter 5), and keeps a note; every change is
// appended to the alert's history with who and when, and to the project's audit chain (history-audit.ts), in the
// same transaction as the change.
import type { Kysely } from "kysely";
import { activeKeyLabels } from "../keys/index.ts";
import type { Lang } from "../messages/index.ts";
import { AppError, MESSAGES } from "../platform/errors.ts";
import { lockAuditChain } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { findUser } from "../users/index.ts";
import { appendHistory } from "./raise.ts";
import { alertRow, getAlert } from "./read.ts";
import { type AlertPatchBody, type AlertStatus, TRANSITIONS } from "./schemas.ts";

const invalid = (path: string, message: string) =>
  new AppError("invalid_request", MESSAGES.invalidBody, { details: [{ path, message }] });

export async function patchAlert(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
  patch: AlertPatchBody,
  actor: string,
  now: Date,
  lang: Lang,
) {
  await db.transaction().execute(async (trx) => {
    // The chain before the alert's row: the change is audited in this transaction (see insertOrOpen).
    await lockAuditChain(trx, projectId);
    const row = await alertRow(trx, projectId, alertId, true);
    const from = row.status as AlertStatus;
    const to = patch.status ?? from;
    if (to !== from && !TRANSITIONS[from].includes(to)) {
      const allowed = TRANSITIONS[from];
      throw new AppError(
        "conflict",
        `An alert that is \`${from}\` cannot become \`${to}\`; ${allowed.length ? `it can become ${allowed.map((s) => `\`${s}\``).join(", ")}` : "a closed alert stays closed"}`,
      );
    }
    if (to === "closed" && from !== "closed") {
      if (!patch.resolution)
        throw invalid(
          "/resolution",
          "closing an alert needs a resolution: false_positive, no_action or reported",
        );
      if (patch.resolution === "reported" && !patch.reference)
        throw invalid("/reference", "a `reported` resolution needs the filing's folio or reference");
    } else if (patch.resolution !== undefined || patch.reference !== undefined) {
      throw invalid(
        patch.resolution !== undefined ? "/resolution" : "/reference",
        'a resolution and its reference are given when the alert is closed (with `"status": "closed"`)',
      );
    }
    if (patch.approval !== undefined && !(row.cause === "person_match" && row.level === "pep"))
      throw invalid(
        "/approval",
        "only a `person_match` alert of level `pep` (a politically exposed person) takes a directivo's approval",
      );
    if (patch.approval !== undefined && row.approval)
      throw new AppError(
        "conflict",
        `This alert's approval was recorded already (by ${row.approval.by}, ${new Date(row.approval.at).toISOString()})`,
      );
    let assignee =
      patch.assignee === undefined ? undefined : patch.assignee === null ? null : String(patch.assignee);
    if (typeof patch.assignee === "number") {
      const person = await findUser(trx, projectId, patch.assignee);
      if (!person)
        throw invalid(
          "/assignee",
          `no person of this project has the user id ${patch.assignee} (GET /v1/projects/${projectId}/users lists them)`,
        );
      if (person.disabledAt)
        throw invalid(
          "/assignee",
          `${person.displayName} (user ${person.id}) is disabled: assign someone else`,
        );
      assignee = `user:${person.id}`;
    }
    if (typeof patch.assignee === "string") {
      const labels = await activeKeyLabels(trx, projectId);
      if (!labels.includes(patch.assignee))
        throw invalid(
          "/assignee",
          `no key of this project that is not revoked has the label "${patch.assignee}"`,
        );
    }
    const set: Record<string, unknown> = {};
    const change: Record<string, unknown> = {};
    if (to !== from) {
      set.status = to;
      change.status = { from, to };
    }
    if (patch.resolution !== undefined) {
      set.resolution = patch.resolution;
      change.resolution = patch.resolution;
    }
    if (patch.reference !== undefined) {
      set.reference = patch.reference;
      change.reference = patch.reference;
    }
    if (assignee !== undefined && assignee !== row.assignee) {
      set.assignee = assignee;
      change.assignee = { from: row.assignee, to: assignee };
    }
    if (patch.approval !== undefined) {
      const approval = {
        by: patch.approval.by,
        at: now.toISOString(),
        recordedBy: actor,
        ...(patch.note !== undefined ? { note: patch.note } : {}),
      };
      set.approval = JSON.stringify(approval);
      change.approval = approval;
    }
    if (patch.note !== undefined) change.note = patch.note;
    if (Object.keys(change).length === 0) return;
    if (Object.keys(set).length > 0)
      await trx
        .updateTable("alerts")
        .set({ ...set, updated_at: now })
        .where("id", "=", row.id)
        .execute();
    await appendHistory(trx, row.id, actor, change, now);
  });
  return getAlert(db, projectId, alertId, now, lang);
}
