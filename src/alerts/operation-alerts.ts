// Alerts of the operation rules over the exchange's operations (src/exchange-operations; docs/api.md "Alerts"):
// cause `fan_in`, `pass_through`, `fiat_structuring`, `third_party_funding` or `withdrawal_to_risk`, keyed by the
// client. The subject is the client (chain 0, no address) or, for a withdrawal to risk, its destination. While the
// alert is open, the same rule met again adds the new operations and that hit's figures to its evidence; a level
// that rose (a later destination worse than the first) is taken.
import type { Kysely } from "kysely";
import { compareLevels, type RiskLevel } from "../risk/index.ts";
import type { DB } from "../schema.ts";
import { insertOrOpen } from "./open-alert.ts";
import { appendHistory } from "./raise.ts";
import type { AlertEvidence, OperationEvidenceItem } from "./schemas.ts";

export const OPERATION_CAUSES = [
  "fan_in",
  "pass_through",
  "fiat_structuring",
  "third_party_funding",
  "withdrawal_to_risk",
] as const;

export interface OperationRuleHit {
  projectId: number;
  userId: string;
  rule: (typeof OPERATION_CAUSES)[number];
  chainId: number;
  address: string;
  level: RiskLevel;
  reason: string;
  operations: OperationEvidenceItem[];
  parameters: Record<string, number | string | boolean>;
  facts: Record<string, number | string>;
  now: Date;
}

/** Raises or extends the alert of one hit; its id and whether it was new (nothing changes for a hit already held). */
export async function raiseOperationAlert(
  trx: Kysely<DB>,
  h: OperationRuleHit,
): Promise<{ id: string; created: boolean; changed: boolean }> {
  const evidence: AlertEvidence = {
    transfers: [],
    laws: [],
    wallets: h.address ? [h.address] : [],
    operations: h.operations,
    operationRule: { rule: h.rule, parameters: h.parameters, hits: [h.facts] },
  };
  const alert = await insertOrOpen(trx, {
    projectId: h.projectId,
    chainId: h.chainId,
    address: h.address,
    userId: h.userId,
    cause: h.rule,
    causeKey: h.userId,
    level: h.level,
    reason: h.reason,
    evidence,
    addressId: null,
    now: h.now,
  });
  const ids = h.operations.map((o) => o.operationId);
  if (alert.created) {
    await appendHistory(trx, alert.id, "system", { event: "raised", operations: ids }, h.now);
    return { id: alert.id, created: true, changed: true };
  }
  const held = alert.evidence.operations ?? [];
  const known = new Set(held.map((o) => o.operationId));
  const added = h.operations.filter((o) => !known.has(o.operationId));
  if (added.length === 0) return { id: alert.id, created: false, changed: false };
  const rose = compareLevels(h.level, alert.level as RiskLevel) > 0;
  const rule = alert.evidence.operationRule;
  await trx
    .updateTable("alerts")
    .set({
      evidence: JSON.stringify({
        ...alert.evidence,
        operations: [...held, ...added].sort((a, b) => Date.parse(a.at) - Date.parse(b.at)),
        operationRule: {
          rule: h.rule,
          parameters: h.parameters,
          hits: [...(rule?.hits ?? []), h.facts],
        },
      }),
      ...(rose ? { level: h.level, reason: h.reason } : {}),
      updated_at: h.now,
    })
    .where("id", "=", alert.id)
    .execute();
  await appendHistory(
    trx,
    alert.id,
    "system",
    {
      event: "evidence_added",
      operations: added.map((o) => o.operationId),
      ...(rose ? { level: { from: alert.level, to: h.level } } : {}),
    },
    h.now,
  );
  return { id: alert.id, created: false, changed: true };
}
