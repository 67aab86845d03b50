// Alerts from re-screening (docs/api.md, "Alerts"): when a newly learnt label reaches a monitored address's graph and
// its re-scored level is higher than its last verdict's, an alert of cause `rescreen` names the new label, its
// source and the rise. One per subject and label while open; the new verdict is its evidence.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { labelsUsed, mergeLabels } from "./labels-used.ts";
import { appendHistory } from "./raise.ts";
import type { AlertEvidence, AnalysisEvidence } from "./schemas.ts";

export interface RescreenRise {
  projectId: number;
  chainId: number;
  address: string;
  addressId: number;
  userId: string;
  /** the label that set the re-screening off, and at how many hops of the address it is */
  label: { address: string; label: string; category: string; source: string; changedAt: Date; hops: number };
  /** the level of the verdict before (null: the address had none) */
  before: { level: string | null; score: number | null; analysisId: string | null };
  analysis: AnalysisEvidence;
  now: Date;
}

export async function raiseRescreenAlert(db: Kysely<DB>, rise: RescreenRise): Promise<string> {
  const a = rise.analysis;
  const l = rise.label;
  const where = l.hops === 0 ? "the address itself" : `${l.hops} hop${l.hops === 1 ? "" : "s"} away`;
  const was = rise.before.level ? `${rise.before.level} (${rise.before.score})` : "never analysed";
  const reason = `Re-screened after ${l.address} (${where}) was labelled "${l.label}" (${l.category}, source ${l.source}) on ${l.changedAt.toISOString()}: ${was} → ${a.riskLevel} (${a.riskScore}). ${a.riskReason}`;
  const labels = mergeLabels(
    [{ address: l.address, label: l.label, category: l.category, source: l.source }],
    await labelsUsed(
      db,
      rise.chainId,
      a.exposure.flatMap((e) => e.counterparties),
    ),
  );
  const key = `${l.address}:${l.source}`;
  return db.transaction().execute(async (trx) => {
    const evidence: AlertEvidence = {
      transfers: [],
      laws: [],
      wallets: [...new Set([rise.address, l.address, ...a.findings.flatMap((f) => f.wallets)])],
      analyses: [a],
      labels,
    };
    const { rows } = await sql<{ id: string }>`
      INSERT INTO alerts (project_id, chain_id, address, user_id, cause, cause_key, level, reason, evidence,
        address_id, created_at, updated_at)
      VALUES (${rise.projectId}, ${rise.chainId}, ${rise.address}, ${rise.userId}, 'rescreen', ${key},
        ${a.riskLevel}, ${reason}, ${JSON.stringify(evidence)}::jsonb, ${String(rise.addressId)}, ${rise.now},
        ${rise.now})
      ON CONFLICT (project_id, chain_id, address, cause, cause_key) WHERE status <> 'closed' DO NOTHING
      RETURNING id::text AS id`.execute(trx);
    const change = {
      analysisId: a.analysisId,
      label: { address: l.address, label: l.label, source: l.source },
      level: { from: rise.before.level, to: a.riskLevel },
    };
    if (rows[0]) {
      await appendHistory(trx, rows[0].id, "system", { event: "raised", ...change }, rise.now);
      return rows[0].id;
    }
    const open = await trx
      .selectFrom("alerts")
      .select(["id", "evidence"])
      .where("project_id", "=", rise.projectId)
      .where("chain_id", "=", rise.chainId)
      .where("address", "=", rise.address)
      .where("cause", "=", "rescreen")
      .where("cause_key", "=", key)
      .where("status", "<>", "closed")
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (open.evidence.analyses?.some((k) => k.analysisId === a.analysisId)) return open.id;
    await trx
      .updateTable("alerts")
      .set({
        evidence: JSON.stringify({
          ...open.evidence,
          analyses: [...(open.evidence.analyses ?? []), a],
          labels: mergeLabels(open.evidence.labels, labels),
        }),
        level: a.riskLevel,
        reason,
        updated_at: rise.now,
      })
      .where("id", "=", open.id)
      .execute();
    await appendHistory(trx, open.id, "system", { event: "evidence_added", ...change }, rise.now);
    return open.id;
  });
}
