// Mexico's facts that more than one part of the service needs: the time zone its law counts days in, the day the
// 2025 reform of LFPIORPI Art. 17 XVI lowered the aviso threshold for virtual assets from 645 to 210 UMA (DOF
// 16 July 2025, in force the next day), and which law rules (law-rules.ts) make an aviso: by amount, reported in
// the monthly AVI report, or at once (the 24-hour aviso, prioridad 2). docs/regulation.md gives the sources.
import { umaOn } from "./uma.ts";

export const MEXICO_TIME_ZONE = "America/Mexico_City";
export const MX_REFORM_DAY = "2025-07-17";

/** The single-operation aviso threshold in MXN on a day (YYYY-MM-DD, Mexico City). */
export function mxSingleOperationThresholdMxn(day: string): number {
  return (day >= MX_REFORM_DAY ? 210 : 645) * umaOn(day);
}

/** Rules whose infringement is an aviso of the monthly report (amount of one operation, or accumulated). */
export const MX_MONTHLY_AVISO_RULES = ["MX-AV-210", "MX-AV-645-LEGACY", "MX-AV-ACC6M", "MX-AV-ACC6M-LEGACY"];
/** Rules of the six-month accumulation: their aviso carries the operations that added up. */
export const MX_ACCUMULATION_RULES = ["MX-AV-ACC6M", "MX-AV-ACC6M-LEGACY"];
/** Rules whose infringement is a 24-hour aviso (RCG Arts. 26 Bis to 27): a listed person, or indicia. */
export const MX_URGENT_AVISO_RULES = ["MX-LIST", "MX-24H-SUSP"];

/** The time zone each jurisdiction's regulator counts months and deadlines in. */
export const REGULATOR_TIME_ZONES = {
  MX: MEXICO_TIME_ZONE,
  CO: "America/Bogota",
  SV: "America/El_Salvador",
  GT: "America/Guatemala",
} as const;
