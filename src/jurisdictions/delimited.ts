// The plain-text layout of the Colombian, Salvadoran and Guatemalan files (docs/reports/co.md, sv.md, gt.md): a
// header record (type 0), one body record per operation (type 1) and a trailer (type 2) with the count and the
// sums, fields separated by `|`, lines ended by CRLF, encoded in ISO-8859-1 as the UIAF's text reports are.
// Characters the encoding lacks become `?`; a field never holds the separator or a line break.
import { zonedParts } from "../platform/time-zone.ts";

export type Field = string | number;

const clean = (field: Field) =>
  [...String(field).replace(/[|\r\n\t]/g, " ")]
    .map((c) => ((c.codePointAt(0) as number) > 0xff ? "?" : c))
    .join("")
    .trim();

export function delimitedFile(header: Field[], body: Field[][], trailer: Field[]): Buffer {
  const lines = [header, ...body, trailer].map((record) => record.map(clean).join("|"));
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "latin1");
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** An instant as `YYYYMMDD` and `HHMMSS` in a time zone. */
export function localDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const p = zonedParts(instant, timeZone);
  return {
    date: `${pad(p.year, 4)}${pad(p.month)}${pad(p.day)}`,
    time: `${pad(p.hour)}${pad(p.minute)}${pad(p.second)}`,
  };
}

/** An amount with two decimals. */
export const money = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** The media type of these files. */
export const TEXT_MEDIA_TYPE = "text/plain; charset=ISO-8859-1";

/** The holder's name as one upper-case string: an entity's name, or given names and surnames. */
export function holderName(profile: {
  tipoPersona?: string;
  denominacionRazon?: string;
  givenName?: string;
  paternalSurname?: string;
  maternalSurname?: string;
}): string {
  const parts =
    profile.tipoPersona && profile.denominacionRazon
      ? [profile.denominacionRazon]
      : [profile.givenName, profile.paternalSurname, profile.maternalSurname];
  return parts
    .filter((p): p is string => Boolean(p))
    .join(" ")
    .toUpperCase();
}
