// Colombia's law rules for virtual-asset service providers (PSAV): Resolución UIAF 314 de 2021 (15-12-2021, Diario
// Oficial 51.898 de 24-12-2021), whose reporting started on 01-07-2022 (Resolución UIAF 84 de 19-04-2022). The
// resolution's articles were not read (no copy of its operative text was found): the figures below are those three
// secondary sources quote from the UIAF, so the rules say `verified: false` and docs/regulation.md says what to check.
import { type LawRule, VIRTUAL_ASSET_ACTS } from "../../regulation/index.ts";

export const CO_TIME_ZONE = "America/Bogota";
export const CO_START = "2022-07-01";
export const CO_INDIVIDUAL = "CO-TX-150";
export const CO_MULTIPLE = "CO-TX-450";
export const CO_MONTH = "co-calendar-month";

const SOURCE =
  "Resolución UIAF 314 de 2021 (Diario Oficial 51.898, 24-12-2021); Resolución UIAF 84 de 2022 (reporte desde 01-07-2022)";
const DUE =
  "in the monthly report of transactions to the UIAF through SIREL, within the first 20 calendar days of the next month";
const UNVERIFIED =
  "Not verified: figures and deadline as secondary sources quote the UIAF; the resolution's articles were not read.";

export const CO_RULES: readonly LawRule[] = [
  {
    id: CO_INDIVIDUAL,
    name: "Resolución UIAF 314/2021: transacción individual",
    risk: "warn",
    versions: [
      {
        validFrom: CO_START,
        description: `A virtual-asset transaction of USD 150 or more (or its equivalent) not reported as part of multiple transactions is included ${DUE}. ${UNVERIFIED}`,
        source: SOURCE,
        verified: false,
        check: { kind: "single", minimum: { usd: 150 }, compare: "at-least", acts: VIRTUAL_ASSET_ACTS },
      },
    ],
  },
  {
    id: CO_MULTIPLE,
    name: "Resolución UIAF 314/2021: transacciones múltiples",
    risk: "warn",
    versions: [
      {
        validFrom: CO_START,
        description: `A client's transactions of one calendar month (Bogotá) that together reach USD 450 are reported as multiple transactions ${DUE}; the rule fires on the transaction that brings the month's total to USD 450. ${UNVERIFIED}`,
        source: SOURCE,
        verified: false,
        check: {
          kind: "accumulated",
          accumulation: CO_MONTH,
          minimum: { usd: 450 },
          compare: "at-least",
          acts: VIRTUAL_ASSET_ACTS,
        },
      },
    ],
  },
];
