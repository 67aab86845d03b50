// A client found a `match` on a list that owes an aviso from the moment the provider learns of it (Mexico: the UIF's
// Lista de Personas Bloqueadas; LFPIORPI Art. 18 fracción VI párrafo segundo, RCG Arts. 26 Bis 2 and 27 from
// 30-11-2026): in the screening's own transaction, the client's alert gets the aviso's deadline and the aviso is
// recorded (src/avisos), whether or not the client has operated since; the reports write its file. A ground with no
// text in force on the day (before the 2025 reform a listed client owed an aviso only with an operation that was
// itself reportable, which the transfer checker judges) records nothing.
import type { Kysely } from "kysely";
import type { AlertDeadline } from "../alerts/index.ts";
import { recordAviso } from "../avisos/index.ts";
import {
  type AvisoBasisVersion,
  basisVersionOn,
  type Jurisdiction,
  jurisdictionsOf,
} from "../jurisdictions/index.ts";
import { zonedDay } from "../platform/time-zone.ts";
import type { DB } from "../schema.ts";
import type { SubjectRole } from "./subjects.ts";

/** What the screening found: a candidate of the client's persons, at `match`. */
export interface ListedPerson {
  subject: string;
  role: string;
  list: string;
  listVersion: string;
  entryId: string;
  matchedName: string;
  score: number;
}

/** An aviso a listing makes due in one jurisdiction, before it is recorded. */
export interface DueListing {
  jurisdiction: Jurisdiction;
  basis: string;
  version: AvisoBasisVersion;
  deadline: AlertDeadline;
}

const ROLES: Record<SubjectRole, string> = {
  client: "EL CLIENTE",
  beneficial_owner: "EL DUENO BENEFICIARIO DEL CLIENTE",
  representative: "EL REPRESENTANTE O APODERADO DEL CLIENTE",
  fiduciary_delegate: "EL DELEGADO FIDUCIARIO DEL CLIENTE",
};

/**
 * The avisos a `match` on `list` makes due now in the project's enabled jurisdictions: a client's (`listed`), or
 * those of a person who tried to operate and did not (`attempt`).
 */
export function listingsDue(
  enabled: readonly string[],
  list: string,
  now: Date,
  ground: "listed" | "attempt" = "listed",
): DueListing[] {
  const out: DueListing[] = [];
  for (const j of jurisdictionsOf(enabled)) {
    const urgent = j.urgent;
    const listing = urgent?.listings.find((l) => l.list === list);
    const id = ground === "attempt" ? listing?.attemptBasis : listing?.basis;
    const basis = id && urgent?.bases.find((b) => b.id === id);
    if (!urgent || !basis) continue;
    const day = zonedDay(now, j.timeZone);
    const version = basisVersionOn(basis, day);
    if (!version) continue;
    out.push({
      jurisdiction: j,
      basis: basis.id,
      version,
      deadline: {
        at: new Date(now.getTime() + urgent.dueWithinMs),
        filing: `${j.code}-URGENT`,
        source: version.source,
      },
    });
  }
  return out;
}

/** The facts, as the aviso's description of the alert says them: who, which entry of which list, and when. */
export function listingNarrative(p: ListedPerson, userId: string, knownAt: Date, timeZone: string): string {
  const who = ROLES[p.role as SubjectRole] ?? "UNA PERSONA DEL PERFIL DEL CLIENTE";
  return `${who} ${userId}, ${p.subject}, COINCIDE CON LA ENTRADA ${p.entryId} (${p.matchedName}) DE LA LISTA ${p.list} VERSION ${p.listVersion}, PUNTUACION ${p.score}. CONOCIDO POR LA REVISION DE LISTAS EL ${zonedDay(knownAt, timeZone)}.`;
}

/** Records the aviso of a listing in one jurisdiction (once per client and list entry). */
export async function recordListingAviso(
  trx: Kysely<DB>,
  due: DueListing,
  a: { projectId: number; userId: string; account: string; person: ListedPerson; alertId: string; now: Date },
): Promise<{ id: string; created: boolean }> {
  const j = due.jurisdiction;
  const recorded = await recordAviso(trx, {
    projectId: a.projectId,
    countryCode: j.code,
    userId: a.userId,
    basis: due.basis,
    origin: "screening",
    causeKey: `${a.person.list}:${a.person.entryId}`,
    knownAt: a.now,
    dueWithinMs: due.deadline.at.getTime() - a.now.getTime(),
    period: zonedDay(a.now, j.timeZone).slice(0, 7),
    narrative: listingNarrative(a.person, a.userId, a.now, j.timeZone),
    account: a.account,
    listing: {
      list: a.person.list,
      listVersion: a.person.listVersion,
      entryId: a.person.entryId,
      matchedName: a.person.matchedName,
      score: a.person.score,
    },
    alertIds: [a.alertId],
    createdBy: "system",
  });
  return { id: recorded.id, created: recorded.created };
}
