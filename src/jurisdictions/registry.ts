// The jurisdictions the service knows, one folder each: a project enables any of them, and everything that loops
// over countries (the checker, the monthly schedule, the reports' routes, the calendar) loops over this list.
import { COLOMBIA } from "./co/index.ts";
import { GUATEMALA } from "./gt/index.ts";
import { INTERNATIONAL } from "./international/index.ts";
import { MEXICO } from "./mx/index.ts";
import type { Jurisdiction } from "./port.ts";
import { EL_SALVADOR } from "./sv/index.ts";

export const JURISDICTIONS: readonly Jurisdiction[] = [MEXICO, COLOMBIA, EL_SALVADOR, GUATEMALA];

/** The codes of the jurisdictions, as projects enable them. */
export const JURISDICTION_CODES: readonly string[] = JURISDICTIONS.map((j) => j.code);

const byCode = new Map(JURISDICTIONS.map((j) => [j.code, j]));

/** A jurisdiction by its code, or undefined. */
export const jurisdiction = (code: string): Jurisdiction | undefined => byCode.get(code);

/** The jurisdictions of these codes, in the registry's order (unknown codes are skipped). */
export const jurisdictionsOf = (codes: readonly string[]): Jurisdiction[] =>
  JURISDICTIONS.filter((j) => codes.includes(j.code));

/** Every rule book a project with these jurisdictions judges by: its jurisdictions', then the international one. */
export const ruleBooksOf = (codes: readonly string[]) => [...jurisdictionsOf(codes), INTERNATIONAL];

export { INTERNATIONAL };
