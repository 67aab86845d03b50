// The law rules a monitored transfer is checked against, as data: each with its id, the law and article it comes
// from, whether an infringement is a reporting duty or risk indicator (`warn`) or an operation to stop or escalate
// (`illegal`), and the dated amounts it applies. The mapping of duties to warn/illegal is the project's choice; the
// laws define reporting duties. Amounts that change by date are dated rows (validFrom/validTo, UMA by year in
// uma.ts), never branches in code. Rules whose figures could not be checked against the law's text say so
// (`verified: false`). Sources: the text of each law as cited; the research behind them is summarised in
// docs/regulation.md.

export type LawRisk = "warn" | "illegal";
export type CountryCode = "MX" | "CO" | "SV" | "GT";

/** An amount a rule measures against: in USD, or in Mexico's UMA (converted at the UMA of the transfer's day). */
export type RuleAmount = { usd: number } | { uma: number };

export type RuleCheck =
  /** one transfer of at least the amount */
  | { kind: "single"; minimum: RuleAmount; strict?: boolean }
  /**
   * the user's transfers (across all of its addresses) in the window add up past the amount with this one: the
   * rule fires on the transfer that crosses it. `subThresholdOnly`: only transfers under `single` count (MX).
   */
  | {
      kind: "accumulated";
      window: "six-months" | "calendar-month";
      minimum: RuleAmount;
      subThresholdOnly?: RuleAmount;
    }
  /** the counterparty is labelled with one of these categories */
  | { kind: "counterparty"; categories: readonly string[] };

export interface LawRule {
  id: string;
  /** the jurisdiction whose projects the rule applies to; undefined: every project (international standards) */
  countryCode: CountryCode | undefined;
  /** as the notification names it: "mexico", "colombia", ..., or "international" */
  country: string;
  name: string;
  description: string;
  source: string;
  risk: LawRisk;
  /** false where the figures could not be checked against the law's text */
  verified: boolean;
  /** first and last UTC day (YYYY-MM-DD) the rule is in force, inclusive */
  validFrom?: string;
  validTo?: string;
  check: RuleCheck;
}

const LFPIORPI = "https://www.diputados.gob.mx/LeyesBiblio/pdf/LFPIORPI.pdf";

