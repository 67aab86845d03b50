// Alerts from the screening of persons (docs/api.md, "Alerts"): when a monitored client's profile is screened, on
// its first reading or again after a list changed, each list entry it is a new candidate for (`review` or `match`)
// raises an alert of cause `person_match`, keyed by the list and the entry, on the client's monitored address. While
// it is open, a later screening that finds the same entry as a `match` where it was a `review` adds that candidate
// to the evidence and takes the higher level; one that finds it as before adds nothing (src/screening/clients.ts).
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import type { AlertDeadline } from "./deadline.ts";
import type { EarlierReview } from "./match-review.ts";
import { insertOrOpen } from "./open-alert.ts";
import { appendHistory } from "./raise.ts";
import type { AlertEvidence, PersonCandidateEvidence } from "./schemas.ts";

export interface PersonMatch {
  projectId: number;
  userId: string;
  chainId: number;
  address: string;
  addressId: number | string | null;
  candidate: PersonCandidateEvidence;
  /** the filing the candidate makes due (a listing's 24-hour aviso), set when the alert opens or rises to `match` */
  deadline?: AlertDeadline | null;
  /**
   * the officer's earlier decision on this client and entry, which a changed list entry or profile reopened: the
   * alert names it (src/screening/review)
   */
  earlierReview?: EarlierReview;
  now: Date;
}

/** A candidate's verdicts from the weakest: a later screening that finds it stronger raises the alert's level. */
const RANK = ["review", "pep", "match"];

/** Raises or extends the alert of one candidate; its id, and whether it was new. */
export async function raisePersonAlert(
  trx: Kysely<DB>,
  m: PersonMatch,
): Promise<{ id: string; created: boolean }> {
  const c = m.candidate;
  const who =
    c.role === "client" ? `user ${m.userId}` : `the ${c.role.replace("_", " ")} of user ${m.userId}`;
  const on = c.entry.programs.length > 0 ? ` (${c.entry.programs.slice(0, 3).join(", ")})` : "";
  const what =
    c.verdict === "match"
      ? "a match"
      : c.verdict === "pep"
        ? "a politically exposed person (enhanced due diligence; operating needs a directivo's approval)"
        : "a candidate to review";
  const r = m.earlierReview;
  const earlier = r
    ? ` It was ${r.decision === "discard" ? "discarded" : "confirmed"} on alert ${r.alertId} (${r.at}, ${r.by}: ${r.reason}); since then the ${r.changed.map((x) => (x === "entry" ? "list entry" : "client's profile")).join(" and the ")} changed.`
    : "";
  const reason = `${c.subject}, ${who}, is ${what} for ${c.matchedName} on the ${c.list} list, version ${c.listVersion}${on}: entry ${c.entryId}, score ${c.score}, agreeing on ${c.matchedFields.join(", ")}.${c.notes.length > 0 ? ` ${c.notes.join("; ")}.` : ""}${earlier}`;
  const evidence: AlertEvidence = { transfers: [], laws: [], wallets: [m.address], persons: [c] };
  const alert = await insertOrOpen(trx, {
    projectId: m.projectId,
    chainId: m.chainId,
    address: m.address,
    userId: m.userId,
    cause: "person_match",
    causeKey: `${c.list}:${c.entryId}`,
    level: c.verdict,
    reason,
    evidence,
    addressId: m.addressId,
    deadline: m.deadline ?? null,
    now: m.now,
  });
  const change = {
    list: c.list,
    listVersion: c.listVersion,
    entryId: c.entryId,
    score: c.score,
    ...(r ? { earlierReview: r } : {}),
  };
  if (alert.created) {
    await appendHistory(trx, alert.id, "system", { event: "raised", ...change }, m.now);
    return { id: alert.id, created: true };
  }
  const persons = alert.evidence.persons ?? [];
  const known = persons.some(
    (p) =>
      p.listVersion === c.listVersion &&
      p.subject === c.subject &&
      p.score === c.score &&
      p.verdict === c.verdict,
  );
  if (known && !r) return { id: alert.id, created: false };
  const rises = RANK.indexOf(c.verdict) > RANK.indexOf(alert.level);
  await trx
    .updateTable("alerts")
    .set({
      evidence: JSON.stringify({ ...alert.evidence, persons: [...persons, c] }),
      ...(rises ? { level: c.verdict, reason } : {}),
      ...(m.deadline
        ? {
            deadline: m.deadline.at,
            deadline_filing: m.deadline.filing,
            deadline_source: m.deadline.source,
          }
        : {}),
      updated_at: m.now,
    })
    .where("id", "=", alert.id)
    .execute();
  await appendHistory(
    trx,
    alert.id,
    "system",
    { event: "evidence_added", ...change, ...(rises ? { level: { from: alert.level, to: c.verdict } } : {}) },
    m.now,
  );
  return { id: alert.id, created: false };
}
