// The client of an aviso (persona_aviso) from the integrator's profile of the user: the person type (persona
// física, moral or fideicomiso, with the legal representative or the fiduciary delegate), the address (national
// or foreign) and the phone; and its beneficial owners (dueno_beneficiario; LFPIORPI Art. 24-II, Art. 18-III). A
// profile that cannot make a valid persona is refused with a reason a compliance officer can act on, naming the
// profile field; optional parts (address, phone) that are incomplete are left out.
//
// Two conventions (docs/reports/mx.md, "Names"):
//  - A person with one surname (common for foreigners) has it as apellido_paterno and MISSING_SURNAME as
//    apellido_materno, which the XSD requires and cannot be empty. No official placeholder was found: the RCG
//    annexes ask for "los apellidos completos que correspondan" of a foreigner, and the RFC and CURP write X for a
//    missing surname; XXXX is the filler third-party AVI generators use.
//  - An RFC and a CURP carry the birth date (an entity's RFC its constitution date) as YYMMDD, and a CURP's 17th
//    character is a digit for births before 2000 and a letter from 2000: a profile whose identifiers contradict its
//    dates is refused, naming both fields, rather than filed with data the UIF would find inconsistent.
import { type BeneficialOwner, beneficialOwners, type Profile } from "../profile.ts";
import { satCountry } from "./catalogs.ts";
import { addressText, alphanumeric, compactDate, entityText, nameText } from "./format.ts";

export type XmlTree = { [element: string]: string | number | XmlTree | XmlTree[] };

export type PersonResult =
  | { ok: true; tipoPersona: XmlTree; extra: XmlTree }
  | { ok: false; reason: string; field: string };

/** apellido_materno of a person with one surname. */
export const MISSING_SURNAME = "XXXX";

const RFC_FISICA = /^[A-ZÑ&]{4}\d{6}[A-Z0-9]{3}$/;
const RFC_MORAL = /^[A-ZÑ&]{3}\d{6}[A-Z0-9]{3}$/;
const CURP = /^[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z0-9]{2}$/;
const SEVEN_DIGITS = /^[1-9]\d{6}$/;

class Refusal extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}
/** Refuses the profile; `field` is the profile field at fault (the first backquoted name of the reason by default). */
const refuse = (reason: string, field = /`([^`]+)`/.exec(reason)?.[1] ?? "profile"): never => {
  throw new Refusal(reason, field);
};

function names(p: { givenName?: string; paternalSurname?: string; maternalSurname?: string }, at: string) {
  const nombre = nameText(p.givenName ?? "");
  const surnames = [nameText(p.paternalSurname ?? ""), nameText(p.maternalSurname ?? "")].filter(Boolean);
  if (!nombre) refuse(`\`${at}givenName\` is missing: the AVI needs the person's name`);
  if (surnames.length === 0)
    refuse(`\`${at}paternalSurname\` is missing: the AVI needs the person's surname`);
  return {
    nombre,
    apellido_paterno: surnames[0] as string,
    apellido_materno: surnames[1] ?? MISSING_SURNAME,
  };
}

/** YYMMDD of a YYYY-MM-DD day. */
const yymmdd = (day: string) => day.slice(2, 4) + day.slice(5, 7) + day.slice(8, 10);

/** Refuses an RFC or CURP whose date part is not the person's birth (or constitution) date. */
function sameDate(
  id: string,
  idField: string,
  day: string | undefined,
  dayField: string,
  offset: number,
): void {
  if (!day) return;
  if (id.slice(offset, offset + 6) !== yymmdd(day))
    refuse(
      `\`${idField}\` does not match \`${dayField}\` (${day}): its date part is ${id.slice(offset, offset + 6)}`,
      idField,
    );
}

/** Refuses a CURP whose 17th character contradicts the century of the birth date. */
function curpCentury(curp: string, field: string, birthdate: string | undefined): void {
  if (!birthdate) return;
  const digit = /\d/.test(curp.charAt(16));
  if (digit !== birthdate < "2000-01-01")
    refuse(
      `\`${field}\` does not match \`birthdate\` (${birthdate}): its 17th character is a ${digit ? "digit" : "letter"}, which RENAPO gives to births ${digit ? "before" : "from"} 2000`,
      field,
    );
}

