// Mexico's Unidad de Medida y Actualización (UMA): the daily value in MXN in which LFPIORPI states its thresholds.
// INEGI publishes one value a year in the DOF in the first days of January, in force from 1 February to 31 January
// (Ley para Determinar el Valor de la UMA, Art. 5). Dates before February 2022, and after the last value's year
// (until INEGI publishes the next one and it is added here), have no value: a rule in UMA is then reported as not
// judged rather than judged with a guessed value. docs/regulation.md gives the sources.

interface UmaPeriod {
  /** first day in force, YYYY-MM-DD (Mexico City) */
  from: string;
  mxn: number;
  /** where the value was read */
  source: string;
}

/** Newest first. */
export const UMA_VALUES: readonly UmaPeriod[] = [
  {
    from: "2026-02-01",
    mxn: 117.31,
    source: "INEGI, DOF 09-01-2026 (SPPLD, Umbrales de Identificación y Aviso)",
  },
  { from: "2025-02-01", mxn: 113.14, source: "INEGI, DOF 10-01-2025" },
  { from: "2024-02-01", mxn: 108.57, source: "INEGI, DOF 10-01-2024" },
  { from: "2023-02-01", mxn: 103.74, source: "INEGI, January 2023" },
  { from: "2022-02-01", mxn: 96.22, source: "INEGI, January 2022" },
];

/** The last day the newest value is in force: 31 January of the next year. */
const LAST_DAY = `${Number((UMA_VALUES[0] as UmaPeriod).from.slice(0, 4)) + 1}-01-31`;

/** The daily UMA in MXN in force on `day` (YYYY-MM-DD, Mexico City), or undefined where none is known. */
export function umaOn(day: string): number | undefined {
  if (day > LAST_DAY) return undefined;
  return UMA_VALUES.find((period) => day >= period.from)?.mxn;
}
