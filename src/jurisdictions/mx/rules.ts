// Mexico's law rules for virtual-asset providers (LFPIORPI Art. 17 fracción XVI), as dated data: each version with
// the text in force on the operation's day in Mexico City and where it was read. Texts (docs/regulation.md,
// "Mexico", quotes each):
//  - LFPIORPI, consolidated text of the Cámara de Diputados, última reforma DOF 16-07-2025 (in force 17-07-2025);
//  - Reglamento de la LFPIORPI, última reforma DOF 27-03-2026 (in force 28-03-2026);
//  - Reglas de Carácter General (RCG), DOF 23-08-2013 as reformed DOF 24-07-2014 and 30-11-2020, and as reformed by
//    Acuerdo 115/2026 (DOF 07-08-2026, vespertina), in force 30-11-2026.
// Fraction XVI itself was added by the decree of DOF 09-03-2018 (in force 10-03-2018) and applied from 10-09-2019,
// eighteen months later; its 645 UMA aviso
// threshold before the 2025 reform is known from secondary sources only, so those versions say `verified: false`.
import type { LawRule } from "../../regulation/index.ts";
import { FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING } from "../international/fatf-lists.ts";

/** The time zone Mexico's law counts days, months and deadlines in. */
export const MX_TIME_ZONE = "America/Mexico_City";

/** Days the texts changed, in Mexico City. */
export const MX_DATES = {
  /**
   * LFPIORPI Art. 17 XVI (added by the Ley Fintech decree, DOF 09-03-2018, in force the day after, 10-03-2018)
   * applies eighteen months after the decree's entry into force: 10-09-2019
   */
  fractionXvi: "2019-09-10",
  /** the reform of DOF 16-07-2025 is in force: 210 UMA, the 24-hour aviso at any amount, the travel-rule paragraph */
  reform2025: "2025-07-17",
  /** the Reglamento's Art. 7 as reformed DOF 27-03-2026: "alcance o supere", "por tipo de acto u operación" */
  reglamento2026: "2026-03-28",
  /** the RCG as reformed by Acuerdo 115/2026 */
  rcg2026: "2026-11-30",
  /** RCG Art. 41 (the automated alerts) as reformed by Acuerdo 115/2026 applies (its Transitorio noveno) */
  rcg2026Alerts: "2027-06-01",
} as const;

const D = MX_DATES;
const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

const LEY = "LFPIORPI (texto vigente, última reforma DOF 16-07-2025)";
const LEY_2018 = "LFPIORPI (fracción XVI adicionada DOF 09-03-2018, aplicable desde 10-09-2019)";
const REGLAMENTO_2026 = "Reglamento de la LFPIORPI Art. 7 (reforma DOF 27-03-2026, en vigor 28-03-2026)";
const RCG_2014 = "RCG de la LFPIORPI (DOF 23-08-2013, reforma DOF 24-07-2014)";
const RCG_2026 =
  "RCG de la LFPIORPI reformadas por el Acuerdo 115/2026 (DOF 07-08-2026, en vigor 30-11-2026)";

/** The name of Mexico's six-month accumulation (accumulation.ts). */
export const MX_SIX_MONTHS = "mx-six-months";

export const MX_AVISO = "MX-AVISO";
export const MX_ACUMULACION = "MX-ACUMULACION";
export const MX_COMISION = "MX-AVISO-COMISION";
export const MX_24H_LISTA = "MX-24H-LISTA";
export const MX_24H_INDICIOS = "MX-24H-INDICIOS";
export const MX_TRAVEL = "MX-TRAVEL";
export const MX_LPB = "MX-LPB";
/** The list of persons (src/screening) whose `match` is the UIF's Lista de Personas Bloqueadas. */
export const MX_LPB_LIST = "mx-lpb";
export const MX_HIGH_RISK = "MX-JURISDICCION-RIESGO";

/** The rules whose infringement is an aviso of the monthly report (by amount, or accumulated). */
export const MX_MONTHLY_RULES = [MX_AVISO, MX_ACUMULACION, MX_COMISION] as const;
/** The rules whose infringement is a 24-hour aviso (prioridad 2). */
export const MX_URGENT_RULES = [MX_24H_LISTA, MX_24H_INDICIOS, MX_LPB] as const;

const REGLAMENTO_31_BIS =
  "Reglamento de la LFPIORPI Art. 31 Bis (adicionado DOF 27-03-2026, en vigor 28-03-2026)";
const AVISO_DUE = "reported to the UIF (via the SAT's SPPLD portal) by day 17 of the next month";
const URGENT_NOTE =
  "From 30-11-2026 RCG Transitorio quinto lets the RCG's own 24-hour avisos be sent six months after new official formats; the law's 24 hours stand, and Vigía writes the aviso in the current AVI format (prioridad 2).";

