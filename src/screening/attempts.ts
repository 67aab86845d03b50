// What a screening with an `operation` records (docs/api.md, "Screening"): a person who tried an operation that was
// not carried out (`attempt`), or to become a client (`onboarding`), and is a candidate on a sanctions or blocked
// persons list. Each `match` raises an `attempt` alert (the best `review` does when nothing matched, for the officer to
// decide) and, on a list that owes an aviso from the moment it is known (Mexico's LPB), records that aviso: for an
// attempt, the ground of Reglamento Art. 7 Bis with the person's data as given; for an onboarding, the listed
// client's ground. All in one transaction, once per person, entry and moment of the operation.
import type { Kysely } from "kysely";
import { raiseAttemptAlert } from "../alerts/index.ts";
import { recordAviso } from "../avisos/index.ts";
import { zonedParts } from "../platform/time-zone.ts";
import { projectJurisdictions } from "../projects/index.ts";
import type { DB } from "../schema.ts";
import { candidateEvidence } from "./candidate-evidence.ts";
import { listingsDue } from "./listing-avisos.ts";
import { prospectId, prospectProfile } from "./prospect.ts";
import type {
  CandidateView,
  OperationInput,
  OperationOutcome,
  PersonInput,
  PersonResult,
} from "./schemas.ts";

/** Where the person's alerts go: a wallet they named, the client's monitored address, or none (chain 0, ""). */
export interface AttemptSubject {
  chainId: number;
  address: string;
  addressId: number | string | null;
}

const two = (n: number) => String(n).padStart(2, "0");

function localTime(at: Date, timeZone: string): string {
  const p = zonedParts(at, timeZone);
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}`;
}

function narrative(
  person: PersonInput,
  op: OperationInput,
  c: CandidateView,
  at: Date,
  now: Date,
  timeZone: string,
): string {
  const tried =
    op.kind === "onboarding"
      ? "SOLICITO SER CLIENTE"
      : `INTENTO UNA OPERACION QUE NO SE CELEBRO${op.amount ? ` POR ${op.amount}${op.asset ? ` ${op.asset.toUpperCase()}` : ""}` : ""}`;
  return `${person.name.toUpperCase()} ${tried} EL ${localTime(at, timeZone)} (HORA LOCAL) Y COINCIDE CON LA ENTRADA ${c.entryId} (${c.matchedName}) DE LA LISTA ${c.list.toUpperCase()} VERSION ${c.listVersion}, PUNTUACION ${c.score}. CONOCIDO EL ${localTime(now, timeZone).slice(0, 10)} AL REVISAR SUS DATOS CONTRA LAS LISTAS.`;
}

/** The candidates an operation acts on: every `match` of a sanctions or blocked-persons list, else the best `review`. */
function actedOn(result: PersonResult): CandidateView[] {
  const matches = result.candidates.filter((c) => c.verdict === "match");
  if (matches.length > 0) return matches;
  const review = result.candidates.find((c) => c.verdict === "review");
  return review ? [review] : [];
}

/** The client's monitored address, when the integrator's id is a registered client of the project. */
async function clientSubject(
  db: Kysely<DB>,
  projectId: number,
  userId: string,
): Promise<AttemptSubject | undefined> {
  const row = await db
    .selectFrom("client_screenings")
    .select(["chain_id", "address", "address_id"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { chainId: row.chain_id, address: row.address, addressId: row.address_id } : undefined;
}

/** Records what one screened person's operation calls for: nothing for a person with no candidate to act on. */
export async function recordOperation(
  db: Kysely<DB>,
  input: {
    projectId: number;
    operation: OperationInput;
    person: PersonInput;
    result: PersonResult;
    /** the first wallet the person named, if any */
    wallet?: AttemptSubject;
    now: Date;
  },
): Promise<OperationOutcome> {
  const { projectId, operation: op, person, now } = input;
  const userId = op.userId ?? prospectId(person);
  const candidates = actedOn(input.result);
  if (candidates.length === 0) return { userId, alertIds: [], avisos: [] };
  const at = op.at ? new Date(op.at) : now;
  const subject = input.wallet ??
    (op.userId ? await clientSubject(db, projectId, op.userId) : undefined) ?? {
      chainId: 0,
      address: "",
      addressId: null,
    };
  const enabled = await projectJurisdictions(db, projectId);
  const prospect = prospectProfile(person);
  return db.transaction().execute(async (trx) => {
    const outcome: OperationOutcome = { userId, alertIds: [], avisos: [] };
    for (const c of candidates) {
      const due =
        c.verdict === "match"
          ? listingsDue(enabled, c.list, now, op.kind === "attempt" ? "attempt" : "listed")
          : [];
      const alert = await raiseAttemptAlert(trx, {
        projectId,
        userId,
        chainId: subject.chainId,
        address: subject.address,
        addressId: subject.addressId,
        candidate: candidateEvidence(c, person.name, "client", now, person),
        attempt: {
          kind: op.kind,
          ...(op.amount ? { amount: op.amount } : {}),
          ...(op.asset ? { asset: op.asset } : {}),
          at: at.toISOString(),
          screenedAt: now.toISOString(),
        },
        deadline: due[0]?.deadline ?? null,
        now,
      });
      outcome.alertIds.push(alert.id);
      for (const d of due) {
        const j = d.jurisdiction;
        const recorded = await recordAviso(trx, {
          projectId,
          countryCode: j.code,
          userId,
          basis: d.basis,
          origin: "attempt",
          causeKey: `${op.kind}:${c.list}:${c.entryId}:${at.toISOString()}`,
          knownAt: now,
          dueWithinMs: d.deadline.at.getTime() - now.getTime(),
          period: localTime(now, j.timeZone).slice(0, 7),
          narrative: narrative(person, op, c, at, now, j.timeZone),
          account: subject.address || null,
          listing: {
            list: c.list,
            listVersion: c.listVersion,
            entryId: c.entryId,
            matchedName: c.matchedName,
            score: c.score,
          },
          alertIds: [alert.id],
          prospect,
          createdBy: "system",
        });
        outcome.avisos.push({
          id: recorded.id,
          countryCode: j.code,
          basis: d.basis,
          reference: recorded.reference,
          deadline: recorded.deadline.toISOString(),
        });
      }
    }
    return outcome;
  });
}
