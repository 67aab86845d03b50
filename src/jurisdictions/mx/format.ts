// The AVI's field formats (docs/reports/mx.md, "Field formats"): upper-case text without accents except Ñ, dates
// `YYYYMMDD` and times `YYYYMMDDhhmmss` in Mexico City, amounts with two decimals, quantities with two to ten, and
// transaction hashes as upper-case alphanumerics. Each helper returns the value as the XSD wants it.
import { zonedParts } from "../../platform/time-zone.ts";
import { visibleForm } from "../../platform/visible-text.ts";
import { MX_TIME_ZONE } from "./rules.ts";

/**
 * Upper case, accents removed (Ñ kept), runs of spaces collapsed, then only the characters `allowed` keeps. The
 * text is read as shown first (platform/visible-text.ts): a fullwidth or Cyrillic look-alike letter is filed as the
 * Latin letter it shows, not dropped by the filter.
 */
export function upperText(value: string, allowed: RegExp): string {
  const upper = visibleForm(value).toUpperCase().replaceAll("Ñ", "\u0000");
  const plain = upper.normalize("NFD").replace(/\p{M}/gu, "").replaceAll("\u0000", "Ñ");
  return [...plain]
    .filter((c) => allowed.test(c))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Names: letters, Ñ and spaces, all the XSD's nombre_type allows. Accents go (Ñ stays); a hyphen, apostrophe or
 * period separates words ("García-Pérez" is GARCIA PEREZ, "O'Neill" O NEILL) rather than joining them.
 */
export const nameText = (value: string) => upperText(value.replace(/[-'’.]/g, " "), /[A-ZÑ ]/);
/** Free text (descriptions): letters, digits and simple punctuation. */
export const freeText = (value: string) => upperText(value, /[A-ZÑ0-9 ,.:/'$-]/);
/** Denominaciones and bank names. */
export const entityText = (value: string) => upperText(value, /[A-ZÑ0-9 #\-.&,_@']/);
/** Street, colonia and numbers. */
export const addressText = (value: string) => upperText(value, /[A-ZÑ0-9 ,.:/-]/);
/** Identifiers: upper-case letters and digits only, read as shown (a look-alike letter is filed, not dropped). */
export const alphanumeric = (value: string) =>
  visibleForm(value)
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "");

/** `YYYY-MM-DD` to `YYYYMMDD`. */
export const compactDate = (isoDay: string) => isoDay.replaceAll("-", "");

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant as `YYYYMMDDhhmmss` in Mexico City. */
export function operationTime(instant: Date): string {
  const p = zonedParts(instant, MX_TIME_ZONE);
  return `${pad(p.year, 4)}${pad(p.month)}${pad(p.day)}${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`;
}

/** An amount with exactly two decimals, rounded half away from zero at the cent. */
export function amount(value: number): string {
  return (Math.round(value * 100) / 100).toFixed(2);
}

/** A raw token amount in whole units with two to ten decimals (truncated past the tenth, as the XSD allows ten). */
export function quantity(value: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const digits = (value % unit).toString().padStart(decimals, "0").slice(0, 10);
  const fraction = digits.replace(/0+$/, "").padEnd(2, "0");
  return `${value / unit}.${fraction}`;
}

/** A transaction hash as the XSD's hash_operacion: `0xab…` becomes `0XAB…`. */
export const operationHash = alphanumeric;
