// Every monitored client, screened (docs/api.md, "Screening"): each is queued at its registration (queue.ts) and
// screened from its profile by the workers as soon as a list is imported, operating or not; the transfer checker
// asks, for each transfer it judges, which lists the client is a `match` on (so that a Mexican client on the UIF's
// Lista de Personas Bloqueadas meets MX-LPB), screening a client not screened yet then. One screened against older
// versions of the lists is screened again from the persons kept of its profile. Each screening is stored
// (client_screenings) and each candidate it finds that the last one did not raises a `person_match` alert in the
// same transaction (src/alerts); a listing that owes an aviso from the moment it is known records it there too
// (listing-avisos.ts). With no list imported nothing is screened.
import { createHash } from "node:crypto";
import type { Kysely } from "kysely";
import { type EarlierReview, raisePersonAlert } from "../alerts/index.ts";
import type { Profile } from "../jurisdictions/index.ts";
import { projectJurisdictions } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { candidateEvidence } from "./candidate-evidence.ts";
import type { ListKind } from "./entry.ts";
import { listingsDue, recordListingAviso } from "./listing-avisos.ts";
import { visibleTo } from "./lists/read.ts";
import { VERDICTS, worstVerdict } from "./outcomes.ts";
import {
  type ClaimedClient,
  claimDueClients,
  markScreenedUnchanged,
  PENDING,
  releaseClaim,
} from "./queue.ts";
import { entryFingerprint, profileFingerprint } from "./review/fingerprint.ts";
import {
  changedSince,
  discardsOf,
  pairKey,
  type ReviewRow,
  standingReviews,
  supersede,
} from "./review/store.ts";
import type { CandidateView, Verdict } from "./schemas.ts";
import { assertListsLoaded, screenPerson } from "./screen.ts";
import type { LoadedLists, Screener } from "./screener.ts";
import { thresholdsOf } from "./settings.ts";
import { type Subject, subjectsOf } from "./subjects.ts";

/** A client and the monitored address it is screened for (the subject of its alerts). */
export interface ClientRef {
  projectId: number;
  userId: string;
  chainId: number;
  address: string;
  addressId: number | string | null;
}

interface StoredCandidate extends CandidateView {
  subject: string;
  role: string;
}

export interface ClientScreening {
  verdict: Verdict;
  /** the lists on which a person of the profile is a `match` */
  matchedLists: ListKind[];
  candidates: StoredCandidate[];
  /** alerts raised or extended by this screening */
  alerts: number;
}

/** Why a client is not screened when its profile names nobody (no name, no denominación). */
const NOBODY =
  "the profile names nobody to screen (no `givenName` and `paternalSurname`, no `denominacionRazon`)";

/** For a client a generation finds never screened: rules on its lists stay unjudged. */
export const NOT_SCREENED = "the client has not been screened against the lists of persons yet";

/** The lists each screened client of a project is a match on, by user id (what a month's files judge by). */
export async function clientMatches(db: Kysely<DB>, projectId: number): Promise<Map<string, ListKind[]>> {
  const rows = await db
    .selectFrom("client_screenings")
    .select(["user_id", "candidates", "subjects"])
    .where("project_id", "=", projectId)
    .where("verdict", "<>", PENDING)
    .execute();
  const reviews = await discardsOf(db, projectId);
  return new Map(
    rows.map((r) => [
      r.user_id,
      summary(
        r.candidates as StoredCandidate[],
        0,
        discardedBy(reviews.get(r.user_id) ?? new Map(), r.subjects as Subject[]),
      ).matchedLists,
    ]),
  );
}

const keyOf = (c: { list: string; entryId: string; subject: string }) =>
  `${c.list}:${c.entryId}:${c.subject}`;

/**
 * A screening's outcome. `discarded`: the candidates whose pair the officer discarded as a namesake (review/), for the
 * same entry and person: still candidates (what the screening found), but no list the client is a `match` on, so the
 * transfer checker's list rules and the month's files do not judge the client by them.
 */
function summary(
  candidates: StoredCandidate[],
  alerts: number,
  discarded: (c: StoredCandidate) => boolean = () => false,
): ClientScreening {
  return {
    verdict: worstVerdict(candidates.map((c) => c.verdict)),
    matchedLists: [
      ...new Set(candidates.filter((c) => c.verdict === "match" && !discarded(c)).map((c) => c.list)),
    ],
    candidates,
    alerts,
  };
}

/** Whether a standing review discarded the candidate's pair, and its entry and person are those reviewed. */
const discardedBy =
  (reviews: Map<string, ReviewRow>, subjects: Subject[]) =>
  (c: StoredCandidate): boolean => {
    const review = reviews.get(pairKey(c.list, c.entryId));
    return review?.decision === "discard" && reopenedReview(review, c, subjects) === undefined;
  };

