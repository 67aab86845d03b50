// The "What to do" line of a wallet report: what a compliance officer is advised to do at the verdict's risk level
// (minimal, low, medium, high, critical), in English or Spanish. Written for any jurisdiction: a report names the
// financial intelligence units of the project's jurisdictions when it has some (src/jurisdictions), and says "the
// financial intelligence unit (FIU) of your jurisdiction" otherwise. An address on a sanctions list gets the
// critical line whatever its score, and an address without a verdict (no transactions held, or a check withheld
// for want of current data) a line saying so.
// Guidance, not a decision: every line ends saying the decision rests with the compliance officer. Pure.
import type { ReportLanguage } from "./tables.ts";

export type GuidanceLevel = "minimal" | "low" | "medium" | "high" | "critical";

export interface GuidanceInput {
  /** the verdict's level; null without a verdict */
  level: string | null;
  /** the address is on a sanctions list the service holds */
  sanctioned: boolean;
  /** the financial intelligence units of the project's jurisdictions, e.g. "UIF (Unidad de Inteligencia Financiera)" */
  fius: readonly string[];
  /** without a level: a check was made and withheld its verdict (the data is not current), rather than none made */
  withheld?: boolean;
}

const LEVELS: readonly string[] = ["minimal", "low", "medium", "high", "critical"];

const or = (names: readonly string[], word: string) =>
  names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} ${word} ${names.at(-1)}`;

const TEXT = {
  en: {
    fiu: (fius: readonly string[]) =>
      fius.length > 0
        ? `the ${or(fius, "or")}`
        : "the financial intelligence unit (FIU) of your jurisdiction",
    critical: (fiu: string) =>
      "Freeze or hold the funds and any pending transaction involving this address, and escalate to the " +
      `compliance officer today. Consider a suspicious-activity report to ${fiu} within its legal deadline; ` +
      "where a sanctions listing is involved, apply the blocking and reporting duties of the sanctions regime. " +
      "Do not tell the customer about the review or a possible report.",
    high: (fiu: string) =>
      "Hold pending transactions involving this address and refer it to the compliance officer before any funds " +
      "are released. Apply enhanced due diligence (source and destination of the funds, purpose, the " +
      "counterparties shown) and record the decision; if the activity is not explained, consider a " +
      `suspicious-activity report to ${fiu}.`,
    medium: () =>
      "Apply enhanced due diligence before processing more funds: ask the customer about the source or " +
      "destination of the funds and the counterparties shown, review the transactions under Evidence, and " +
      "escalate to the compliance officer if they are not explained.",
    low: () =>
      "Standard due diligence: keep the address under ongoing monitoring and file this report with the " +
      "customer's record; no further action is indicated.",
    minimal: () =>
      "No risk indicators: standard due diligence applies; this report indicates no further action.",
    none: () =>
      "No risk verdict: the service holds no transactions of this address to analyse. Decide on the labels and " +
      "the sanctions screening above, with standard due diligence.",
    withheld: () =>
      "No risk verdict: the data the service holds of this address is not current, so finding nothing here does " +
      "not clear it. Ask for this report again once the data is current, and meanwhile decide on the labels and " +
      "the sanctions screening above, with standard due diligence.",
    closing: "Guidance by risk level; the decision rests with the compliance officer.",
  },
  es: {
    fiu: (fius: readonly string[]) =>
      fius.length > 0
        ? `la ${or(fius, "o")}`
        : "la unidad de inteligencia financiera (UIF) de su jurisdicción",
    critical: (fiu: string) =>
      "Congele o retenga los fondos y toda operación pendiente que involucre esta dirección, y escale hoy mismo " +
      `al oficial de cumplimiento. Evalúe un reporte de operación sospechosa a ${fiu} dentro del plazo legal; ` +
      "si hay una lista de sanciones de por medio, cumpla las obligaciones de bloqueo y reporte del régimen de " +
      "sanciones. No informe al cliente de la revisión ni de un posible reporte.",
    high: (fiu: string) =>
      "Retenga las operaciones pendientes que involucren esta dirección y remítala al oficial de cumplimiento " +
      "antes de liberar fondos. Aplique debida diligencia reforzada (origen y destino de los fondos, propósito, " +
      "las contrapartes mostradas) y deje constancia de la decisión; si la actividad no queda explicada, evalúe " +
      `un reporte de operación sospechosa a ${fiu}.`,
    medium: () =>
      "Aplique debida diligencia reforzada antes de procesar más fondos: pregunte al cliente por el origen o el " +
      "destino de los fondos y por las contrapartes mostradas, revise las transacciones de la sección Evidencia " +
      "y escale al oficial de cumplimiento si no quedan explicadas.",
    low: () =>
      "Debida diligencia estándar: mantenga la dirección en monitoreo continuo y archive este informe en el " +
      "expediente del cliente; no se indican otras acciones.",
    minimal: () =>
      "Sin indicadores de riesgo: se aplica la debida diligencia estándar; este informe no indica otras acciones.",
    none: () =>
      "Sin veredicto de riesgo: el servicio no tiene transacciones de esta dirección que analizar. Decida con las " +
      "etiquetas y la revisión de sanciones de arriba, con la debida diligencia estándar.",
    withheld: () =>
      "Sin veredicto de riesgo: los datos que el servicio tiene de esta dirección no están al día, así que no " +
      "encontrar nada aquí no la libera. Vuelva a pedir este informe cuando los datos estén al día y, mientras " +
      "tanto, decida con las etiquetas y la revisión de sanciones de arriba, con la debida diligencia estándar.",
    closing: "Orientación según el nivel de riesgo; la decisión corresponde al oficial de cumplimiento.",
  },
} as const;

/** Which line applies: the level's, the critical one for a listed address, or none without a verdict. */
export function guidanceLevel(input: GuidanceInput): GuidanceLevel | "none" | "withheld" {
  if (input.sanctioned) return "critical";
  if (input.level !== null && LEVELS.includes(input.level)) return input.level as GuidanceLevel;
  return input.withheld ? "withheld" : "none";
}

/** The line, in the report's language. */
export function whatToDo(input: GuidanceInput, lang: ReportLanguage): string {
  const t = TEXT[lang];
  const fiu = t.fiu(input.fius);
  const level = guidanceLevel(input);
  const line = level === "none" ? t.none() : level === "withheld" ? t.withheld() : t[level](fiu);
  return `${line} ${t.closing}`;
}
