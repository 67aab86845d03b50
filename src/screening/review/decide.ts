// The officer's decision on a person match (POST /projects/{projectId}/alerts/{alertId}/match/review): recorded on
// the alert (escalated when confirmed, closed as a false positive when discarded; its history and the audit log
// name who decided and why) and kept for the pair, with the fingerprints of the entry and of the person reviewed,
// in one transaction. The pair's later screenings read it (clients.ts).
import type { Kysely } from "kysely";
import { decidePersonMatch } from "../../alerts/index.ts";
import { invalid, MESSAGES } from "../../platform/errors.ts";
import type { DB } from "../../schema.ts";
import type { PersonInput } from "../schemas.ts";
import { entryFingerprint, profileFingerprint } from "./fingerprint.ts";
import { listedEntry, screenedPerson } from "./read.ts";
import type { MatchReviewInput } from "./schemas.ts";
import { saveReview } from "./store.ts";

export async function reviewMatch(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
  body: MatchReviewInput,
  actor: string,
  now: Date,
): Promise<void> {
  const reason = body.reason.trim();
  // A reason of blanks says nothing the history could keep.
  if (reason.length < 3)
    throw invalid(MESSAGES.invalidBody, [
      { path: "/reason", message: "say why (at least 3 characters): what was checked, and what it showed" },
    ]);
  await db.transaction().execute(async (trx) => {
    const alert = await decidePersonMatch(trx, projectId, alertId, body.decision, reason, actor, now);
    const c = alert.candidate;
    // The person the officer compared: as screened for the alert, else as the profile holds them now.
    const person =
      (c.person as PersonInput | undefined) ?? (await screenedPerson(trx, projectId, alert.userId, c));
    const listed = await listedEntry(trx, projectId, c);
    await saveReview(trx, {
      project_id: projectId,
      user_id: alert.userId,
      list: c.list,
      entry_id: c.entryId,
      decision: body.decision,
      reason,
      actor,
      decided_at: now,
      alert_id: alert.id,
      subject: c.subject,
      role: c.role,
      entry_fingerprint: entryFingerprint(listed.entry),
      // A person known only by name (an alert raised before persons were kept with it, and the profile changed since):
      // no later screening finds them as reviewed, so the pair alerts again.
      profile_fingerprint: person ? profileFingerprint(c.role, person) : "",
      list_version: listed.listVersion,
    });
  });
}
