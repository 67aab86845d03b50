// El Salvador: the Ley Especial para la Prevención, Control y Sanción del Lavado de Activos, Financiamiento del
// Terrorismo y Financiamiento de la Proliferación de Armas de Destrucción Masiva (D.L. 426, D.O. 190, Tomo 449,
// 09-10-2025, in force 17-10-2025), which repealed D.L. 498 and names digital-asset and bitcoin service providers as
// obligated subjects (Art. 7 numeral 9). Its Art. 25 has them report regulated operations, digital-asset transactions
// included, single or accumulated over a month, within five business days, with thresholds left to a Reglamento not
// yet issued. So its rules are indicators whose USD 25,000 is the interim UIF Instructivo's figure for operations by
// "otro medio" (Art. 51), marked `verified: false`; no crypto transfer is ever called cash. The files are a working
// record (docs/reports/sv.md).
import { type LawRule, VIRTUAL_ASSET_ACTS } from "../../regulation/index.ts";
import { calendarMonthAccumulation } from "../month-accumulation.ts";
import type { Jurisdiction } from "../port.ts";
import { nameGap, thresholdMonthly } from "../threshold-layout.ts";
import { SvSettingsSchema } from "./settings.ts";

export const SV_TIME_ZONE = "America/El_Salvador";
const DL_426_IN_FORCE = "2025-10-17";
const SV_MONTH = "sv-calendar-month";

const DL_498 =
  "Ley contra el Lavado de Dinero y de Activos (D.L. 498, D.O. 240, Tomo 341, 23-12-1998; reformas D.L. 568/2013 y 749/2014), Art. 9";
const DL_426 =
  "Ley Especial para la Prevención, Control y Sanción del Lavado de Activos, Financiamiento del Terrorismo y Financiamiento de la Proliferación de Armas de Destrucción Masiva (D.L. 426, D.O. 190, Tomo 449, 09-10-2025), Arts. 7 numeral 9, 25, 61";
const INSTRUCTIVO =
  "Instructivo de la UIF para la Prevención, Detección y Control del Lavado de Activos (Acuerdo 380, D.O. 205, 27-10-2021; reformas Acuerdos 266 y 476 de 2023), Arts. 51, 84-C";

const BEFORE =
  "Not verified as a virtual-asset rule: D.L. 498 Art. 9 set USD 25,000 for operations 'por cualquier otro medio' and the UIF Instructivo (Art. 84-C) made virtual-asset providers report regulated operations without a threshold of their own; that a virtual-asset transfer is such an operation is an interpretation.";
const AFTER =
  "Not verified: D.L. 426 Art. 25 covers digital-asset transactions but leaves the threshold to a Reglamento not yet issued; USD 25,000 is the interim UIF Instructivo's figure (Art. 51) for operations by 'otro medio', whose application to digital assets is an interpretation.";

function regulated(id: string, name: string, single: boolean): LawRule {
  const what = single
    ? "A virtual-asset operation of more than USD 25,000"
    : "A client's virtual-asset operations of one calendar month (San Salvador) that together pass USD 25,000";
  const check = single
    ? ({ kind: "single", minimum: { usd: 25_000 }, compare: "more-than", acts: VIRTUAL_ASSET_ACTS } as const)
    : ({
        kind: "accumulated",
        acts: VIRTUAL_ASSET_ACTS,
        accumulation: SV_MONTH,
        minimum: { usd: 25_000 },
        compare: "more-than",
      } as const);
  return {
    id,
    name,
    risk: "warn",
    versions: [
      {
        validTo: "2025-10-16",
        description: `${what} is an indicator of a regulated operation, reported to the UIF within five business days. ${BEFORE}`,
        source: `${DL_498}; ${INSTRUCTIVO}`,
        verified: false,
        check,
      },
      {
        validFrom: DL_426_IN_FORCE,
        description: `${what} is an indicator of a regulated operation, reported to the UIF within five business days. ${AFTER}`,
        source: `${DL_426}; ${INSTRUCTIVO}`,
        verified: false,
        check,
      },
    ],
  };
}

const SV_RULES: readonly LawRule[] = [
  regulated("SV-REGULADA", "Operación regulada (indicador): activos digitales", true),
  regulated("SV-REGULADA-MES", "Operaciones reguladas acumuladas en el mes (indicador)", false),
];

export const EL_SALVADOR: Jurisdiction = {
  code: "SV",
  countryCode: "SV",
  country: "el salvador",
  name: "El Salvador",
  regulator: "UIF (Unidad de Investigación Financiera de la Fiscalía General de la República)",
  timeZone: SV_TIME_ZONE,
  currency: "USD",
  rules: SV_RULES,
  accumulations: { [SV_MONTH]: calendarMonthAccumulation },
  settings: SvSettingsSchema,
  thresholds: [
    { name: "SV regulated operation (indicator, not verified)", currency: "USD", amountOn: () => 25_000 },
  ],
  profileGap: nameGap,
  lookbackStart: (bounds) => bounds.start,
  monthly: (input) =>
    thresholdMonthly(input, {
      book: EL_SALVADOR,
      name: (period) => `the working record of regulated-operation indicators of ${period}`,
    }),
  // The regulated-operation reports are due five business days after each operation, but their threshold for
  // digital assets is not set: no filing is listed until it is.
  calendar: () => [],
};
