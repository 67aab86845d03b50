// The one way an alert comes to be: inserted unless an alert of the same subject (project, chain, address) and cause
// is open; the partial unique index of migrations/0028_alerts.sql decides, across workers. The raisers (law hits,
// verdicts, re-screening) then extend the open one with their own evidence; each change goes to its history.
import { type Kysely, sql } from "kysely";
import { lockAuditChain } from "../projects/index.ts";
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import type { AlertDeadline } from "./deadline.ts";
import { mergeLabels } from "./labels-used.ts";
import type { AlertEvidence } from "./schemas.ts";

export interface NewAlert {
  projectId: number;
  chainId: number;
  address: string;
  userId: string | null;
  cause: string;
  causeKey: string;
  level: string;
  reason: string;
  evidence: AlertEvidence;
  deadline?: AlertDeadline | null;
  addressId: number | string | null;
  notificationId?: number | null;
  now: Date;
}

/** The new alert's id, or the open one of its subject and cause, locked until the caller's transaction ends. */
export async function insertOrOpen(
  trx: Kysely<DB>,
  a: NewAlert,
): Promise<
  { created: true; id: string } | { created: false; id: string; evidence: AlertEvidence; level: string }
> {
  // The project's audit chain first: every change of an alert is audited in this transaction (raise.ts), and two
  // raisers at once must wait at the chain, not each hold an alert row the other needs.
  await lockAuditChain(trx, a.projectId);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO alerts (project_id, chain_id, address, user_id, cause, cause_key, level, reason, evidence,
      deadline, deadline_filing, deadline_source, address_id, notification_id, created_at, updated_at)
    VALUES (${a.projectId}, ${a.chainId}, ${a.address}, ${a.userId}, ${a.cause}, ${a.causeKey}, ${a.level},
      ${a.reason}, ${JSON.stringify(a.evidence)}::jsonb, ${a.deadline?.at ?? null}, ${a.deadline?.filing ?? null},
      ${a.deadline?.source ?? null}, ${a.addressId === null ? null : String(a.addressId)}, ${a.notificationId ?? null}, ${a.now}, ${a.now})
    ON CONFLICT (project_id, chain_id, address, cause, cause_key) WHERE status <> 'closed' DO NOTHING
    RETURNING id::text AS id`.execute(trx);
  if (rows[0]) return { created: true, id: rows[0].id };
  const open = await trx
    .selectFrom("alerts")
    .select(["id", "evidence", "level"])
    .where("project_id", "=", a.projectId)
    .where("chain_id", "=", a.chainId)
    .where("address", "=", a.address)
    .where("cause", "=", a.cause)
    .where("cause_key", "=", a.causeKey)
    .where("status", "<>", "closed")
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { created: false, id: String(open.id), evidence: open.evidence, level: open.level };
}

/**
 * Adds a verdict (with the wallets and labels it names) to an open alert's evidence, once per analysis. The alert
 * takes the verdict's level and reason when the level is higher, or always (`takeLevel: "always"`). Whether the
 * verdict was added, and the level it had before when it changed.
 */
export async function joinVerdict(
  trx: Kysely<DB>,
  open: { id: string; evidence: AlertEvidence; level: string },
  verdict: {
    analysis: NonNullable<AlertEvidence["analyses"]>[number];
    wallets: readonly string[];
    labels: NonNullable<AlertEvidence["labels"]>;
    level: string;
    reason: string;
    takeLevel: "if_higher" | "always";
  },
  now: Date,
): Promise<{ added: boolean; levelFrom?: string }> {
  const e = open.evidence;
  if (e.analyses?.some((known) => known.analysisId === verdict.analysis.analysisId)) return { added: false };
  const take =
    verdict.takeLevel === "always" || compareLevels(verdict.level as RiskLevel, open.level as RiskLevel) > 0;
  await trx
    .updateTable("alerts")
    .set({
      evidence: JSON.stringify({
        ...e,
        wallets: [...new Set([...e.wallets, ...verdict.wallets])],
        analyses: [...(e.analyses ?? []), verdict.analysis],
        labels: mergeLabels(e.labels, verdict.labels),
      }),
      ...(take ? { level: verdict.level, reason: verdict.reason } : {}),
      updated_at: now,
    })
    .where("id", "=", open.id)
    .execute();
  return take && verdict.level !== open.level ? { added: true, levelFrom: open.level } : { added: true };
}