function urgentRule(
  id: string,
  name: string,
  risk: "warn" | "illegal",
  categories: readonly string[],
  what: string,
): LawRule {
  return {
    id,
    name,
    risk,
    versions: [
      {
        validFrom: D.fractionXvi,
        validTo: dayBefore(D.reform2025),
        description: `${what}: when the operation is itself subject to an aviso (by amount or accumulated), the aviso is presented within 24 hours of learning of the facts or indicia of illicit origin (text before the 2025 reform).`,
        source: `${RCG_2014} Art. 27 párrafo primero; ${LEY_2018} Art. 18 fracción VI`,
        verified: true,
        check: { kind: "counterparty", categories, onlyWith: [MX_AVISO, MX_ACUMULACION] },
      },
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `${what}: facts or indicia that the resources may come from or be destined to illicit operations. An aviso is presented within 24 hours of learning of it, whatever the amount, even if the operation was not carried out.`,
        source: `${LEY} Art. 18 fracción VI párrafo segundo (reforma DOF 16-07-2025)`,
        verified: true,
        check: { kind: "counterparty", categories },
      },
      {
        validFrom: D.rcg2026,
        description: `${what}: facts or indicia that the resources may come from or be destined to illicit operations. An aviso is presented within 24 hours of learning of it, whatever the amount, even if the operation was not carried out. ${URGENT_NOTE}`,
        source: `${LEY} Art. 18 fracción VI párrafo segundo; ${RCG_2026} Arts. 26 Bis 1, 26 Bis 2 y Transitorio quinto`,
        verified: true,
        check: { kind: "counterparty", categories },
      },
    ],
  };
}

const RCG_LPB_2014 = `${RCG_2014} Art. 27 párrafo segundo; Art. 38 párrafo primero`;
const LPB_NOTE =
  "The UIF's list is not public: it is imported from the copy the UIF gives the provider (vigia lists import mx-lpb). No text read obliges a virtual-asset provider to suspend the operation (that is the financial entities' duty): the rule's `illegal` is Vigía's, so that the officer decides before operating.";

/** The client, or a person of its profile, on the UIF's Lista de Personas Bloqueadas (src/screening). */
const MX_LPB_RULE: LawRule = {
  id: MX_LPB,
  name: "RCG: cliente en la Lista de Personas Bloqueadas (aviso de 24 horas)",
  risk: "illegal",
  versions: [
    {
      validFrom: D.fractionXvi,
      validTo: dayBefore(D.reform2025),
      description: `The client is on the UIF's Lista de Personas Bloqueadas (the list of RCG Art. 38): when an operation with that client is itself subject to an aviso (by amount or accumulated), an aviso (prioridad 2) is presented within 24 hours of learning of it. ${LPB_NOTE}`,
      source: RCG_LPB_2014,
      verified: true,
      check: { kind: "client-listed", lists: [MX_LPB_LIST], onlyWith: [MX_AVISO, MX_ACUMULACION] },
    },
    {
      validFrom: D.reform2025,
      validTo: dayBefore(D.rcg2026),
      description: `The client is on the UIF's Lista de Personas Bloqueadas (RCG Art. 38): an aviso (prioridad 2) is presented within 24 hours of learning of it, whatever the amount and even if the operation was not carried out. The RCG of this time ask it only of operations subject to an aviso; the wider reach reads a listed client as "hechos o indicios" under the law's Art. 18 VI as reformed, as MX-24H-LISTA does for a listed counterparty. ${LPB_NOTE}`,
      source: `${RCG_LPB_2014}; ${LEY} Art. 18 fracción VI párrafo segundo (reforma DOF 16-07-2025)`,
      verified: true,
      check: { kind: "client-listed", lists: [MX_LPB_LIST] },
    },
    {
      validFrom: D.rcg2026,
      description: `The client, or someone who tried to operate as a client, is on the UIF's Lista de Personas Bloqueadas (RCG Art. 38): an aviso (prioridad 2) is presented within 24 hours, whatever the amount and even if the operation was not carried out; the provider's automated mechanisms must alert on such clients from 1 June 2027. ${URGENT_NOTE} ${LPB_NOTE}`,
      source: `${LEY} Art. 18 fracción VI párrafo segundo; ${RCG_2026} Arts. 26 Bis 1, 26 Bis 2, 27 párrafo segundo, 38 párrafo primero, 41 fracción V y Transitorios quinto y noveno`,
      verified: true,
      check: { kind: "client-listed", lists: [MX_LPB_LIST] },
    },
  ],
};

