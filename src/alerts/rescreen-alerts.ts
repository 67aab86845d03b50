// Alerts from re-screening (docs/api.md, "Alerts"): when a newly learnt label reaches a monitored address's graph and
// its re-scored level is higher than its last verdict's, an alert of cause `rescreen` names the new label, its
// source and the rise. One per subject and label while open; the new verdict is its evidence.
import type { Kysely } from "kysely";
import type { DB } from "../schema.ts";
import { labelsUsed, mergeLabels } from "./labels-used.ts";
import { insertOrOpen, joinVerdict } from "./open-alert.ts";
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
    const alert = await insertOrOpen(trx, {
      projectId: rise.projectId,
      chainId: rise.chainId,
      address: rise.address,
      userId: rise.userId,
      cause: "rescreen",
      causeKey: key,
      level: a.riskLevel,
      reason,
      evidence,
      addressId: rise.addressId,
      now: rise.now,
    });
    const change = {
      analysisId: a.analysisId,
      label: { address: l.address, label: l.label, source: l.source },
      level: { from: rise.before.level, to: a.riskLevel },
    };
    if (alert.created) {
      await appendHistory(trx, alert.id, "system", { event: "raised", ...change }, rise.now);
      return alert.id;
    }
    const joined = await joinVerdict(
      trx,
      alert,
      { analysis: a, wallets: evidence.wallets, labels, level: a.riskLevel, reason, takeLevel: "always" },
      rise.now,
    );
    if (joined.added)
      await appendHistory(trx, alert.id, "system", { event: "evidence_added", ...change }, rise.now);
    return alert.id;
  });
}
