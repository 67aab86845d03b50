// Mexico's 24-hour aviso (prioridad 2; LFPIORPI Art. 18-VI; RCG Arts. 26 Bis to 27): the file of one operation of a
// client on the UIF's Lista de Personas Bloqueadas (MX-LPB), with a listed counterparty (MX-24H-LISTA) or with
// indicia of illicit origin (MX-24H-INDICIOS), built as soon as the checker
// finds it: `<user's stem>.24h.<reference>.xml` in the month of the operation (Mexico City; the stem: user-ids.ts).
import type { OperationId, UrgentAvisos } from "../port.ts";
import { userStem } from "../user-ids.ts";
import { ALERT_CODES, type AviAviso, avisoReference } from "./avi.ts";
import { buildKnownAviso, knownStem, MX_AVISO_BASES, MX_BASES } from "./known-avisos.ts";
import { MX_24H_INDICIOS, MX_24H_LISTA, MX_LPB, MX_LPB_LIST, MX_URGENT_RULES } from "./rules.ts";
import { urgentAviFile } from "./urgent-file.ts";

/**
 * The aviso's alert, with the rule: a client on the UIF's Lista de Personas Bloqueadas (4107) first, since it is
 * the client the aviso is about; else a listed counterparty (4122) or a counterparty labelled illicit, blocklisted or
 * a mixer (4114), said as the fact it is, not as a finding of illicit origin.
 */
function alertOf(laws: readonly string[], counterparty: string): AviAviso["alert"] {
  if (laws.includes(MX_LPB))
    return {
      code: ALERT_CODES.listedClient,
      description: `EL CLIENTE ESTA EN LA LISTA DE PERSONAS BLOQUEADAS DE LA UIF (REGLA ${MX_LPB})`,
    };
  return laws.includes(MX_24H_LISTA)
    ? {
        code: ALERT_CODES.listedCounterparty,
        description: `LA CONTRAPARTE ${counterparty} ESTA EN UNA LISTA DE SANCIONES (REGLA ${MX_24H_LISTA})`,
      }
    : {
        code: ALERT_CODES.illicitIndicia,
        // The facts, not a finding: the label the counterparty carries is what the officer reports; whether the
        // resources are illicit is the authority's to say.
        description: `LA CONTRAPARTE ${counterparty} ESTA SENALADA EN FUENTES DE ETIQUETAS COMO ACTIVIDAD ILICITA, LISTA DE BLOQUEO O MEZCLADOR (REGLA ${MX_24H_INDICIOS})`,
      };
}

/** The stem of an operation's 24-hour aviso file. */
export const urgentStem = (op: OperationId) => `${userStem(op.userId)}.24h.${avisoReference(2, op)}`;

export const MX_URGENT: UrgentAvisos = {
  rules: MX_URGENT_RULES,
  dueWithinMs: 24 * 3600_000,
  stemOf: urgentStem,
  bases: MX_AVISO_BASES,
  listings: [{ list: MX_LPB_LIST, basis: MX_BASES.listedPerson, attemptBasis: MX_BASES.attempt }],
  knownStemOf: knownStem,
  buildKnown: buildKnownAviso,
  build({ settings, operation, profile, period }) {
    return urgentAviFile({
      settings,
      aviso: {
        prioridad: 2,
        alert: alertOf(operation.laws ?? [], operation.counterparty),
        anchor: operation,
        operations: [operation],
      },
      userId: operation.userId,
      stem: urgentStem(operation),
      profile,
      period,
    });
  },
};