export const MX_RULES: readonly LawRule[] = [
  {
    id: MX_AVISO,
    name: "LFPIORPI: aviso por monto (activos virtuales)",
    risk: "warn",
    versions: [
      {
        validFrom: D.fractionXvi,
        validTo: dayBefore(D.reform2025),
        description: `An operation of a client with virtual assets of 645 UMA or more is ${AVISO_DUE}. Not verified: the 645 UMA figure of the text before the 2025 reform comes from secondary sources (the DOF 09-03-2018 wording was not read).`,
        source: `${LEY_2018} Art. 17 fracción XVI; Art. 23`,
        verified: false,
        check: { kind: "single", minimum: { uma: 645 }, compare: "at-least" },
      },
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `An operation of a client with virtual assets of 210 UMA or more (MXN 24,635.10 at the 2026 UMA) is ${AVISO_DUE}.`,
        source: `${LEY} Art. 17 fracción XVI párrafo segundo inciso a) (reforma DOF 16-07-2025); Art. 23`,
        verified: true,
        check: { kind: "single", minimum: { uma: 210 }, compare: "at-least" },
      },
      {
        validFrom: D.rcg2026,
        description: `An operation of a client with virtual assets of 210 UMA or more (MXN 24,635.10 at the 2026 UMA) is ${AVISO_DUE}, one aviso per operation; its date is the day it is concluded.`,
        source: `${LEY} Art. 17 fracción XVI párrafo segundo inciso a); Art. 23; ${RCG_2026} Arts. 24 Bis fracción IX, 24 Bis 1`,
        verified: true,
        check: { kind: "single", minimum: { uma: 210 }, compare: "at-least" },
      },
    ],
  },
  {
    id: MX_COMISION,
    name: "LFPIORPI: aviso por contraprestación (activos virtuales)",
    risk: "warn",
    versions: [
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description: `A fee (contraprestación, whatever its name) of 4 UMA or more (MXN 469.24 at the 2026 UMA) charged on one operation makes that operation ${AVISO_DUE}, unless the operation is itself of 210 UMA or more: then one aviso, by amount (MX-AVISO). Fees are judged one by one and never accumulated. Before 28 March 2026 no text said that an operation meeting both is reported once; Vigía reads it so throughout.`,
        source: `${LEY} Art. 17 fracción XVI párrafo segundo inciso b) (reforma DOF 16-07-2025); Art. 23; ${REGLAMENTO_31_BIS}`,
        verified: true,
        check: { kind: "fee", minimum: { uma: 4 }, compare: "at-least", coveredBy: MX_AVISO },
      },
      {
        validFrom: D.rcg2026,
        description: `A fee (any commission, rate, charge or payment the client pays for the service) of 4 UMA or more (MXN 469.24 at the 2026 UMA) charged on one operation makes that operation ${AVISO_DUE}, unless the operation is itself of 210 UMA or more: then one aviso, by amount (MX-AVISO). Fees are determined per operation and never accumulated.`,
        source: `${LEY} Art. 17 fracción XVI párrafo segundo inciso b); Art. 23; ${REGLAMENTO_31_BIS}; ${RCG_2026} Art. 24 Bis 5 (fracciones I a III)`,
        verified: true,
        check: { kind: "fee", minimum: { uma: 4 }, compare: "at-least", coveredBy: MX_AVISO },
      },
    ],
  },
  {
    id: MX_ACUMULACION,
    name: "LFPIORPI: acumulación de operaciones",
    risk: "warn",
    versions: [
      {
        validFrom: D.fractionXvi,
        validTo: dayBefore(D.reform2025),
        description: `A client's operations of one type under the aviso threshold that add up to more than 645 UMA within a period of up to six months: the operation that passes it is ${AVISO_DUE}, with the operations that added up; the next operation starts a new period. Not verified: the 645 UMA figure comes from secondary sources, and the Reglamento's Art. 7 of that time was not read (by type, the period and the new start are the reading of its 2026 text).`,
        source: `${LEY_2018} Art. 17 penúltimo párrafo; Reglamento de la LFPIORPI Art. 7 (texto anterior a la reforma DOF 27-03-2026)`,
        verified: false,
        check: {
          kind: "accumulated",
          accumulation: MX_SIX_MONTHS,
          minimum: { uma: 645 },
          compare: "more-than",
        },
      },
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.reglamento2026),
        description: `A client's operations of one type under the aviso threshold that add up to more than 210 UMA ("que supere", the law's word) within a period of up to six months: the operation that passes it is ${AVISO_DUE}, with the operations that added up; the next operation starts a new period. Not verified: the Reglamento's Art. 7 before its 2026 reform was not read (by type, the period and the new start are the reading of its 2026 text).`,
        source: `${LEY} Art. 17 penúltimo párrafo; Reglamento de la LFPIORPI Art. 7 (texto anterior a la reforma DOF 27-03-2026)`,
        verified: false,
        check: {
          kind: "accumulated",
          accumulation: MX_SIX_MONTHS,
          minimum: { uma: 210 },
          compare: "more-than",
        },
      },
      {
        validFrom: D.reglamento2026,
        validTo: dayBefore(D.rcg2026),
        description: `A client's operations of one type under the aviso threshold whose sum reaches or passes 210 UMA ("alcance o supere") within a period of up to six months: the aviso is due with the operation that reaches it, even before the period ends, and is ${AVISO_DUE}; the next operation starts a new period.`,
        source: `${REGLAMENTO_2026} párrafos primero y segundo; ${LEY} Art. 17 penúltimo párrafo`,
        verified: true,
        check: {
          kind: "accumulated",
          accumulation: MX_SIX_MONTHS,
          minimum: { uma: 210 },
          compare: "at-least",
        },
      },
      {
        validFrom: D.rcg2026,
        description: `A client's operations of one type under the aviso threshold whose sum reaches or passes 210 UMA within a period of up to six months that starts with the first of them: the aviso is due with the operation that reaches it and is ${AVISO_DUE}; the next operation starts a new period.`,
        source: `${REGLAMENTO_2026}; ${LEY} Art. 17 penúltimo párrafo; ${RCG_2026} Arts. 19 párrafo segundo, 24 Bis 1`,
        verified: true,
        check: {
          kind: "accumulated",
          accumulation: MX_SIX_MONTHS,
          minimum: { uma: 210 },
          compare: "at-least",
        },
      },
    ],
  },
  urgentRule(
    MX_24H_LISTA,
    "LFPIORPI: aviso de 24 horas (contraparte en listas de sanciones)",
    "illegal",
    ["sanctioned"],
    "The counterparty is on a sanctions list",
  ),
  urgentRule(
    MX_24H_INDICIOS,
    "LFPIORPI: aviso de 24 horas (indicios de procedencia ilícita)",
    "warn",
    ["illicit", "blocklisted", "mixer"],
    "The counterparty is labelled illicit, blocklisted or a mixer",
  ),
  MX_LPB_RULE,
  {
    id: MX_HIGH_RISK,
    name: "RCG: alerta por jurisdicción de alto riesgo",
    risk: "warn",
    versions: [
      {
        validFrom: D.rcg2026Alerts,
        description:
          "The client resides in a jurisdiction that international bodies find to lack, or to apply deficiently, measures against money laundering (the FATF's call for action and increased monitoring): the automated mechanisms raise an alert on the operation for the compliance officer, whatever the amount. Jurisdictions with preferential tax regimes are in the same article, but Mexican law gives no list of them (LISR Art. 176 defines them by a test, and the UIF's list of RCG Art. 23 Bis 4 is not published): Vigía does not judge them. Not verified: the FATF's lists as secondary sources restate them, and the article as a transcription of the DOF gives it.",
        source: `${RCG_2026} Art. 41 fracción V (alertas de actos u operaciones que involucren países o jurisdicciones sin medidas o con medidas deficientes) y Transitorio noveno; Art. 23 Bis 4`,
        verified: false,
        alerts: true,
        check: { kind: "high-risk-residence", lists: [FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING] },
      },
    ],
  },
  {
    id: MX_TRAVEL,
    name: "LFPIORPI: información del originante y del receptor",
    risk: "warn",
    versions: [
      {
        validFrom: D.reform2025,
        validTo: dayBefore(D.rcg2026),
        description:
          "The counterparty is a virtual-asset service provider: obtain, keep and make available to the authorities precise information on the originator, the receiver and, where there is one, the beneficial owner of the transfer. The text sets no minimum amount and leaves the detail to the RCG.",
        source: `${LEY} Art. 17 fracción XVI párrafo tercero (adicionado DOF 16-07-2025)`,
        verified: true,
        check: { kind: "vasp-counterparty" },
      },
      {
        validFrom: D.rcg2026,
        description:
          "The counterparty is a virtual-asset service provider: keep for ten years, and give the UIF on request, for the originator, the receiver and any beneficial owner their full name or razón social, country of residence and account or wallet address; and for the transfer its date and time, virtual asset, amount in the asset and in MXN, type of operation and the fee charged. Whatever the amount.",
        source: `${LEY} Art. 17 fracción XVI párrafo tercero; ${RCG_2026} Art. 24 Bis 2`,
        verified: true,
        check: { kind: "vasp-counterparty" },
      },
    ],
  },
];
