// Raising alerts, in the caller's transaction (the transfer checker's commit), so that an alert exists exactly
// when its transfer is marked checked. A monitored transfer that infringes an `illegal` rule, or a `warn` rule
// the project lists (`alert_warn_rules`), raises one alert per rule for its address; while that alert is not
// closed, the same rule met again by the same address adds the transfer to its evidence instead of opening
// another (the partial unique index of migrations/0028_alerts.sql decides, across workers).
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { deadlineOf } from "./deadline.ts";
import { labelsUsed, mergeLabels } from "./labels-used.ts";
import type { AlertEvidence } from "./schemas.ts";
import { warnRulesOf } from "./settings.ts";

export interface LawHit {
  id: string;
  name: string;
  description: string;
  source: string;
  risk: "warn" | "illegal";
  country: string;
  countryCode: string;
}

export interface CheckedTransferAlerts {
  projectId: number;
  chainId: number;
  address: string;
  addressId: number | string;
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
  const alerting = input.laws.filter((l) => l.risk === "illegal" || listed.includes(l.id));
  const touched: string[] = [];
  if (alerting.length === 0) return touched;
  const counterparty = input.transfer.counterparty;
  const labels = counterparty ? await labelsUsed(trx, input.chainId, [counterparty]) : [];
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
      wallets: [input.address],
      labels,
    };
    const deadline = deadlineOf(law, input.now, new Date(input.transfer.at));
    const reason = `${law.name}: ${law.description} Transaction ${input.transfer.txHash} of address ${input.address}${input.userId ? ` (user ${input.userId})` : ""}.`;
    const { rows } = await sql<{ id: string }>`
      INSERT INTO alerts (project_id, chain_id, address, user_id, cause, cause_key, level, reason, evidence,
        deadline, deadline_filing, deadline_source, address_id, notification_id, created_at, updated_at)
      VALUES (${input.projectId}, ${input.chainId}, ${input.address}, ${input.userId}, 'law', ${law.id}, ${law.risk},
        ${reason}, ${JSON.stringify(evidence)}::jsonb, ${deadline?.at ?? null}, ${deadline?.filing ?? null},
        ${deadline?.source ?? null}, ${String(input.addressId)}, ${input.notificationId}, ${input.now}, ${input.now})
      ON CONFLICT (project_id, chain_id, address, cause, cause_key) WHERE status <> 'closed' DO NOTHING
      RETURNING id::text AS id`.execute(trx);
    if (rows[0]) {
      await appendHistory(
        trx,
        rows[0].id,
        SYSTEM,
        { event: "raised", txHash: input.transfer.txHash },
        input.now,
      );
      touched.push(rows[0].id);
      continue;
    }
    // Open already: the transfer joins its evidence (once, however often the same transfer is seen).
    const open = await trx
      .selectFrom("alerts")
      .select(["id", "evidence"])
      .where("project_id", "=", input.projectId)
      .where("chain_id", "=", input.chainId)
      .where("address", "=", input.address)
      .where("cause", "=", "law")
      .where("cause_key", "=", law.id)
      .where("status", "<>", "closed")
      .forUpdate()
      .executeTakeFirstOrThrow();
    const known = open.evidence.transfers.some(
      (t) => t.txHash === input.transfer.txHash && t.logIndex === input.transfer.logIndex,
    );
    if (known) continue;
    const extended: AlertEvidence = {
      ...open.evidence,
      transfers: [...open.evidence.transfers, input.transfer],
      labels: mergeLabels(open.evidence.labels, labels),
    };
    await trx
      .updateTable("alerts")
      .set({ evidence: JSON.stringify(extended), updated_at: input.now })
      .where("id", "=", open.id)
      .execute();
    await appendHistory(
      trx,
      open.id,
      SYSTEM,
      { event: "evidence_added", txHash: input.transfer.txHash },
      input.now,
    );
    touched.push(open.id);
  }
  return touched;
}

export async function appendHistory(
  trx: Kysely<DB>,
  alertId: string,
  actor: string,
  change: Record<string, unknown>,
  at: Date,
): Promise<void> {
  await trx
    .insertInto("alert_history")
    .values({ alert_id: alertId, actor, change: JSON.stringify(change), at })
    .execute();
}
