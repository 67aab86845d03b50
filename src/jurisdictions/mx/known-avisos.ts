// Mexico's 24-hour avisos due from knowledge alone (LFPIORPI Art. 18 fracción VI párrafo segundo): no transfer makes
// them due, what the provider learns does: a client or prospect found on the UIF's Lista de Personas Bloqueadas, an
// attempted operation, the officer's suspicion from behaviour or from adverse information. The grounds are a closed
// catalog, each dated with the text in force and where it was read (docs/regulation.md, "Mexico"); the file is an
// AVI aviso of prioridad 2 naming the client, its alert code and the facts, with the operations it is about when the
// officer names some (none otherwise: the schema's detalle_operaciones holds no required element).
import type { AvisoBasis, KnownAviso, UrgentAvisos } from "../port.ts";
import type { Profile } from "../profile.ts";
import { userStem } from "../user-ids.ts";
import { ALERT_CODES } from "./catalogs.ts";
import { MX_DATES } from "./rules.ts";
import { urgentAviFile } from "./urgent-file.ts";

const D = MX_DATES;
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const LEY = "LFPIORPI (texto vigente, última reforma DOF 16-07-2025) Art. 18 fracción VI párrafo segundo";
const RCG_2014 = "RCG de la LFPIORPI (DOF 23-08-2013, reforma DOF 24-07-2014)";
const RCG_2026 =
  "RCG de la LFPIORPI reformadas por el Acuerdo 115/2026 (DOF 07-08-2026, en vigor 30-11-2026)";
const REGLAMENTO = "Reglamento de la LFPIORPI (última reforma DOF 27-03-2026) Art. 7 Bis";
/** The formats the RCG's and the Reglamento's own 24-hour avisos wait for (their Transitorios quinto). */
const FORMAT_NOTE =
  "The RCG (Transitorio quinto of Acuerdo 115/2026) and the Reglamento (Transitorio quinto of the decree of DOF 27-03-2026) let these avisos wait for official formats that name them; the law's 24 hours stand, and Vigía writes the aviso in the current AVI format (prioridad 2).";
const WITHIN_24H =
  "an aviso (prioridad 2) is presented within 24 hours of learning of it, whatever the amount and even if the operation was not carried out";

/** The ground ids, as the API takes them (`basis`). */
export const MX_BASES = {
  listedPerson: "listed-person",
  attempt: "attempt",
  behaviour: "behaviour",
  adverseInformation: "adverse-information",
} as const;

export const MX_AVISO_BASES: readonly AvisoBasis[] = [
  {
    id: MX_BASES.listedPerson,
    name: "Cliente o usuario en la Lista de Personas Bloqueadas o en una lista del artículo 38 de las RCG",
    alertCode: ALERT_CODES.listedClient,
    versions: [
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `The client is on the UIF's Lista de Personas Bloqueadas or a list of RCG Art. 38 (the UN's, those of foreign authorities recognised by treaty): read as "hechos o indicios" of the law's Art. 18 VI as reformed, ${WITHIN_24H}.`,
        source: `${LEY} (reforma DOF 16-07-2025); ${RCG_2014} Art. 27 párrafo segundo; Art. 38 párrafo primero`,
      },
      {
        validFrom: D.rcg2026,
        description: `The client, or someone who tried to operate as a client, is on the UIF's Lista de Personas Bloqueadas or a list of RCG Art. 38: ${WITHIN_24H}. ${FORMAT_NOTE}`,
        source: `${LEY}; ${RCG_2026} Arts. 26 Bis 2, 27 párrafo segundo y 38 párrafo primero`,
      },
    ],
  },
  {
    id: MX_BASES.attempt,
    name: "Acto u operación que se pretendió realizar (no celebrado)",
    alertCode: ALERT_CODES.listedClient,
    versions: [
      {
        validFrom: D.reglamento2026,
        validTo: dayBefore(D.rcg2026),
        description: `Someone tried to carry out an operation that was not carried out, and there are facts or indicia of illicit origin (a listed person, say): ${WITHIN_24H}, with only the data that identify who tried to operate as a client. ${FORMAT_NOTE}`,
        source: `${REGLAMENTO}; ${LEY}`,
      },
      {
        validFrom: D.rcg2026,
        description: `Someone tried to carry out an operation that was not carried out, and there are facts or indicia of illicit origin (a listed person, say): ${WITHIN_24H}, with only the data that identify who tried to operate as a client. ${FORMAT_NOTE}`,
        source: `${REGLAMENTO}; ${LEY}; ${RCG_2026} Arts. 26 Bis 2 y 27 párrafo segundo`,
      },
    ],
  },
  {
    id: MX_BASES.behaviour,
    name: "Comportamiento del cliente que hace sospechar del origen o destino de los recursos",
    alertCode: ALERT_CODES.illicitIndicia,
    versions: [
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `The client's behaviour (operations split to stay under the thresholds, say) gives indicia that the resources may come from or be destined to illicit operations: ${WITHIN_24H}.`,
        source: `${LEY} (reforma DOF 16-07-2025)`,
      },
      {
        validFrom: D.rcg2026,
        description: `The client's behaviour (operations split to stay under the thresholds, say) gives indicia that the resources may come from or be destined to illicit operations: ${WITHIN_24H}. ${FORMAT_NOTE}`,
        source: `${LEY}; ${RCG_2026} Arts. 26 Bis y 26 Bis 2`,
      },
    ],
  },
  {
    id: MX_BASES.adverseInformation,
    name: "Información pública o privada que vincula al cliente con operaciones ilícitas",
    alertCode: ALERT_CODES.illicitIndicia,
    versions: [
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `Public or private information (the press, an authority, another provider) links the client or its resources to illicit operations: ${WITHIN_24H}.`,
        source: `${LEY} (reforma DOF 16-07-2025)`,
      },
      {
        validFrom: D.rcg2026,
        description: `Public or private information (the press, an authority, another provider) links the client or its resources to illicit operations: ${WITHIN_24H}. ${FORMAT_NOTE}`,
        source: `${LEY}; ${RCG_2026} Arts. 26 Bis 1 y 26 Bis 2`,
      },
    ],
  },
];

/** The stem of an aviso's file: the same form as a transfer's 24-hour aviso. */
export const knownStem = (a: { userId: string; reference: string }) =>
  `${userStem(a.userId)}.24h.${a.reference}`;

/** The AVI file of an aviso due from knowledge, or why it cannot be written. */
export function buildKnownAviso(input: {
  settings: unknown;
  aviso: KnownAviso;
  profile: Profile;
  period: string;
}): ReturnType<UrgentAvisos["buildKnown"]> {
  const a = input.aviso;
  return urgentAviFile({
    settings: input.settings,
    aviso: {
      prioridad: 2,
      alert: { code: a.basis.alertCode, description: a.narrative },
      reference: a.reference,
      ...(a.account ? { account: a.account } : {}),
      operations: a.operations,
    },
    userId: a.userId,
    stem: knownStem(a),
    profile: input.profile,
    period: input.period,
  });
}
