// Alerts of attempts (docs/api.md, "Screening", `operation`): a person screened on a list of persons who tried an
// operation that was not carried out, or to become a client, raises an alert of cause `attempt`, keyed by the list
// and the entry. Its subject is the wallet the person named, or the client's monitored address; a prospect with
// neither is on chain 0 with an empty address. A second attempt by the same person while the alert is open adds that
// attempt to the evidence, and the deadline of its aviso when the alert has none yet.
import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import type { AlertDeadline } from "./deadline.ts";
import { insertOrOpen } from "./open-alert.ts";
import { appendHistory } from "./raise.ts";
import type { AlertEvidence, AttemptEvidence, PersonCandidateEvidence } from "./schemas.ts";

export interface AttemptMatch {
  projectId: number;
  userId: string;
  chainId: number;
  address: string;
  addressId: number | string | null;
  candidate: PersonCandidateEvidence;
  attempt: AttemptEvidence;
  deadline?: AlertDeadline | null;
  now: Date;
}

/** Raises or extends the alert of one person's attempt; its id, and whether it was new. */
export async function raiseAttemptAlert(
  trx: Kysely<DB>,
  m: AttemptMatch,
): Promise<{ id: string; created: boolean }> {
  const c = m.candidate;
  const a = m.attempt;
  const what =
    a.kind === "onboarding"
      ? "tried to become a client"
      : `tried an operation that was not carried out${a.amount ? ` (${a.amount}${a.asset ? ` ${a.asset}` : ""})` : ""}`;
  const reason = `${c.subject}, user ${m.userId}, ${what} at ${a.at}, and is ${c.verdict === "match" ? "a match" : "a candidate to review"} for ${c.matchedName} on the ${c.list} list, version ${c.listVersion}: entry ${c.entryId}, score ${c.score}.`;
  const evidence: AlertEvidence = {
    transfers: [],
    laws: [],
    wallets: m.address ? [m.address] : [],
    persons: [c],
    attempts: [a],
  };
  const alert = await insertOrOpen(trx, {
    projectId: m.projectId,
    chainId: m.chainId,
    address: m.address,
    userId: m.userId,
    cause: "attempt",
    causeKey: `${c.list}:${c.entryId}`,
    level: c.verdict,
    reason,
    evidence,
    addressId: m.addressId,
    deadline: m.deadline ?? null,
    now: m.now,
  });
  const change = { list: c.list, entryId: c.entryId, kind: a.kind, at: a.at };
  if (alert.created) {
    await appendHistory(trx, alert.id, "system", { event: "raised", ...change }, m.now);
    return { id: alert.id, created: true };
  }
  const attempts = alert.evidence.attempts ?? [];
  if (attempts.some((known) => known.at === a.at && known.kind === a.kind))
    return { id: alert.id, created: false };
  await trx
    .updateTable("alerts")
    .set({
      evidence: JSON.stringify({ ...alert.evidence, attempts: [...attempts, a] }),
      // The earliest aviso still owed is the one the officer must meet first: a later attempt's deadline waits.
      ...(m.deadline
        ? {
            deadline: sql<Date>`COALESCE(deadline, ${m.deadline.at})`,
            deadline_filing: sql<string>`COALESCE(deadline_filing, ${m.deadline.filing})`,
            deadline_source: sql<string>`COALESCE(deadline_source, ${m.deadline.source})`,
          }
        : {}),
      updated_at: m.now,
    })
    .where("id", "=", alert.id)
    .execute();
  await appendHistory(trx, alert.id, "system", { event: "evidence_added", ...change }, m.now);
  return { id: alert.id, created: false };
}