/** The candidates of a profile's persons against the lists as loaded, each with who it is of. */
function candidatesOf(
  loaded: LoadedLists,
  thresholds: Awaited<ReturnType<typeof thresholdsOf>>,
  subjects: Subject[],
  projectId: number,
): StoredCandidate[] {
  return subjects.flatMap((s) =>
    screenPerson(loaded, thresholds, s.person, projectId).candidates.map((c) => ({
      ...c,
      subject: s.person.name,
      role: s.role,
    })),
  );
}

/** Whether two screenings found the same candidates, at the same verdicts, scores and list versions. */
function sameCandidates(a: readonly StoredCandidate[], b: readonly StoredCandidate[]): boolean {
  const form = (cs: readonly StoredCandidate[]) =>
    cs
      .map((c) => `${keyOf(c)}|${c.verdict}|${c.score}|${c.listVersion}|${c.role}`)
      .sort()
      .join("\n");
  return a.length === b.length && form(a) === form(b);
}

/** Screens the persons of a profile against the lists as loaded, stores it, and raises the alerts it calls for. */
export async function screenSubjects(
  db: Kysely<DB>,
  loaded: LoadedLists,
  client: ClientRef,
  subjects: Subject[],
  profileDigest: string,
  now: Date,
  /** screening again the persons kept: the digest they were kept under (another process may have replaced them) */
  kept?: string,
  /**
   * whether a listing that owes an aviso records one from now (listing-avisos.ts); not when the transfer checker
   * screens the client for the transfer it judges, whose own rule (MX-LPB) makes that transfer's aviso
   */
  listingAvisos = true,
): Promise<ClientScreening> {
  // A project that reads no list (only other projects' own LPBs are imported) has nothing to be screened against.
  assertListsLoaded(loaded, client.projectId);
  const thresholds = await thresholdsOf(db, client.projectId);
  const candidates = candidatesOf(loaded, thresholds, subjects, client.projectId);
  const verdict = worstVerdict(candidates.map((c) => c.verdict));
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("client_screenings")
      .select(["candidates", "profile_digest"])
      .where("project_id", "=", client.projectId)
      .where("user_id", "=", client.userId)
      .forUpdate()
      .executeTakeFirst();
    // The persons were replaced meanwhile (a profile read with a new beneficial owner): theirs stands, not these.
    if (kept !== undefined && before && before.profile_digest !== kept)
      return summary(before.candidates as StoredCandidate[], 0);
    const known = new Map(
      ((before?.candidates ?? []) as StoredCandidate[]).map((c) => [keyOf(c), c] as const),
    );
    const values = {
      subjects: JSON.stringify(subjects),
      profile_digest: profileDigest,
      lists_key: loaded.key,
      verdict,
      candidates: JSON.stringify(candidates),
      screened_at: now,
      claimed_until: null,
    };
    await trx
      .insertInto("client_screenings")
      .values({
        project_id: client.projectId,
        user_id: client.userId,
        chain_id: client.chainId,
        address: client.address,
        address_id: client.addressId === null ? null : String(client.addressId),
        ...values,
      })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doUpdateSet(values))
      .execute();
    // The address of the first screening stays the subject of the client's alerts.
    const subject = await trx
      .selectFrom("client_screenings")
      .select(["chain_id", "address", "address_id"])
      .where("project_id", "=", client.projectId)
      .where("user_id", "=", client.userId)
      .executeTakeFirstOrThrow();
    const enabled = await projectJurisdictions(trx, client.projectId);
    const reviews = await standingReviews(trx, client.projectId, client.userId);
    let alerts = 0;
    for (const c of candidates) {
      // A pair the officer decided on (review/): while the entry and the person are those reviewed, a discarded one
      // raises nothing and a confirmed one no second alert, whatever else changed (a review become a match, a
      // candidate lost and found again); when either changed, the pair is news, and its alert names the decision.
      const review = reviews.get(pairKey(c.list, c.entryId));
      const reopened = review ? reopenedReview(review, c, subjects) : undefined;
      if (review && !reopened) continue;
      const old = known.get(keyOf(c));
      // A candidate seen before at the same verdict is not news; a new one, or one become stronger (a review become
      // a pep or a match), is.
      if (!reopened && old && VERDICTS.indexOf(c.verdict) <= VERDICTS.indexOf(old.verdict)) continue;
      const person = subjects.find((s) => s.role === c.role && s.person.name === c.subject)?.person;
      const evidence = candidateEvidence(c, c.subject, c.role, now, person);
      // A match on a list that owes an aviso from this moment (Mexico's LPB): the alert carries its deadline, and
      // the aviso is recorded with it, whether or not the client operates again (listing-avisos.ts).
      const due = listingAvisos && c.verdict === "match" ? listingsDue(enabled, c.list, now) : [];
      const alert = await raisePersonAlert(trx, {
        projectId: client.projectId,
        userId: client.userId,
        chainId: subject.chain_id,
        address: subject.address,
        addressId: subject.address_id,
        candidate: evidence,
        deadline: due[0]?.deadline ?? null,
        ...(reopened ? { earlierReview: reopened } : {}),
        now,
      });
      if (review && reopened) {
        await supersede(trx, review, alert.id, now);
        reviews.delete(pairKey(c.list, c.entryId));
      }
      for (const d of due)
        await recordListingAviso(trx, d, {
          projectId: client.projectId,
          userId: client.userId,
          account: subject.address,
          person: c,
          alertId: alert.id,
          now,
        });
      alerts += 1;
    }
    return summary(candidates, alerts, discardedBy(reviews, subjects));
  });
}

