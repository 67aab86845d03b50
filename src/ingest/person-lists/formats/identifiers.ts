// Identifiers as the lists name them ("R.F.C.", "C.U.R.P.", "Passport", "Cedula No.", "NIT #", "Tax ID No.") to
// ListEntry's kinds, and the Mexican RFC and CURP recognised and written the one way the SAT writes them (upper
// case, no hyphens or spaces), so that "ZANM-821122-H87" on OFAC's list and "ZANM821122H87" on a client's file are
// the same value.
import type { Identifier, IdentifierKind } from "../../../screening/index.ts";

/** RFC: 3 (persona moral) or 4 (persona física) letters, the date YYMMDD, a 3-character homoclave. */
export const RFC = /^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/;
/** RFC written without its homoclave (OFAC has a few: "AUAM-530929"): still an RFC, shorter. */
const RFC_NO_HOMOCLAVE = /^[A-ZÑ&]{3,4}\d{6}$/;
/** CURP: 4 letters, YYMMDD, sex, state (2), 3 consonants, a differentiator and a check digit. */
export const CURP = /^[A-Z][AEIOUX][A-Z]{2}\d{6}[HMX][A-Z]{2}[B-DF-HJ-NP-TV-Z]{3}[A-Z0-9]\d$/;

/** Upper case, hyphens, dots and spaces removed: how an RFC or CURP is compared. */
export const compact = (value: string) => value.toUpperCase().replace(/[\s.-]/g, "");

export function isRfc(value: string): boolean {
  return RFC.test(compact(value));
}
export function isCurp(value: string): boolean {
  return CURP.test(compact(value));
}

/**
 * The identifier types the lists use, longest first so that "National ID No." wins over "ID". `undefined` marks a
 * type that is not an identifier of the person (Gender, Website, a sanctions notice) and is left out.
 */
const TYPES: [RegExp, IdentifierKind | undefined][] = [
  [/^(r\.?\s?f\.?\s?c\.?|registro federal de contribuyentes)$/i, "rfc"],
  [/^(c\.?\s?u\.?\s?r\.?\s?p\.?|clave unica de registro de poblacion)$/i, "curp"],
  [
    /^(passport|passport no\.?|passport number|numero de pasaporte|número de pasaporte|numéro de passeport|pasaporte)$/i,
    "passport",
  ],
  [/^(diplomatic passport)$/i, "passport"],
  [
    /^(national id(entification)? (no\.?|number)|national identification no\.?|cedula no\.?|cédula no\.?|d\.n\.i\.?|identification number|personal id number|credencial electoral|electoral registry no\.?|c\.c\.|national id)$/i,
    "national_id",
  ],
  [
    /^(tax id no\.?|tax id|nit #?|nit|v\.a\.t\. number|vat number|r\.u\.c\. #?|ruc #?|c\.u\.i\.t\.?|c\.u\.i\.l\.?|inn|taxpayer identification number)$/i,
    "tax_id",
  ],
  [
    /^(gender|website|email address|phone number|fax|secondary sanctions risk:?|additional sanctions information -.*|executive order .*|transactions prohibited .*|organization established date|organization type:?|target type|listing date.*|effective date.*|purchase\/sales for divestment date.*|issuer name|equity ticker|digital currency address.*|vessel .*|aircraft .*|other vessel .*|nationality of registration|registration country|former vessel flag|vessel flag|ifca determination -.*|caatsa section 235 information:?|d-u-n-s number|location|title)$/i,
    undefined,
  ],
];

/** The kind for a type label, "other" for an unknown label that names a number, undefined for a non-identifier. */
export function identifierKind(type: string): IdentifierKind | undefined {
  const label = type.trim().replace(/\s+/g, " ");
  for (const [pattern, kind] of TYPES) if (pattern.test(label)) return kind;
  return /(no\.|number|#|\bid\b|code|registration|license|licence|matricula)/i.test(label)
    ? "other"
    : undefined;
}

/** An Identifier, the value cleaned (RFC and CURP compacted); undefined when the value is empty or too long. */
export function identifier(kind: IdentifierKind, value: string, country?: string): Identifier | undefined {
  let text = value
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[.;,]$/, "");
  if (kind === "rfc" || kind === "curp") text = compact(text);
  if (text === "" || text.length > 100) return undefined;
  // An RFC or CURP that does not look like one is kept, as "other": the list's text is evidence still.
  if (kind === "rfc" && !RFC.test(text) && !RFC_NO_HOMOCLAVE.test(text)) kind = "other";
  if (kind === "curp" && !CURP.test(text)) kind = "other";
  return country ? { kind, value: text, country } : { kind, value: text };
}

/** Identifiers with the same kind and value (and country) once. */
export function uniqueIdentifiers(ids: (Identifier | undefined)[]): Identifier[] {
  const seen = new Set<string>();
  const out: Identifier[] = [];
  for (const id of ids) {
    if (!id) continue;
    const key = `${id.kind}\u0000${id.value}\u0000${id.country ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(id);
  }
  return out;
}