export const LAW_RULES: readonly LawRule[] = [
  {
    id: "MX-AV-210",
    countryCode: "MX",
    country: "mexico",
    name: "LFPIORPI: aviso por monto (activos virtuales)",
    description:
      "An operation of a client of at least 210 UMA with virtual assets is reported to the UIF by day 17 of the next month.",
    source: `${LFPIORPI}, Art. 17 fracción XVI a) (reform DOF 16-07-2025), Art. 23; RCG Acuerdo 115/2026 Art. 24 Bis`,
    risk: "warn",
    verified: true,
    validFrom: "2025-07-17",
    check: { kind: "single", minimum: { uma: 210 } },
  },
  {
    id: "MX-AV-645-LEGACY",
    countryCode: "MX",
    country: "mexico",
    name: "LFPIORPI: aviso por monto (texto anterior a la reforma de 2025)",
    description:
      "Before the 17 July 2025 reform, an operation with virtual assets of at least 645 UMA was reported to the UIF.",
    source: `${LFPIORPI}, Art. 17 fracción XVI (texto DOF 09-03-2018)`,
    risk: "warn",
    verified: true,
    validTo: "2025-07-16",
    check: { kind: "single", minimum: { uma: 645 } },
  },
  {
    id: "MX-AV-ACC6M",
    countryCode: "MX",
    country: "mexico",
    name: "LFPIORPI: acumulación de operaciones",
    description:
      "Operations of one client under the aviso threshold that add up past it within six months are reported.",
    source: `${LFPIORPI}, Art. 17 penúltimo párrafo; Reglamento Art. 7; RCG Acuerdo 115/2026 Art. 24 Bis 1`,
    risk: "warn",
    verified: true,
    validFrom: "2025-07-17",
    check: {
      kind: "accumulated",
      window: "six-months",
      minimum: { uma: 210 },
      subThresholdOnly: { uma: 210 },
    },
  },
  {
    id: "MX-AV-ACC6M-LEGACY",
    countryCode: "MX",
    country: "mexico",
    name: "LFPIORPI: acumulación de operaciones (texto anterior a la reforma de 2025)",
    description:
      "Before the 17 July 2025 reform, operations of one client under 645 UMA that added up past it within six months were reported.",
    source: `${LFPIORPI}, Art. 17 penúltimo párrafo (texto DOF 09-03-2018); Reglamento Art. 7`,
    risk: "warn",
    verified: true,
    validTo: "2025-07-16",
    check: {
      kind: "accumulated",
      window: "six-months",
      minimum: { uma: 645 },
      subThresholdOnly: { uma: 645 },
    },
  },
  {
    id: "MX-LIST",
    countryCode: "MX",
    country: "mexico",
    name: "RCG: personas en listas",
    description:
      "A counterparty on a sanctions list: aviso within 24 hours (prioridad 2), whatever the amount; do not operate.",
    source: "RCG Acuerdo 115/2026 Art. 27 segundo párrafo, Art. 38; LFPIORPI Art. 18 fracción VI",
    risk: "illegal",
    verified: true,
    check: { kind: "counterparty", categories: ["sanctioned"] },
  },
  {
    id: "MX-24H-SUSP",
    countryCode: "MX",
    country: "mexico",
    name: "LFPIORPI: aviso de 24 horas",
    description:
      "Indicia of illicit origin (a counterparty labelled illicit, blocklisted or a mixer): aviso within 24 hours, whatever the amount.",
    source: `${LFPIORPI}, Art. 18 fracción VI segundo párrafo; RCG Acuerdo 115/2026 Arts. 26 Bis, 26 Bis 1, 26 Bis 2`,
    risk: "warn",
    verified: true,
    check: { kind: "counterparty", categories: ["illicit", "blocklisted", "mixer"] },
  },
  {
    id: "CO-TX-150",
    countryCode: "CO",
    country: "colombia",
    name: "Resolución UIAF 314/2021: transacción individual",
    description:
      "A virtual-asset transaction of USD 150 or more is included in the monthly report to the UIAF.",
    source: "Resolución UIAF 314 de 2021 (Diario Oficial 51.898); Resolución UIAF 84 de 2022",
    risk: "warn",
    verified: true,
    check: { kind: "single", minimum: { usd: 150 } },
  },
  {
    id: "CO-TX-450",
    countryCode: "CO",
    country: "colombia",
    name: "Resolución UIAF 314/2021: transacciones múltiples",
    description:
      "A client's transactions in a calendar month that together reach USD 450 are reported as multiple transactions.",
    source: "Resolución UIAF 314 de 2021 (Diario Oficial 51.898)",
    risk: "warn",
    verified: true,
    check: { kind: "accumulated", window: "calendar-month", minimum: { usd: 450 } },
  },
  {
    id: "SV-OTHER-25K",
    countryCode: "SV",
    country: "el salvador",
    name: "Ley contra el Lavado de Dinero y de Activos: operaciones",
    description:
      "A non-cash operation over USD 25,000 is reported to the UIF (figure not verified against the law's text).",
    source: "Ley contra el Lavado de Dinero y de Activos (D.L. 498), Art. 9",
    risk: "warn",
    verified: false,
    check: { kind: "single", minimum: { usd: 25_000 }, strict: true },
  },
  {
    id: "SV-CASH-10K",
    countryCode: "SV",
    country: "el salvador",
    name: "Ley contra el Lavado de Dinero y de Activos: efectivo",
    description:
      "A cash or cash-equivalent operation (on- or off-ramp) over USD 10,000 is reported to the UIF within 5 business days (figure not verified against the law's text).",
    source: "Ley contra el Lavado de Dinero y de Activos (D.L. 498), Art. 9",
    risk: "warn",
    verified: false,
    check: { kind: "single", minimum: { usd: 10_000 }, strict: true },
  },
  {
    id: "GT-CASH-10K",
    countryCode: "GT",
    country: "guatemala",
    name: "Decreto 67-2001: registro de operaciones",
    description:
      "An operation over USD 10,000 (or its GTQ equivalent) is registered and reported to the IVE; Guatemala has no virtual-asset regime in force (details not verified).",
    source: "Decreto 67-2001, Ley contra el Lavado de Dinero u Otros Activos, Art. 24",
    risk: "warn",
    verified: false,
    check: { kind: "single", minimum: { usd: 10_000 }, strict: true },
  },
  {
    id: "XB-OFAC",
    countryCode: undefined,
    country: "international",
    name: "OFAC SDN: sanctioned counterparty",
    description: "The counterparty is an address on a sanctions list (OFAC SDN digital currency addresses).",
    source: "https://sanctionslist.ofac.treas.gov (SDN, Digital Currency Address)",
    risk: "illegal",
    verified: true,
    check: { kind: "counterparty", categories: ["sanctioned"] },
  },
  {
    id: "XB-MIXER",
    countryCode: undefined,
    country: "international",
    name: "FATF red flag: mixer",
    description: "The counterparty is a mixer or tumbler, a red flag of virtual-asset money laundering.",
    source: "FATF, Virtual Assets Red Flag Indicators of Money Laundering and Terrorist Financing (2020)",
    risk: "warn",
    verified: true,
    check: { kind: "counterparty", categories: ["mixer"] },
  },
  {
    id: "XB-TRAVEL-1000",
    countryCode: undefined,
    country: "international",
    name: "FATF travel rule",
    description:
      "A virtual-asset transfer of USD/EUR 1,000 or more travels with its originator's and beneficiary's information.",
    source: "FATF Recommendation 16; Interpretive Note to Recommendation 15, paragraph 7(b)",
    risk: "warn",
    verified: true,
    check: { kind: "single", minimum: { usd: 1_000 } },
  },
];
