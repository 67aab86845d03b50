// A person match as its officer reviews it (docs/api.md, "Match review"): the candidate it rests on, and the
// decision recorded on the alert. Confirming (the client is the listed person) escalates the alert and keeps it for
// the aviso; discarding (a namesake) closes it as a false positive. Either is kept in the alert's history, with the
// reason and who decided, and in the project's audit chain, in the caller's transaction (the screening keeps the
// pair's review beside it: src/screening/review).
import type { Kysely } from "kysely";
import { AppError, notFound } from "../platform/errors.ts";
import { lockAuditChain } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { appendHistory } from "./raise.ts";
import { alertHistory, alertRow } from "./read.ts";
import type { AlertStatus, PersonCandidateEvidence } from "./schemas.ts";

export const MATCH_DECISIONS = ["confirm", "discard"] as const;
export type MatchDecision = (typeof MATCH_DECISIONS)[number];

export const MATCH_REVIEWED = "match_reviewed";

export interface RecordedReview {
  decision: MatchDecision;
  reason: string;
  by: string;
  at: string;
}

/** An earlier review of the same pair that a changed entry or profile reopened, as the new alert's history keeps it. */
export interface EarlierReview extends RecordedReview {
  alertId: string;
  /** what changed since: `entry`, `profile` */
  changed: string[];
}

export interface PersonMatchAlert {
  id: string;
  projectId: number;
  userId: string;
  status: AlertStatus;
  level: string;
  /** the candidate as last screened (an alert extended by later screenings keeps each) */
  candidate: PersonCandidateEvidence;
  review?: RecordedReview;
  earlierReview?: EarlierReview;
}

const notAMatch = (cause: string) =>
  notFound(
    `A match to review (this alert's cause is \`${cause}\`; only \`person_match\` alerts, GET /alerts?cause=person_match, have one)`,
  );

/** The person-match alert with the candidate it rests on and its review, if any. */
export async function personMatchAlert(
  db: Kysely<DB>,
  projectId: number,
  alertId: string,
): Promise<PersonMatchAlert> {
  const row = await alertRow(db, projectId, alertId);
  const candidate = row.evidence.persons?.at(-1);
  if (row.cause !== "person_match" || !candidate || row.user_id === null) throw notAMatch(row.cause);
  const history = await alertHistory(db, String(row.id));
  const reviewed = history.filter((h) => h.change.event === MATCH_REVIEWED).at(-1);
  const raised = history.find((h) => h.change.event === "raised");
  const earlier = raised?.change.earlierReview as EarlierReview | undefined;
  return {
    id: String(row.id),
    projectId: row.project_id,
    userId: row.user_id,
    status: row.status as AlertStatus,
    level: row.level,
    candidate,
    ...(reviewed
      ? {
          review: {
            decision: reviewed.change.decision as MatchDecision,
            reason: String(reviewed.change.note),
            by: reviewed.actor,
            at: reviewed.at,
          },
        }
      : {}),
    ...(earlier ? { earlierReview: earlier } : {}),
  };
}

/**
 * Records the officer's decision on a person-match alert, in `trx` (which must not have written yet: the audit
 * chain is locked first, as every alert change does). A closed alert takes no decision (409).
 */
export async function decidePersonMatch(
  trx: Kysely<DB>,
  projectId: number,
  alertId: string,
  decision: MatchDecision,
  reason: string,
  actor: string,
  now: Date,
): Promise<PersonMatchAlert> {
  await lockAuditChain(trx, projectId);
  const row = await alertRow(trx, projectId, alertId, true);
  const candidate = row.evidence.persons?.at(-1);
  if (row.cause !== "person_match" || !candidate || row.user_id === null) throw notAMatch(row.cause);
  const from = row.status as AlertStatus;
  if (from === "closed")
    throw new AppError(
      "conflict",
      `This alert is closed already (${row.resolution ?? "no resolution"}): a closed alert stays closed; a new screening of the pair opens a new one`,
    );
  const to: AlertStatus = decision === "confirm" ? "escalated" : "closed";
  const change: Record<string, unknown> = {
    event: MATCH_REVIEWED,
    decision,
    // The officer's reason is the entry's note: every reader of a history shows a note as written.
    note: reason,
    list: candidate.list,
    entryId: candidate.entryId,
    listVersion: candidate.listVersion,
    ...(to !== from ? { status: { from, to } } : {}),
    ...(decision === "discard" ? { resolution: "false_positive" } : {}),
  };
  await trx
    .updateTable("alerts")
    .set({
      status: to,
      ...(decision === "discard" ? { resolution: "false_positive" } : {}),
      updated_at: now,
    })
    .where("id", "=", row.id)
    .execute();
  await appendHistory(trx, String(row.id), actor, change, now);
  return {
    id: String(row.id),
    projectId,
    userId: row.user_id,
    status: to,
    level: row.level,
    candidate,
    review: { decision, reason, by: actor, at: now.toISOString() },
  };
}