/** A review a candidate no longer fits (its entry's content or its person changed), as its new alert names it. */
function reopenedReview(
  review: ReviewRow,
  c: StoredCandidate,
  subjects: Subject[],
): EarlierReview | undefined {
  const person = subjects.find((s) => s.role === c.role && s.person.name === c.subject)?.person;
  const changed = changedSince(
    review,
    entryFingerprint(c.entry),
    person ? profileFingerprint(c.role, person) : "",
  );
  if (changed.length === 0) return undefined;
  return {
    decision: review.decision as EarlierReview["decision"],
    reason: review.reason,
    by: review.actor,
    at: review.decided_at.toISOString(),
    alertId: String(review.alert_id),
    changed,
  };
}

export const profileDigest = (subjects: Subject[]) =>
  createHash("sha256").update(JSON.stringify(subjects)).digest("hex");

export type ProfileRead = () => Promise<{ ok: true; profile: Profile } | { ok: false; reason: string }>;

/**
 * The lists the client is a `match` on, for the transfer checker: its stored screening when the lists have not
 * changed since; screened again from the persons kept when they have; screened from its profile (read now) when it
 * never was; none while no list is imported. `unscreened` when the profile could not be read: the caller counts
 * it, and the next transfer tries again.
 */
export async function clientListings(
  db: Kysely<DB>,
  screener: Screener,
  client: ClientRef,
  readProfile: ProfileRead,
  now: Date,
): Promise<{ matchedLists: ListKind[]; screened?: "first" | "rescreen" } | { unscreened: string }> {
  const loaded = await screener.current();
  // No list imported that the project reads: nothing to be a match on (GET /screening/lists and the start-up log
  // say so).
  if (!loaded.lists.some(visibleTo(client.projectId))) return { matchedLists: [] };
  const row = await db
    .selectFrom("client_screenings")
    .select(["lists_key", "candidates", "subjects", "profile_digest", "verdict"])
    .where("project_id", "=", client.projectId)
    .where("user_id", "=", client.userId)
    .executeTakeFirst()
    // A client queued and not screened yet is screened from its profile, as one never seen.
    .then((r) => (r?.verdict === PENDING ? undefined : r));
  if (row && row.lists_key === loaded.key) {
    const candidates = row.candidates as StoredCandidate[];
    // Only a client with a match can have had one discarded: the others cost no read of the reviews.
    const reviews = candidates.some((c) => c.verdict === "match")
      ? await standingReviews(db, client.projectId, client.userId)
      : new Map<string, ReviewRow>();
    return {
      matchedLists: summary(candidates, 0, discardedBy(reviews, row.subjects as Subject[])).matchedLists,
    };
  }
  if (row) {
    const subjects = row.subjects as Subject[];
    const again = await screenSubjects(
      db,
      loaded,
      client,
      subjects,
      row.profile_digest,
      now,
      row.profile_digest,
      false,
    );
    return { matchedLists: again.matchedLists, screened: "rescreen" };
  }
  const read = await readProfile();
  if (!read.ok) return { unscreened: `the profile could not be read (${read.reason})` };
  const subjects = subjectsOf(read.profile);
  if (subjects.length === 0) return { unscreened: NOBODY };
  const first = await screenSubjects(
    db,
    loaded,
    client,
    subjects,
    profileDigest(subjects),
    now,
    undefined,
    false,
  );
  return { matchedLists: first.matchedLists, screened: "first" };
}

/**
 * A profile the checker read for other reasons (the governing jurisdiction): when its persons are no longer those
 * the client was screened as (a changed name, a new beneficial owner), the client is screened again now.
 */
