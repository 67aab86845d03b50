// Raising alerts, in the caller's transaction (the transfer checker's commit), so that an alert exists exactly
// when its transfer is marked checked. A monitored transfer that infringes an `illegal` rule, or a `warn` rule
// the project lists (`alert_warn_rules`), raises one alert per rule for its address; while that alert is not
// closed, the same rule met again by the same address adds the transfer to its evidence instead of opening
// another (the partial unique index of migrations/0028_alerts.sql decides, across workers).
import type { Kysely } from "kysely";
import type { InflictedLaw } from "../regulation/index.ts";
import type { DB } from "../schema.ts";
import { deadlineOf } from "./deadline.ts";
import { auditHistoryRow } from "./history-audit.ts";
import { labelsUsed, mergeLabels } from "./labels-used.ts";
import { insertOrOpen } from "./open-alert.ts";
import type { AlertEvidence } from "./schemas.ts";
import { warnRulesOf } from "./settings.ts";

/** A law hit as the transfer checker finds it (its `verified` mark is the notification's business). */
export type LawHit = Omit<InflictedLaw, "verified">;

export interface CheckedTransferAlerts {
  projectId: number;
  chainId: number;
  address: string;
  addressId: number | string | null;
  /**
   * one of the exchange's own operations (no monitored address: chain 0, no address): the alert is the client's,
   * keyed `<rule>:<client>` so that each client has its own
   */
  ofClient?: boolean;
  userId: string | null;
  notificationId: number | null;
  transfer: AlertEvidence["transfers"][number];
  laws: readonly LawHit[];
  now: Date;
}

const SYSTEM = "system";

/** Raises or extends the alerts the transfer's law hits call for; the ids of the alerts touched. */
export async function raiseLawAlerts(trx: Kysely<DB>, input: CheckedTransferAlerts): Promise<string[]> {
  const listed = input.laws.some((l) => l.risk === "warn") ? await warnRulesOf(trx, input.projectId) : [];
  // A rule whose text asks for an alert (`alerts`) raises one whatever the project lists.
  const alerting = input.laws.filter((l) => l.risk === "illegal" || l.alerts || listed.includes(l.id));
  const touched: string[] = [];
  if (alerting.length === 0) return touched;
  const counterparty = input.transfer.counterparty;
  const labels = counterparty && !input.ofClient ? await labelsUsed(trx, input.chainId, [counterparty]) : [];
  for (const law of alerting) {
    const evidence: AlertEvidence = {
      transfers: [input.transfer],
      laws: [
        {
          id: law.id,
          name: law.name,
          source: law.source,
          risk: law.risk,
          country: law.country,
          countryCode: law.countryCode,
        },
      ],
      wallets: input.address ? [input.address] : [],
      labels,
    };
    const deadline = deadlineOf(law, input.now, new Date(input.transfer.at));
    const user = input.userId ? ` (user ${input.userId})` : "";
    // An exchange operation's hash is `op:` and the integrator's id: it is named as the operation it is.
    const reason = input.ofClient
      ? `${law.name}: ${law.description} Exchange operation ${input.transfer.txHash.replace(/^op:/, "")}${user}.`
      : `${law.name}: ${law.description} Transaction ${input.transfer.txHash} of address ${input.address}${user}.`;
    const alert = await insertOrOpen(trx, {
      projectId: input.projectId,
      chainId: input.chainId,
      address: input.address,
      userId: input.userId,
      cause: "law",
      causeKey: input.ofClient && input.userId ? `${law.id}:${input.userId}` : law.id,
      level: law.risk,
      reason,
      evidence,
      deadline,
      addressId: input.addressId,
      notificationId: input.notificationId,
      now: input.now,
    });
    if (alert.created) {
      await appendHistory(
        trx,
        alert.id,
        SYSTEM,
        { event: "raised", txHash: input.transfer.txHash },
        input.now,
      );
      touched.push(alert.id);
      continue;
    }
    // Open already: the transfer joins its evidence (once, however often the same transfer is seen).
    const known = alert.evidence.transfers.some(
      (t) => t.txHash === input.transfer.txHash && t.logIndex === input.transfer.logIndex,
    );
    if (known) continue;
    const extended: AlertEvidence = {
      ...alert.evidence,
      transfers: [...alert.evidence.transfers, input.transfer],
      labels: mergeLabels(alert.evidence.labels, labels),
    };
    await trx
      .updateTable("alerts")
      .set({ evidence: JSON.stringify(extended), updated_at: input.now })
      .where("id", "=", alert.id)
      .execute();
    await appendHistory(
      trx,
      alert.id,
      SYSTEM,
      { event: "evidence_added", txHash: input.transfer.txHash },
      input.now,
    );
    touched.push(alert.id);
  }
  return touched;
}

/**
 * Appends to an alert's history and writes the same entry to the project's audit chain (history-audit.ts), in the
 * caller's transaction, or in one of its own.
 */
export async function appendHistory(
  db: Kysely<DB>,
  alertId: string,
  actor: string,
  change: Record<string, unknown>,
  at: Date,
): Promise<void> {
  const append = async (trx: Kysely<DB>) => {
    const row = await trx
      .insertInto("alert_history")
      .values({ alert_id: alertId, actor, change: JSON.stringify(change), at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const alert = await trx
      .selectFrom("alerts")
      .select("project_id")
      .where("id", "=", alertId)
      .executeTakeFirstOrThrow();
    await auditHistoryRow(trx, {
      projectId: alert.project_id,
      alertId,
      historyId: String(row.id),
      actor,
      at,
      change,
    });
  };
  await (db.isTransaction ? append(db) : db.transaction().execute(append));
}