function optionalDate(day: string | undefined): XmlTree {
  return day ? { fecha_nacimiento: compactDate(day) } : {};
}

/** The SAT's generic RFCs: XAXX010101000 for the general public, XEXX010101000 for foreigners. */
const GENERIC_RFCS = ["XAXX010101000", "XEXX010101000"];

function rfcOf(
  value: string | undefined,
  pattern: RegExp,
  at: string,
  kind: string,
  date?: { day: string | undefined; field: string },
): XmlTree {
  if (!value) return {};
  const rfc = value.toUpperCase().trim();
  // The SAT's generic RFCs (the general public, foreigners) name no one: written as a client's, the aviso would not
  // identify the person, whatever its birthdate says.
  if (GENERIC_RFCS.includes(rfc))
    refuse(
      `\`${at}\` is ${rfc}, the SAT's generic RFC (${rfc.startsWith("XE") ? "foreigners" : "the general public"}), which identifies no one: give the person's own RFC, or leave it out and give the CURP or the birthdate`,
      at,
    );
  if (!pattern.test(rfc)) refuse(`\`${at}\` is not the RFC of a ${kind}`);
  if (date) sameDate(rfc, at, date.day, date.field, rfc.length - 9);
  return { rfc };
}

function curpOf(
  value: string | undefined,
  at: string,
  birthdate?: { day: string | undefined; field: string },
): XmlTree {
  if (!value) return {};
  const curp = value.toUpperCase().trim();
  if (!CURP.test(curp)) refuse(`\`${at}\` is not a CURP`);
  if (birthdate) {
    sameDate(curp, at, birthdate.day, birthdate.field, 4);
    curpCentury(curp, at, birthdate.day);
  }
  return { curp };
}

function document(
  doc: { tipoIdentificacion: number; numeroIdentificacion: string } | undefined,
  at: string,
): XmlTree {
  if (!doc) return refuse(`\`${at}\` is missing: the AVI needs the identification document`);
  const numero = entityText(doc.numeroIdentificacion).replace(/[^A-ZÑ0-9 -]/g, "");
  if (!Number.isInteger(doc.tipoIdentificacion) || doc.tipoIdentificacion < 1 || doc.tipoIdentificacion > 999)
    refuse(`\`${at}.tipoIdentificacion\` must be a catalog code from 1 to 999`);
  if (!numero) refuse(`\`${at}.numeroIdentificacion\` is empty`);
  return {
    documento_identificacion: {
      tipo_identificacion: doc.tipoIdentificacion,
      numero_identificacion: numero.slice(0, 30),
    },
  };
}

function country(value: string | undefined, at: string): string {
  if (!value || !/^[A-Za-z]{2}$/.test(value))
    return refuse(`\`${at}\` is missing: the AVI needs a nationality`);
  return satCountry(value);
}

function sevenDigits(value: number | undefined, at: string, what: string): string {
  const code = value === undefined ? "" : String(value);
  if (!SEVEN_DIGITS.test(code)) refuse(`\`${at}\` must be the 7-digit SAT code of the ${what}`);
  return code;
}

type Representative = NonNullable<Profile["representanteApoderado"]>;

function representative(p: Representative, at: string): XmlTree {
  const born = { day: p.birthdate, field: `${at}.birthdate` };
  return {
    ...names(p, `${at}.`),
    ...optionalDate(p.birthdate),
    ...rfcOf(p.rfc, RFC_FISICA, `${at}.rfc`, "persona física", born),
    ...curpOf(p.curp, `${at}.curp`, born),
    ...document(p.documentoIdentificacion, `${at}.documentoIdentificacion`),
  };
}

