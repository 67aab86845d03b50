// A person who tried to operate, as the integrator described them when screening (POST /screening/persons and
// POST /screening with an `operation`): an id for them when the integrator gave none, and their data in the form of
// an integrator's profile (src/jurisdictions/profile.ts), from which the aviso of an attempt is written when the
// integrator holds no profile of them (Reglamento de la LFPIORPI Art. 7 Bis: only the data that identify who tried to
// operate). A person's name is read in the order Mexican records write it, given names then the paternal and the
// maternal surname: "MARIA JOSE LOPEZ PEREZ" gives givenName "MARIA JOSE", paternal "LOPEZ", maternal "PEREZ".
import { createHash } from "node:crypto";
import type { PersonInput } from "./schemas.ts";

/** A stable id for a prospect the integrator gave none for: the same data give the same id. */
export function prospectId(p: PersonInput): string {
  const ids = (p.identifiers ?? []).map((i) => `${i.kind}:${i.value.toUpperCase()}`).sort();
  const key = [
    p.name.trim().toUpperCase(),
    p.type ?? "person",
    p.birthdate ?? "",
    p.nationality ?? "",
    ...ids,
  ];
  return `prospect-${createHash("sha256").update(key.join("|")).digest("hex").slice(0, 12)}`;
}

const day = (d: string | undefined) => (d && /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined);

/** The prospect's data as an integrator's profile: what a file of theirs can be written from. */
export function prospectProfile(p: PersonInput): Record<string, unknown> {
  const rfc = p.identifiers?.find((i) => i.kind === "rfc")?.value;
  const curp = p.identifiers?.find((i) => i.kind === "curp")?.value;
  const passport = p.identifiers?.find((i) => i.kind === "passport")?.value;
  const nationality = p.nationality?.toUpperCase();
  const mexico = {
    ...(rfc ? { rfc } : {}),
    ...(curp ? { curp } : {}),
    // The AVI's identification document: 2 is a passport in the SAT's catalog (docs/reports/mx.md).
    ...(passport
      ? { documentoIdentificacion: { tipoIdentificacion: 2, numeroIdentificacion: passport } }
      : {}),
  };
  const common = {
    ...(nationality ? { nationality } : {}),
    // Present even when empty: a file that cannot be written then names the field it lacks, not the object.
    mexico,
  };
  if (p.type === "entity") {
    const founded = day(p.incorporationDate);
    return {
      tipoPersona: "moral",
      denominacionRazon: p.name.trim(),
      ...(founded ? { fechaConstitucion: founded } : {}),
      ...common,
    };
  }
  const words = p.name.trim().split(/\s+/);
  const [givenName, paternalSurname, maternalSurname] =
    words.length >= 3
      ? [words.slice(0, -2).join(" "), words.at(-2), words.at(-1)]
      : words.length === 2
        ? [words[0], words[1], undefined]
        : [words[0], undefined, undefined];
  const born = day(p.birthdate);
  return {
    ...(givenName ? { givenName } : {}),
    ...(paternalSurname ? { paternalSurname } : {}),
    ...(maternalSurname ? { maternalSurname } : {}),
    ...(born ? { birthdate: born } : {}),
    ...common,
  };
}
