// What a match review was about, as two fingerprints: the list entry's content and the fields of the profile's
// person that were screened. A later screening compares its own with them: the same entry and the same person are
// the pair the officer already decided on; a changed entry (a new date of birth, an identifier added by the list) or
// a changed person (a corrected birthdate, a new RFC) is a pair to decide again.
import { createHash } from "node:crypto";
import type { Identifier } from "../entry.ts";
import type { PersonInput } from "../schemas.ts";

const sha256 = (value: unknown) => createHash("sha256").update(JSON.stringify(value)).digest("hex");

/** Identifiers in one order and shape whatever order their objects' keys were stored in. */
const idsOf = (ids: readonly Identifier[] | undefined) =>
  (ids ?? [])
    .map((i) => [i.kind, i.value, i.country ?? null])
    .sort((a, b) => a.join("|").localeCompare(b.join("|")));

export interface EntryContent {
  type: string;
  names: readonly string[];
  dates: readonly string[];
  countries: readonly string[];
  identifiers: readonly Identifier[];
  programs: readonly string[];
  remarks?: string | undefined;
}

/** The entry's content, not its list's version: a list published again with the entry unchanged is the same entry. */
export const entryFingerprint = (e: EntryContent) =>
  sha256([e.type, e.names, e.dates, e.countries, idsOf(e.identifiers), e.programs, e.remarks ?? null]);

/** The person as screened: its role in the profile, name, type, dates, nationality and identifiers. */
export const profileFingerprint = (role: string, p: PersonInput) =>
  sha256([
    role,
    p.name,
    p.type ?? "person",
    p.birthdate ?? null,
    p.incorporationDate ?? null,
    p.nationality ?? null,
    idsOf(p.identifiers),
  ]);
