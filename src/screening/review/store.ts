// The reviews of person matches (migrations/0041_match_reviews.sql): one per client and list entry, the latest
// decision, with the fingerprints of what was reviewed. A screening reads a client's standing reviews to know which
// candidates the officer already decided on; a review a changed entry or profile reopened is marked superseded.
import type { Kysely, Selectable } from "kysely";
import type { DB } from "../../schema.ts";
import type { MatchReviewsTable } from "../tables.ts";

export type ReviewRow = Selectable<MatchReviewsTable>;

export const pairKey = (list: string, entryId: string) => `${list}:${entryId}`;

/** The client's reviews that still stand (not superseded), by list and entry. */
export async function standingReviews(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
): Promise<Map<string, ReviewRow>> {
  const rows = await db
    .selectFrom("match_reviews")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .where("superseded_at", "is", null)
    .execute();
  return new Map(rows.map((r) => [pairKey(r.list, r.entry_id), r]));
}

/** The project's standing discards, by client, then by list and entry (what a month's files judge clients by). */
export async function discardsOf(
  db: Kysely<DB>,
  projectId: number,
): Promise<Map<string, Map<string, ReviewRow>>> {
  const rows = await db
    .selectFrom("match_reviews")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("decision", "=", "discard")
    .where("superseded_at", "is", null)
    .execute();
  const out = new Map<string, Map<string, ReviewRow>>();
  for (const r of rows) {
    const mine = out.get(r.user_id) ?? new Map<string, ReviewRow>();
    mine.set(pairKey(r.list, r.entry_id), r);
    out.set(r.user_id, mine);
  }
  return out;
}

/** What changed since a review: `entry` (its content), `profile` (the person screened); none: the same pair. */
export function changedSince(review: ReviewRow, entry: string, profile: string): string[] {
  return [
    ...(review.entry_fingerprint !== entry ? ["entry"] : []),
    ...(review.profile_fingerprint !== profile ? ["profile"] : []),
  ];
}

export async function saveReview(
  db: Kysely<DB>,
  r: Omit<ReviewRow, "superseded_at" | "superseded_by_alert">,
): Promise<void> {
  const values = {
    decision: r.decision,
    reason: r.reason,
    actor: r.actor,
    decided_at: r.decided_at,
    alert_id: r.alert_id,
    subject: r.subject,
    role: r.role,
    entry_fingerprint: r.entry_fingerprint,
    profile_fingerprint: r.profile_fingerprint,
    list_version: r.list_version,
    superseded_at: null,
    superseded_by_alert: null,
  };
  await db
    .insertInto("match_reviews")
    .values({ project_id: r.project_id, user_id: r.user_id, list: r.list, entry_id: r.entry_id, ...values })
    .onConflict((oc) => oc.columns(["project_id", "user_id", "list", "entry_id"]).doUpdateSet(values))
    .execute();
}

export async function supersede(
  db: Kysely<DB>,
  review: ReviewRow,
  alertId: string,
  now: Date,
): Promise<void> {
  await db
    .updateTable("match_reviews")
    .set({ superseded_at: now, superseded_by_alert: alertId })
    .where("project_id", "=", review.project_id)
    .where("user_id", "=", review.user_id)
    .where("list", "=", review.list)
    .where("entry_id", "=", review.entry_id)
    .execute();
}
