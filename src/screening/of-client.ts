// One client's screening as the service last made it (the case per client, src/cases): the persons of its profile
// as read from the integrator then (the client, its representative, its beneficial owners, with their dates,
// nationality and identifiers), the verdict, the candidates on the lists, and when; undefined for a client never
// screened.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";

export interface ClientScreeningRecord {
  /** `clear`, `review`, `pep`, `match`; `pending` while queued and never screened yet */
  verdict: string;
  subjects: unknown[];
  candidates: unknown[];
  screenedAt: Date;
  profileDigest: string;
  chainId: number;
  address: string;
}

export async function clientScreeningOf(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
): Promise<ClientScreeningRecord | undefined> {
  const row = await db
    .selectFrom("client_screenings")
    .select(["verdict", "subjects", "candidates", "screened_at", "profile_digest", "chain_id", "address"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    verdict: row.verdict,
    subjects: row.subjects,
    candidates: row.candidates,
    screenedAt: row.screened_at,
    profileDigest: row.profile_digest,
    chainId: row.chain_id,
    address: row.address,
  };
}