function tipoPersona(profile: Profile): XmlTree {
  const mx = profile.mexico ?? refuse("the profile has no `mexico` object, which the AVI needs");
  if (profile.tipoPersona === "moral") {
    const denominacion = entityText(profile.denominacionRazon ?? "");
    if (!denominacion) refuse("`denominacionRazon` is missing: a persona moral needs it");
    if (!mx.rfc && !profile.fechaConstitucion)
      refuse("a persona moral needs `mexico.rfc` or `fechaConstitucion`");
    const rep = profile.representanteApoderado ?? refuse("a persona moral needs `representanteApoderado`");
    return {
      persona_moral: {
        denominacion_razon: denominacion.slice(0, 254),
        ...(profile.fechaConstitucion ? { fecha_constitucion: compactDate(profile.fechaConstitucion) } : {}),
        ...rfcOf(mx.rfc, RFC_MORAL, "mexico.rfc", "persona moral", {
          day: profile.fechaConstitucion,
          field: "fechaConstitucion",
        }),
        pais_nacionalidad: country(profile.nationality, "nationality"),
        giro_mercantil: sevenDigits(mx.giroMercantil, "mexico.giroMercantil", "giro mercantil"),
        representante_apoderado: representative(rep, "representanteApoderado"),
      },
    };
  }
  if (profile.tipoPersona === "fideicomiso") {
    const denominacion = entityText(profile.denominacionRazon ?? "");
    if (!denominacion) refuse("`denominacionRazon` is missing: a fideicomiso needs the fiduciary's name");
    if (!mx.rfc && !mx.identificadorFideicomiso)
      refuse("a fideicomiso needs `mexico.rfc` or `mexico.identificadorFideicomiso`");
    const delegate = profile.delegadoFiduciario ?? refuse("a fideicomiso needs `delegadoFiduciario`");
    const identifier = mx.identificadorFideicomiso
      ? entityText(mx.identificadorFideicomiso).slice(0, 40)
      : "";
    return {
      fideicomiso: {
        denominacion_razon: denominacion.slice(0, 254),
        ...rfcOf(mx.rfc, RFC_MORAL, "mexico.rfc", "fideicomiso (12 characters)"),
        ...(identifier ? { identificador_fideicomiso: identifier } : {}),
        apoderado_delegado: representative(delegate, "delegadoFiduciario"),
      },
    };
  }
  if (!mx.rfc && !mx.curp && !profile.birthdate)
    refuse("a persona física needs `mexico.rfc`, `mexico.curp` or `birthdate`", "mexico.rfc");
  const born = { day: profile.birthdate, field: "birthdate" };
  return {
    persona_fisica: {
      ...names(profile, ""),
      ...optionalDate(profile.birthdate),
      ...rfcOf(mx.rfc, RFC_FISICA, "mexico.rfc", "persona física (13 characters)", born),
      ...curpOf(mx.curp, "mexico.curp", born),
      pais_nacionalidad: country(profile.nationality, "nationality"),
      actividad_economica: sevenDigits(
        mx.actividadEconomica,
        "mexico.actividadEconomica",
        "economic activity",
      ),
      ...document(mx.documentoIdentificacion, "mexico.documentoIdentificacion"),
    },
  };
}

/** tipo_domicilio, when the profile's address has what the XSD requires; otherwise nothing (it is optional). */
function domicilio(profile: Profile): XmlTree {
  const a = profile.address;
  if (!a) return {};
  const colonia = addressText(a.colonia ?? "").slice(0, 100);
  const calle = addressText(a.street ?? "").slice(0, 100);
  const exterior = addressText(a.exteriorNumber ?? "").slice(0, 56);
  const interior = addressText(a.interiorNumber ?? "").slice(0, 40);
  const postal = alphanumeric(a.postalCode ?? "");
  if (!colonia || !calle || !exterior) return {};
  const inside: XmlTree = interior ? { numero_interior: interior } : {};
  if (!a.country || a.country.toUpperCase() === "MX") {
    if (!/^\d{5}$/.test(postal)) return {};
    return {
      tipo_domicilio: {
        nacional: { colonia, calle, numero_exterior: exterior, ...inside, codigo_postal: postal },
      },
    };
  }
  const region = addressText(a.region ?? "").slice(0, 100);
  const city = addressText(a.city ?? "").slice(0, 100);
  if (!/^[A-Za-z]{2}$/.test(a.country) || !region || !city || !/^[A-Z0-9]{4,12}$/.test(postal)) return {};
  return {
    tipo_domicilio: {
      extranjero: {
        pais: satCountry(a.country),
        estado_provincia: region,
        ciudad_poblacion: city,
        colonia,
        calle,
        numero_exterior: exterior,
        ...inside,
        codigo_postal: postal,
      },
    },
  };
}

