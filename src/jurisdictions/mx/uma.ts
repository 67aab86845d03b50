// Mexico's Unidad de Medida y Actualización (UMA): the daily value in MXN in which LFPIORPI states its thresholds.
// INEGI publishes the year's values in the DOF within the first ten days of January, in force from 1 February to 31
// January (Ley para Determinar el Valor de la UMA, Arts. 4 and 5). The years below ship with Vigía; later ones are
// imported (`vigia import uma`, uma-store.ts) and each process reads them from the store (`useImportedUma`). Dates
// before February 2022, and after the newest year known (until its successor is imported), have no value: a rule in
// UMA is then reported as not judged rather than judged with a guessed value. docs/regulation.md gives the sources.

export interface UmaYear {
  /** the year of the publication: in force from 1 February of it to 31 January of the next */
  year: number;
  /** MXN */
  daily: number;
  /** where the value was read (an imported year: its DOF date and the source given) */
  source: string;
}

/** Newest first. */
export const UMA_VALUES: readonly UmaYear[] = [
  { year: 2026, daily: 117.31, source: "INEGI, DOF 09-01-2026 (SPPLD, Umbrales de Identificación y Aviso)" },
  { year: 2025, daily: 113.14, source: "INEGI, DOF 10-01-2025" },
  { year: 2024, daily: 108.57, source: "INEGI, DOF 10-01-2024" },
  { year: 2023, daily: 103.74, source: "INEGI, January 2023" },
  { year: 2022, daily: 96.22, source: "INEGI, January 2022" },
];

/** The years known to this process: those shipped, and those imported after them (newest first). */
let known: readonly UmaYear[] = UMA_VALUES;

/**
 * Takes the years imported into the store (uma-store.ts) beside those shipped: a shipped year keeps its value (an
 * import cannot change it), an imported one is added.
 */
export function useImportedUma(imported: readonly UmaYear[]): void {
  const shipped = new Set(UMA_VALUES.map((u) => u.year));
  known = [...UMA_VALUES, ...imported.filter((u) => !shipped.has(u.year))].sort((a, b) => b.year - a.year);
}

/** The year of `day`'s UMA: February to December of a year, and January of the next. */
const yearOf = (day: string) => Number(day.slice(0, 4)) - (day.slice(5, 7) === "01" ? 1 : 0);

/** The daily UMA in MXN in force on `day` (YYYY-MM-DD, Mexico City), or undefined where none is known. */
export function umaOn(day: string): number | undefined {
  return umaYearOn(day)?.daily;
}

/** The UMA year in force on `day`, with its source, or undefined. */
export function umaYearOn(day: string): UmaYear | undefined {
  const year = yearOf(day);
  return known.find((u) => u.year === year);
}
