// Colombia: Resolución UIAF 314 de 2021 for virtual-asset service providers; monthly reports to the UIAF through
// SIREL. docs/regulation.md ("Colombia") and docs/reports/co.md.
import { deadlineAfter } from "../calendar.ts";
import { calendarMonthAccumulation } from "../month-accumulation.ts";
import type { Jurisdiction } from "../port.ts";
import { textMonthly } from "../text-month.ts";
import { coFile, coProfileGap } from "./layout.ts";
import { CO_INDIVIDUAL, CO_MONTH, CO_MULTIPLE, CO_RULES, CO_TIME_ZONE } from "./rules.ts";
import { CoSettingsSchema, coSettings } from "./settings.ts";

export { type CoRecord, coReportable } from "./layout.ts";
export { CO_TIME_ZONE } from "./rules.ts";
export { type CoSettings, CoSettingsSchema } from "./settings.ts";

const name = (period: string) => `the UIAF transactions report of ${period}`;

/**
 * Where the 20-day deadline was read: the resolution's operative articles were not found, and secondary sources
 * (actualicese.com on the absence report: "dentro de los veinte (20) primeros días calendario del mes siguiente")
 * give it for both reports. Not verified against the text: docs/regulation.md, "Colombia", says what to check.
 */
const CO_DEADLINE_SOURCE =
  "Resolución UIAF 314 de 2021 (Diario Oficial 51.898, 24-12-2021): within the first 20 calendar days of the next month, as secondary sources quote it; not verified against the resolution's articles";

export const COLOMBIA: Jurisdiction = {
  code: "CO",
  countryCode: "CO",
  country: "colombia",
  name: "Colombia",
  regulator: "UIAF (Unidad de Información y Análisis Financiero), through SIREL",
  timeZone: CO_TIME_ZONE,
  currency: "COP",
  rules: CO_RULES,
  accumulations: { [CO_MONTH]: calendarMonthAccumulation },
  settings: CoSettingsSchema,
  thresholds: [{ name: "CO UIAF Res. 314/2021 single transaction", currency: "USD", amountOn: () => 150 }],
  profileGap: coProfileGap,
  lookbackStart: (bounds) => bounds.start,
  async monthly(input) {
    const settings = coSettings(input.settings);
    if (!settings)
      return {
        files: [],
        refused: [],
        elsewhere: [],
        problems: [
          {
            code: "no_reporting_entity",
            reason:
              "the project has no Colombian reporting entity (`jurisdiction_settings.CO.codigo_sirel`): no UIAF file can be written",
            field: "jurisdiction_settings.CO",
          },
        ],
      };
    return textMonthly(input, {
      rules: [CO_INDIVIDUAL, CO_MULTIPLE],
      name,
      build: (userId, profile, operations) =>
        coFile({ codigoSirel: settings.codigo_sirel, period: input.period, userId, profile, operations }),
    });
  },
  calendar(period) {
    const deadline = deadlineAfter(period, CO_TIME_ZONE, { months: 1, day: 20 });
    return [
      {
        id: "CO-TRANSACTIONS",
        name: "Monthly report of individual and multiple virtual-asset transactions",
        deadline,
        source: CO_DEADLINE_SOURCE,
        verified: false,
        fileKinds: ["monthly"],
      },
      {
        id: "CO-ROS-ABSENCE",
        name: "Report of absence of suspicious operations (when no ROS was sent in the month)",
        deadline,
        source: CO_DEADLINE_SOURCE,
        verified: false,
        fileKinds: null,
      },
    ];
  },
};
