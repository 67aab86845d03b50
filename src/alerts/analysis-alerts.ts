// Alerts from analyses (docs/api.md, "Alerts"): an analysis of a monitored address (a scan, a risk job, an
// investigation, the scan on registration) whose level reaches the project's `alert_level` raises an alert of cause
// `analysis` for that address; while it is not closed, a later analysis at that level joins its evidence (and a
// higher level raises the alert's). The evidence keeps what the verdict rests on: score, level, reason, model
// version, the findings with their transactions and the exposure paths.
import type { Kysely } from "kysely";
import type { CompletedVerdict } from "../analysis/index.ts";
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import { labelsUsed } from "./labels-used.ts";
import { insertOrOpen, joinVerdict } from "./open-alert.ts";
import { appendHistory } from "./raise.ts";
import type { AlertEvidence, AnalysisEvidence } from "./schemas.ts";
import { type AlertLevel, alertLevelOf } from "./settings.ts";

export interface AnalysedClient {
  projectId: number;
  chainId: number;
  address: string;
  /** the monitored address's record, and the integrator's user */
  addressId: number;
  userId: string;
  analysis: AnalysisEvidence;
  now: Date;
}

const CAUSE = "analysis";
const KEY = "risk";

/** Raises or extends the client's analysis alert when the analysis reaches the project's level; its id, if any. */
export async function raiseAnalysisAlert(
  db: Kysely<DB>,
  input: AnalysedClient,
  serviceDefault: AlertLevel,
): Promise<string | undefined> {
  const level = input.analysis.riskLevel as RiskLevel;
  if (compareLevels(level, await alertLevelOf(db, input.projectId, serviceDefault)) < 0) return undefined;
  const a = input.analysis;
  const reason = `The ${a.kind.replace("_", " ")} of ${input.address} (user ${input.userId}) scored ${a.riskScore}, ${level}: ${a.riskReason}`;
  const labels = await labelsUsed(db, input.chainId, [
    ...a.exposure.flatMap((e) => e.counterparties),
    ...a.findings.flatMap((f) => f.wallets),
  ]);
  return db.transaction().execute(async (trx) => {
    const evidence: AlertEvidence = {
      transfers: [],
      laws: [],
      wallets: [...new Set([input.address, ...a.findings.flatMap((f) => f.wallets)])],
      analyses: [a],
      labels,
    };
    const alert = await insertOrOpen(trx, {
      projectId: input.projectId,
      chainId: input.chainId,
      address: input.address,
      userId: input.userId,
      cause: CAUSE,
      causeKey: KEY,
      level,
      reason,
      evidence,
      addressId: input.addressId,
      now: input.now,
    });
    if (alert.created) {
      await appendHistory(trx, alert.id, "system", { event: "raised", analysisId: a.analysisId }, input.now);
      return alert.id;
    }
    const joined = await joinVerdict(
      trx,
      alert,
      { analysis: a, wallets: evidence.wallets, labels, level, reason, takeLevel: "if_higher" },
      input.now,
    );
    if (joined.added)
      await appendHistory(
        trx,
        alert.id,
        "system",
        {
          event: "evidence_added",
          analysisId: a.analysisId,
          ...(joined.levelFrom ? { level: { from: joined.levelFrom, to: level } } : {}),
        },
        input.now,
      );
    return alert.id;
  });
}

/** Who a monitored address belongs to, as the monitoring room knows it (handed in: monitoring depends on alerts). */
export type FindClient = (
  projectId: number,
  chainId: number,
  address: string,
) => Promise<{ id: number; foreignUserId: string } | undefined>;

/** A stored verdict, for the alerts: raises one when it concerns a monitored address and reaches the level. */
export async function alertOnVerdict(
  db: Kysely<DB>,
  verdict: CompletedVerdict,
  findClient: FindClient,
  serviceDefault: AlertLevel,
  now: Date,
): Promise<string | undefined> {
  const client = await findClient(verdict.projectId, verdict.chainId, verdict.address);
  if (!client) return undefined;
  return raiseAnalysisAlert(
    db,
    {
      projectId: verdict.projectId,
      chainId: verdict.chainId,
      address: verdict.address,
      addressId: client.id,
      userId: client.foreignUserId,
      analysis: analysisEvidenceOf(verdict, now),
      now,
    },
    serviceDefault,
  );
}

/** What an alert keeps of a verdict: its figures, its findings' transactions and its exposure paths. */
export function analysisEvidenceOf(verdict: CompletedVerdict, at: Date): AnalysisEvidence {
  const r = verdict.result;
  return {
    analysisId: r.analysisId,
    kind: verdict.kind,
    at: at.toISOString(),
    riskScore: r.riskScore,
    riskLevel: r.riskLevel,
    riskReason: r.riskReason,
    modelVersion: r.modelVersion ?? null,
    findings: r.findings.map((f) => ({
      pattern: f.pattern,
      message: f.message,
      wallets: f.wallets,
      txs: f.txs,
      usd: f.usdAmount,
    })),
    exposure: (r.exposure?.entries ?? []).map((e) => ({
      category: e.category,
      direction: e.direction,
      hops: e.hops,
      usd: e.usd,
      share: e.share,
      counterparties: e.counterparties.map((c) => c.address),
      via: e.via,
      txs: e.txs,
      ...(e.unsolicited ? { unsolicited: true } : {}),
      // Bitcoin: the exposure is another address's of the subject's cluster (docs/decisions/0053).
      ...(e.sameOwner
        ? { sameOwnerAs: { address: e.sameOwner.address, clusterSize: e.sameOwner.clusterSize } }
        : {}),
    })),
    coverage: r.coverage,
  };
}
