// The text of a ground for an aviso in force on a day (the jurisdiction's own day, YYYY-MM-DD): a ground is taken,
// cited and dated by the version in force when the provider learned of what makes the aviso due.
import type { AvisoBasis, AvisoBasisVersion } from "./port.ts";

export function basisVersionOn(basis: AvisoBasis | undefined, day: string): AvisoBasisVersion | undefined {
  return basis?.versions.find((v) => v.validFrom <= day && (!v.validTo || day <= v.validTo));
}
