// Mexico's Unidad de Medida y Actualización (UMA, daily value in MXN), in which LFPIORPI states its thresholds.
// INEGI publishes one value a year, in force from 1 February to 31 January. Values: 2024 MXN 108.57, 2025 113.14,
// 2026 117.31 (DOF/INEGI, January of each year). Dates before February 2024 use the 2024 value: the service holds
// no older data that a threshold would matter for, and an older, lower UMA would only lower the threshold by 4 %.

interface UmaPeriod {
  /** first day in force, YYYY-MM-DD */
  from: string;
  mxn: number;
}

/** Newest first. */
const UMA: readonly UmaPeriod[] = [
  { from: "2026-02-01", mxn: 117.31 },
  { from: "2025-02-01", mxn: 113.14 },
  { from: "0000-01-01", mxn: 108.57 },
];

/** The daily UMA in MXN in force on `day` (YYYY-MM-DD). */
export function umaOn(day: string): number {
  return (UMA.find((period) => day >= period.from) ?? (UMA.at(-1) as UmaPeriod)).mxn;
}
