// Who in a client's profile (src/jurisdictions/profile.ts) is screened: the client (a person by its given name and
// surnames, or a company or trust by its denominación), its representative or fiduciary delegate, and each
// beneficial owner, each with the birthdate or incorporation date, nationality and the identifiers the profile
// carries (RFC, CURP, the identification document: passport for code 2 as docs/reports/mx.md reads the interface;
// Colombia's identification number).
import { beneficialOwners, type Profile } from "../jurisdictions/index.ts";
import type { Identifier } from "./entry.ts";
import { comparedTokens } from "./match/normalise.ts";
import type { PersonInput } from "./schemas.ts";

export type SubjectRole = "client" | "representative" | "fiduciary_delegate" | "beneficial_owner";

export interface Subject {
  role: SubjectRole;
  person: PersonInput;
}

const joinName = (...parts: (string | undefined)[]) =>
  parts
    .map((p) => p?.trim())
    .filter((p): p is string => !!p)
    .join(" ");

function ids(values: {
  rfc?: string | undefined;
  curp?: string | undefined;
  doc?: { tipoIdentificacion: number; numeroIdentificacion: string } | undefined;
}): Identifier[] {
  const out: Identifier[] = [];
  if (values.rfc?.trim()) out.push({ kind: "rfc", value: values.rfc.trim(), country: "MX" });
  if (values.curp?.trim()) out.push({ kind: "curp", value: values.curp.trim(), country: "MX" });
  const doc = values.doc;
  if (doc?.numeroIdentificacion?.trim())
    out.push({
      kind: doc.tipoIdentificacion === 2 ? "passport" : "national_id",
      value: doc.numeroIdentificacion.trim(),
    });
  return out;
}

function person(
  p: {
    givenName?: string | undefined;
    paternalSurname?: string | undefined;
    maternalSurname?: string | undefined;
    birthdate?: string | undefined;
    nationality?: string | undefined;
  },
  identifiers: Identifier[],
): PersonInput | undefined {
  const name = joinName(p.givenName, p.paternalSurname, p.maternalSurname);
  if (!name) return undefined;
  return {
    name,
    type: "person",
    ...(p.birthdate && /^\d{4}(-\d{2}(-\d{2})?)?$/.test(p.birthdate) ? { birthdate: p.birthdate } : {}),
    ...(p.nationality && /^[A-Za-z]{2}$/.test(p.nationality)
      ? { nationality: p.nationality.toUpperCase() }
      : {}),
    ...(identifiers.length > 0 ? { identifiers } : {}),
  };
}

/** The persons of a profile with a name that has something to compare (not "." or "-", nor only "de la"). */
export function subjectsOf(profile: Profile): Subject[] {
  return allSubjects(profile).filter((s) => comparedTokens(s.person.name, s.person.type).length > 0);
}

function allSubjects(profile: Profile): Subject[] {
  const subjects: Subject[] = [];
  const mx = profile.mexico;
  if (profile.tipoPersona && profile.denominacionRazon?.trim()) {
    const identifiers = ids({ rfc: mx?.rfc });
    subjects.push({
      role: "client",
      person: {
        name: profile.denominacionRazon.trim(),
        type: "entity",
        ...(profile.fechaConstitucion ? { incorporationDate: profile.fechaConstitucion } : {}),
        ...(profile.nationality ? { nationality: profile.nationality.toUpperCase() } : {}),
        ...(identifiers.length > 0 ? { identifiers } : {}),
      },
    });
  } else {
    const co = profile.colombia;
    const identifiers = [
      ...ids({ rfc: mx?.rfc, curp: mx?.curp, doc: mx?.documentoIdentificacion }),
      ...(co?.numeroIdentificacion?.trim()
        ? [
            {
              kind: co.tipoIdentificacion === "PA" ? ("passport" as const) : ("national_id" as const),
              value: co.numeroIdentificacion.trim(),
              country: "CO",
            },
          ]
        : []),
    ];
    const client = person(profile, identifiers);
    if (client) subjects.push({ role: "client", person: client });
  }
  for (const [role, p] of [
    ["representative", profile.representanteApoderado],
    ["fiduciary_delegate", profile.delegadoFiduciario],
  ] as const) {
    if (!p) continue;
    const s = person(p, ids({ rfc: p.rfc, curp: p.curp, doc: p.documentoIdentificacion }));
    if (s) subjects.push({ role, person: s });
  }
  for (const owner of beneficialOwners(profile)) {
    if (owner.tipoPersona === "moral" || owner.tipoPersona === "fideicomiso") {
      if (!owner.denominacionRazon?.trim()) continue;
      const identifiers = ids({ rfc: owner.rfc });
      subjects.push({
        role: "beneficial_owner",
        person: {
          name: owner.denominacionRazon.trim(),
          type: "entity",
          ...(owner.fechaConstitucion ? { incorporationDate: owner.fechaConstitucion } : {}),
          ...(owner.nationality ? { nationality: owner.nationality.toUpperCase() } : {}),
          ...(identifiers.length > 0 ? { identifiers } : {}),
        },
      });
      continue;
    }
    const s = person(owner, ids({ rfc: owner.rfc, curp: owner.curp }));
    if (s) subjects.push({ role: "beneficial_owner", person: s });
  }
  return subjects;
}
