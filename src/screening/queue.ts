// The queue of clients to screen (migrations/0033_client_screening_queue.sql): every monitored client has a row of
// client_screenings from its registration on, `pending` until it is first screened, so that a client who never
// operates is screened all the same: as soon as a list is imported, again whenever one changes, and when an officer
// asks (POST /projects/{id}/screening/run). Workers claim a batch at a time; a claim lapses after CLAIM_MS.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { ClientRef } from "./clients.ts";

/** The verdict of a client queued and not screened yet. */
export const PENDING = "pending";

/** How long a worker's claim on a batch holds it from the others. */
export const CLAIM_MS = 60_000;

/** Queues a newly registered client (nothing when it has a row already: it is screened, or queued). */
export async function queueClientScreening(db: Kysely<DB>, client: ClientRef, now: Date): Promise<void> {
  await db
    .insertInto("client_screenings")
    .values({
      project_id: client.projectId,
      user_id: client.userId,
      subjects: "[]",
      profile_digest: "",
      lists_key: "",
      verdict: PENDING,
      candidates: "[]",
      chain_id: client.chainId,
      address: client.address,
      address_id: client.addressId === null ? null : String(client.addressId),
      screened_at: now,
    })
    .onConflict((oc) => oc.columns(["project_id", "user_id"]).doNothing())
    .execute();
}

/** Makes every client of a project due for screening now; how many. */
export async function queueProjectScreening(
  db: Kysely<DB>,
  projectId: number,
  /** one client only (an officer screening a client now), else every client of the project */
  userId?: string,
): Promise<number> {
  let update = db
    .updateTable("client_screenings")
    .set({ lists_key: "", claimed_until: null })
    .where("project_id", "=", projectId);
  if (userId !== undefined) update = update.where("user_id", "=", userId);
  const done = await update.executeTakeFirst();
  return Number(done.numUpdatedRows);
}

export interface ClaimedClient {
  project_id: number;
  user_id: string;
  subjects: unknown;
  profile_digest: string;
  verdict: string;
  /** the candidates of its last screening */
  candidates: unknown;
  chain_id: number;
  address: string;
  address_id: string | null;
}

/**
 * Claims up to `batch` clients screened against other lists than `listsKey` (or never), oldest screening first,
 * that no other worker holds: rows another transaction has locked are skipped, not waited for.
 */
export async function claimDueClients(
  db: Kysely<DB>,
  listsKey: string,
  batch: number,
  now: Date,
): Promise<ClaimedClient[]> {
  const until = new Date(now.getTime() + CLAIM_MS);
  const { rows } = await sql<ClaimedClient>`
    UPDATE client_screenings c SET claimed_until = ${until}
    FROM (SELECT project_id, user_id FROM client_screenings
      WHERE lists_key <> ${listsKey} AND (claimed_until IS NULL OR claimed_until < ${now})
      ORDER BY screened_at LIMIT ${batch} FOR UPDATE SKIP LOCKED) due
    WHERE c.project_id = due.project_id AND c.user_id = due.user_id
    RETURNING c.project_id, c.user_id, c.subjects, c.profile_digest, c.verdict, c.candidates, c.chain_id, c.address,
      c.address_id::text AS address_id`.execute(db);
  return rows;
}

/**
 * Gives a claimed client back, to the end of the queue, held from the workers until `retryAt` (its screening
 * failed: tried again later).
 */
export async function releaseClaim(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
  now: Date,
  retryAt: Date,
): Promise<void> {
  await db
    .updateTable("client_screenings")
    .set({ screened_at: now, claimed_until: retryAt })
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .execute();
}

/**
 * Records claimed clients screened against the lists `listsKey` with the same outcome as before, in one statement: no
 * candidate changed, so nothing but the lists they were screened against and when. A client whose persons were
 * replaced since the claim (another digest) is left to its next screening.
 */
export async function markScreenedUnchanged(
  db: Kysely<DB>,
  listsKey: string,
  clients: readonly { project_id: number; user_id: string; profile_digest: string }[],
  now: Date,
): Promise<void> {
  if (clients.length === 0) return;
  const rows = sql.join(
    clients.map((c) => sql`(${c.project_id}::int, ${c.user_id}::text, ${c.profile_digest}::text)`),
  );
  await sql`
    UPDATE client_screenings c SET lists_key = ${listsKey}, screened_at = ${now}, claimed_until = NULL
    FROM (VALUES ${rows}) AS v(project_id, user_id, profile_digest)
    WHERE c.project_id = v.project_id AND c.user_id = v.user_id AND c.profile_digest = v.profile_digest`.execute(
    db,
  );
}
