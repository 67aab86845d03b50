// Recording an aviso due from knowledge (docs/api.md, "Avisos"): once per project, jurisdiction, client, ground and
// cause (a list entry, an attempt, an officer's aviso), whoever finds it first: a second screening of the same
// listing, or a second worker, adds nothing. Its deadline counts from the moment the provider learned of it. Each
// aviso recorded, and each change of its state, is audited in the same transaction.
import crypto from "node:crypto";
import { type Kysely, sql } from "kysely";
import { writeAudit } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import type { AvisoListing } from "./tables.ts";

export type AvisoOrigin = "screening" | "attempt" | "officer";

export interface NewAviso {
  projectId: number;
  countryCode: string;
  userId: string;
  basis: string;
  origin: AvisoOrigin;
  /** what makes it one aviso: `<list>:<entry id>` for a listing, the officer's aviso's own key */
  causeKey: string;
  knownAt: Date;
  dueWithinMs: number;
  /** the month its file goes in (the jurisdiction's time zone) */
  period: string;
  narrative: string;
  account?: string | null;
  listing?: AvisoListing | null;
  alertIds?: readonly string[];
  txHashes?: readonly string[];
  /** who tried to operate, as given (an integrator's profile form), when the integrator may know nothing of them */
  prospect?: Record<string, unknown> | null;
  createdBy: string;
}

/** The aviso's reference: 14 upper-case hex characters of its identity, unique across projects, stable. */
export function knownReference(
  a: Pick<NewAviso, "projectId" | "countryCode" | "userId" | "basis" | "causeKey">,
) {
  return crypto
    .createHash("sha256")
    .update(`known|${a.projectId}|${a.countryCode}|${a.userId}|${a.basis}|${a.causeKey}`)
    .digest("hex")
    .slice(0, 14)
    .toUpperCase();
}

/** Records the aviso unless it is recorded already; its id, and whether this call recorded it. */
export async function recordAviso(
  db: Kysely<DB>,
  a: NewAviso,
): Promise<{ id: string; created: boolean; deadline: Date; reference: string }> {
  const reference = knownReference(a);
  const deadline = new Date(a.knownAt.getTime() + a.dueWithinMs);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO avisos (project_id, country_code, user_id, basis, origin, cause_key, reference, period, known_at,
      deadline, narrative, account, listing, alert_ids, tx_hashes, prospect, created_by, created_at)
    VALUES (${a.projectId}, ${a.countryCode}, ${a.userId}, ${a.basis}, ${a.origin}, ${a.causeKey}, ${reference},
      ${a.period}, ${a.knownAt}, ${deadline}, ${a.narrative}, ${a.account ?? null},
      ${JSON.stringify(a.listing ?? null)}::jsonb, ${JSON.stringify(a.alertIds ?? [])}::jsonb,
      ${JSON.stringify(a.txHashes ?? [])}::jsonb, ${a.prospect ? JSON.stringify(a.prospect) : null}::jsonb,
      ${a.createdBy}, ${a.knownAt})
    ON CONFLICT (project_id, country_code, user_id, basis, cause_key) DO NOTHING
    RETURNING id::text AS id`.execute(db);
  if (rows[0]) {
    // The officer's own aviso is audited by its route, with the officer as its actor (src/reports/aviso-routes.ts).
    if (a.origin !== "officer")
      await writeAudit(db, {
        projectId: a.projectId,
        actor: a.createdBy,
        action: "aviso.recorded",
        target: `avisos/${rows[0].id}`,
        details: {
          reference,
          origin: a.origin,
          countryCode: a.countryCode,
          userId: a.userId,
          basis: a.basis,
          causeKey: a.causeKey,
          knownAt: a.knownAt.toISOString(),
          deadline: deadline.toISOString(),
        },
      });
    return { id: rows[0].id, created: true, deadline, reference };
  }
  const known = await db
    .selectFrom("avisos")
    .select(["id", "deadline", "reference"])
    .where("project_id", "=", a.projectId)
    .where("country_code", "=", a.countryCode)
    .where("user_id", "=", a.userId)
    .where("basis", "=", a.basis)
    .where("cause_key", "=", a.causeKey)
    .executeTakeFirstOrThrow();
  return {
    id: String(known.id),
    created: false,
    deadline: new Date(known.deadline),
    reference: known.reference,
  };
}