export async function profileRead(
  db: Kysely<DB>,
  screener: Screener,
  client: ClientRef,
  profile: Profile,
  now: Date,
): Promise<ClientScreening | undefined> {
  const row = await db
    .selectFrom("client_screenings")
    .select(["profile_digest", "verdict"])
    .where("project_id", "=", client.projectId)
    .where("user_id", "=", client.userId)
    .executeTakeFirst();
  const subjects = subjectsOf(profile);
  const digest = profileDigest(subjects);
  // Never screened (or only queued): its first screening is the transfer checker's (clientListings).
  if (!row || row.verdict === PENDING || row.profile_digest === digest || subjects.length === 0)
    return undefined;
  const loaded = await screener.current();
  if (!loaded.lists.some(visibleTo(client.projectId))) return undefined;
  return screenSubjects(db, loaded, client, subjects, digest, now);
}

/** Reads a client's profile from the integrator (for a client queued at its registration). */
export type ProfileOf = (projectId: number, userId: string) => ReturnType<ProfileRead>;

/** How long a client whose screening failed waits before it is tried again. */
const RETRY_MS = 10 * 60_000;

/**
 * One run of the screening of the queued clients (queue.ts): a batch of those never screened or screened against
 * other lists, claimed so that no other worker screens them at once. A client queued at its registration is
 * screened from its profile, read now (`profileOf`; without it, it stays queued); the others from the persons kept
 * of their profiles. How many were claimed (the loop runs again at once while batches come full), screened and
 * alerted on, and which failed (tried again after RETRY_MS).
 */
export async function rescreenClients(
  db: Kysely<DB>,
  screener: Screener,
  batch: number,
  now: () => Date,
  profileOf?: ProfileOf,
): Promise<{
  claimed: number;
  screened: number;
  alerts: number;
  failed: { projectId: number; userId: string; error: unknown }[];
}> {
  const loaded = await screener.current();
  if (loaded.lists.length === 0) return { claimed: 0, screened: 0, alerts: 0, failed: [] };
  const rows = await claimDueClients(db, loaded.key, batch, now());
  let alerts = 0;
  let screened = 0;
  const failed: { projectId: number; userId: string; error: unknown }[] = [];
  // Most clients screened again find what they found before (a list changed elsewhere): those are recorded together,
  // in one statement; a client whose candidates changed gets its own transaction with its alerts.
  const unchanged: ClaimedClient[] = [];
  const thresholds = new Map<number, Awaited<ReturnType<typeof thresholdsOf>>>();
  for (const r of rows) {
    if (r.verdict === PENDING) continue;
    try {
      assertListsLoaded(loaded, r.project_id);
      let t = thresholds.get(r.project_id);
      if (!t) {
        t = await thresholdsOf(db, r.project_id);
        thresholds.set(r.project_id, t);
      }
      const found = candidatesOf(loaded, t, r.subjects as Subject[], r.project_id);
      if (sameCandidates(found, r.candidates as StoredCandidate[])) unchanged.push(r);
    } catch {
      // Screened on its own below, where a failure is recorded.
    }
  }
  await markScreenedUnchanged(db, loaded.key, unchanged, now());
  screened += unchanged.length;
  const recorded = new Set(unchanged);
  for (const r of rows) {
    if (recorded.has(r)) continue;
    const client: ClientRef = {
      projectId: r.project_id,
      userId: r.user_id,
      chainId: r.chain_id,
      address: r.address,
      addressId: r.address_id,
    };
    // One client that fails (its profile unreadable, a statement timeout) does not hold the others back.
    try {
      let done: ClientScreening;
      if (r.verdict === PENDING) {
        if (!profileOf) {
          await releaseClaim(db, r.project_id, r.user_id, now(), now());
          continue;
        }
        const read = await profileOf(r.project_id, r.user_id);
        if (!read.ok) throw new Error(`the profile could not be read (${read.reason})`);
        const subjects = subjectsOf(read.profile);
        if (subjects.length === 0) throw new Error(NOBODY);
        done = await screenSubjects(db, loaded, client, subjects, profileDigest(subjects), now());
      } else
        done = await screenSubjects(
          db,
          loaded,
          client,
          r.subjects as Subject[],
          r.profile_digest,
          now(),
          r.profile_digest,
        );
      alerts += done.alerts;
      screened += 1;
    } catch (error) {
      failed.push({ projectId: r.project_id, userId: r.user_id, error });
      // Held back a while, so that a client that keeps failing does not keep the others waiting.
      const at = now();
      await releaseClaim(db, r.project_id, r.user_id, at, new Date(at.getTime() + RETRY_MS)).catch(() => {});
    }
  }
  return { claimed: rows.length, screened, alerts, failed };
}
