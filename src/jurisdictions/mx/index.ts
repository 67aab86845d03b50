// Mexico: LFPIORPI Art. 17 fracción XVI (virtual-asset providers), its Reglamento and the RCG; avisos to the UIF
// through the SAT's SPPLD portal in the AVI XML (avi.xsd). docs/regulation.md ("Mexico") and docs/reports/mx.md.
import { versionOn } from "../../regulation/index.ts";
import { deadlineAfter } from "../calendar.ts";
import { fatfListOn } from "../international/fatf-lists.ts";
import type { Blocked, Jurisdiction } from "../port.ts";
import { sixMonthAccumulation } from "./accumulation.ts";
import { mxLookbackStart, mxMonthly } from "./monthly.ts";
import { beneficialOwnersOf, personOf } from "./person.ts";
import { MX_AVISO, MX_RULES, MX_SIX_MONTHS, MX_TIME_ZONE } from "./rules.ts";
import { MxSettingsSchema } from "./settings.ts";
import { umaOn } from "./uma.ts";
import { MX_URGENT } from "./urgent.ts";

export { MISSING_SURNAME } from "./person.ts";
export { MX_DATES, MX_TIME_ZONE } from "./rules.ts";
export { type MxReportingEntity, type MxSettings, MxSettingsSchema } from "./settings.ts";
export { UMA_VALUES, type UmaYear, umaOn, umaYearOn, useImportedUma } from "./uma.ts";
export { importedUma, importUma, type UmaImport } from "./uma-store.ts";

/** The single-operation aviso threshold in MXN on a day (Mexico City), or undefined without a UMA for it. */
export function mxSingleThresholdMxn(day: string): number | undefined {
  const rule = MX_RULES.find((r) => r.id === MX_AVISO);
  const version = rule ? versionOn(rule, day) : undefined;
  const uma = umaOn(day);
  if (version?.check.kind !== "single" || !("uma" in version.check.minimum) || uma === undefined)
    return undefined;
  return version.check.minimum.uma * uma;
}

export const MEXICO: Jurisdiction = {
  code: "MX",
  countryCode: "MX",
  country: "mexico",
  name: "México",
  regulator: "UIF (Unidad de Inteligencia Financiera), through the SAT's SPPLD portal",
  timeZone: MX_TIME_ZONE,
  currency: "MXN",
  upperCaseFiles: true,
  rules: MX_RULES,
  umaOn,
  highRiskOn: fatfListOn,
  accumulations: { [MX_SIX_MONTHS]: sixMonthAccumulation },
  settings: MxSettingsSchema,
  thresholds: [{ name: "MX LFPIORPI Art. 17 XVI aviso", currency: "MXN", amountOn: mxSingleThresholdMxn }],
  profileGap(profile): Blocked | undefined {
    const person = personOf(profile);
    if (!person.ok) return { code: "profile_incomplete", reason: person.reason, field: person.field };
    const owners = beneficialOwnersOf(profile);
    if (!Array.isArray(owners))
      return { code: "profile_incomplete", reason: owners.reason, field: owners.field };
    return undefined;
  },
  lookbackStart: mxLookbackStart,
  monthly(input) {
    return mxMonthly(MEXICO, input);
  },
  urgent: MX_URGENT,
  calendar(period) {
    return [
      {
        id: "MX-AVI-MONTHLY",
        name: "Avisos of the month (or the informe en ceros) in the AVI format",
        deadline: deadlineAfter(period, MX_TIME_ZONE, { months: 1, day: 17 }),
        source: "LFPIORPI Art. 23; RCG Art. 25",
        fileKinds: ["monthly", "zero"],
      },
    ];
  },
};
