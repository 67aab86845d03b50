// Raising alerts, in the caller's transaction (the transfer checker's commit), so that an alert exists exactly
// when its transfer is marked checked. A monitored transfer that infringes an `illegal` rule, or a `warn` rule
// the project lists (`alert_warn_rules`), raises one alert per rule for its address; while that alert is not
// closed, the same rule met again by the same address adds the transfer to its evidence instead of opening
// another (the partial unique index of migrations/0028_alerts.sql decides, across workers).
import type { Kysely } from "kysely";
import { type InflictedLaw, operationIdOfHash } from "../regulation/index.ts";
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
  const raising = alerting(input.laws, listed);
  if (raising.length === 0) return [];
  const counterparty = input.transfer.counterparty;
  const labels = counterparty && !input.ofClient ? await labelsUsed(trx, input.chainId, [counterparty]) : [];
  const touched: string[] = [];
  for (const law of raising) touched.push(...(await raiseLaw(trx, input, law, [input.transfer], labels)));
  return touched;
}

/**
 * The same for many operations of one client at once (the exchange's operations judged together): each rule met is
 * one raise or one extension carrying every operation that met it, rather than one per operation. The alerts
 * touched.
 */
export async function raiseClientLawAlerts(
  trx: Kysely<DB>,
  inputs: readonly CheckedTransferAlerts[],
): Promise<string[]> {
  const first = inputs[0];
  if (!first) return [];
  const listed = inputs.some((i) => i.laws.some((l) => l.risk === "warn"))
    ? await warnRulesOf(trx, first.projectId)
    : [];
  // By rule, in the order met: the first operation that met it anchors the alert (its deadline, its notification).
  const byLaw = new Map<string, { input: CheckedTransferAlerts; law: LawHit; transfers: Transfer[] }>();
  for (const input of inputs)
    for (const law of alerting(input.laws, listed)) {
      const held = byLaw.get(law.id);
      if (held) held.transfers.push(input.transfer);
      else byLaw.set(law.id, { input, law, transfers: [input.transfer] });
    }
  const touched: string[] = [];
  for (const { input, law, transfers } of byLaw.values())
    touched.push(...(await raiseLaw(trx, input, law, transfers, [])));
  return touched;
}

type Transfer = AlertEvidence["transfers"][number];

/** The hits that raise an alert: an `illegal` rule, a rule whose text asks for one, a `warn` rule the project lists. */
const alerting = (laws: readonly LawHit[], listed: readonly string[]) =>
  laws.filter((l) => l.risk === "illegal" || l.alerts || listed.includes(l.id));

/** Raises the alert of one rule with `transfers` (the first its anchor), or extends the open one with them. */
async function raiseLaw(
  trx: Kysely<DB>,
  input: CheckedTransferAlerts,
  law: LawHit,
  transfers: readonly Transfer[],
  labels: NonNullable<AlertEvidence["labels"]>,
): Promise<string[]> {
  const anchor = transfers[0] as Transfer;
  // Several at once are named all in the history entry (`txHashes`), the first as `txHash` as one alone is.
  const hashes = (list: readonly Transfer[]) =>
    list.length > 1 ? { txHashes: list.map((t) => t.txHash) } : {};
  const evidence: AlertEvidence = {
    transfers: [...transfers],
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
  const deadline = deadlineOf(law, input.now, new Date(anchor.at));
  const user = input.userId ? ` (user ${input.userId})` : "";
  // An exchange operation's hash is `op:` and the integrator's id: it is named as the operation it is.
  const reason = input.ofClient
    ? `${law.name}: ${law.description} Exchange operation ${operationIdOfHash(anchor.txHash) ?? anchor.txHash}${user}.`
    : `${law.name}: ${law.description} Transaction ${anchor.txHash} of address ${input.address}${user}.`;
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
      { event: "raised", txHash: anchor.txHash, ...hashes(transfers) },
      input.now,
    );
    return [alert.id];
  }
  // Open already: the transfers join its evidence (once each, however often the same transfer is seen).
  const added = transfers.filter(
    (t) => !alert.evidence.transfers.some((k) => k.txHash === t.txHash && k.logIndex === t.logIndex),
  );
  const [firstAdded] = added;
  if (!firstAdded) return [];
  const extended: AlertEvidence = {
    ...alert.evidence,
    transfers: [...alert.evidence.transfers, ...added],
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
    { event: "evidence_added", txHash: firstAdded.txHash, ...hashes(added) },
    input.now,
  );
  return [alert.id];
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