/** telefono, when the profile has a phone of 10 or 12 digits, its country and an email; otherwise nothing. */
function telefono(profile: Profile): XmlTree {
  const phone = profile.phoneNumber;
  const digits = phone ? String(phone.phoneNumber).replace(/\D/g, "") : "";
  const email = (profile.email ?? "").toUpperCase().trim();
  const countryCode = profile.address?.country ?? profile.nationality;
  if (!/^(\d{10}|\d{12})$/.test(digits) || !countryCode || !/^[A-Za-z]{2}$/.test(countryCode)) return {};
  if (email.length < 5 || email.length > 60 || !/^[A-Z\d._'-]+@[A-Z\d_'-]+\.[A-Z\d._'-]+$/.test(email))
    return {};
  return {
    telefono: { clave_pais: satCountry(countryCode), numero_telefono: digits, correo_electronico: email },
  };
}

/** The person type and the optional address and phone of the client, or why the profile cannot make one. */
export function personOf(profile: Profile): PersonResult {
  try {
    return {
      ok: true,
      tipoPersona: tipoPersona(profile),
      extra: { ...domicilio(profile), ...telefono(profile) },
    };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message, field: error.field };
    throw error;
  }
}

/** One beneficial owner as the AVI's dueno_beneficiario (tipo_persona_simple). */
function owner(bc: BeneficialOwner, at: string): XmlTree {
  const nationality = () => country(bc.nationality, `${at}.nationality`);
  if (bc.tipoPersona === "moral" || bc.tipoPersona === "fideicomiso") {
    const denominacion = entityText(bc.denominacionRazon ?? "").slice(0, 254);
    if (!denominacion)
      refuse(`\`${at}.denominacionRazon\` is missing: the AVI names a beneficial owner entity`);
    if (bc.tipoPersona === "fideicomiso") {
      const identifier = bc.identificadorFideicomiso
        ? entityText(bc.identificadorFideicomiso).slice(0, 40)
        : "";
      return {
        tipo_persona: {
          fideicomiso: {
            denominacion_razon: denominacion,
            ...rfcOf(bc.rfc, RFC_MORAL, `${at}.rfc`, "fideicomiso (12 characters)"),
            ...(identifier ? { identificador_fideicomiso: identifier } : {}),
          },
        },
      };
    }
    return {
      tipo_persona: {
        persona_moral: {
          denominacion_razon: denominacion,
          ...(bc.fechaConstitucion ? { fecha_constitucion: compactDate(bc.fechaConstitucion) } : {}),
          ...rfcOf(bc.rfc, RFC_MORAL, `${at}.rfc`, "persona moral", {
            day: bc.fechaConstitucion,
            field: `${at}.fechaConstitucion`,
          }),
          pais_nacionalidad: nationality(),
        },
      },
    };
  }
  const born = { day: bc.birthdate, field: `${at}.birthdate` };
  return {
    tipo_persona: {
      persona_fisica: {
        ...names(bc, `${at}.`),
        ...optionalDate(bc.birthdate),
        ...rfcOf(bc.rfc, RFC_FISICA, `${at}.rfc`, "persona física (13 characters)", born),
        ...curpOf(bc.curp, `${at}.curp`, born),
        pais_nacionalidad: nationality(),
      },
    },
  };
}

/** The client's beneficial owners as dueno_beneficiario elements, or why one cannot be written. */
export function beneficialOwnersOf(
  profile: Profile,
): XmlTree[] | { ok: false; reason: string; field: string } {
  const list = beneficialOwners(profile);
  const single = !Array.isArray(profile.beneficiarioControlador);
  try {
    return list.map((bc, i) =>
      owner(bc, single ? "beneficiarioControlador" : `beneficiarioControlador[${i}]`),
    );
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message, field: error.field };
    throw error;
  }
}
