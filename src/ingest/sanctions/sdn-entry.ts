// One <sdnEntry> of OFAC's SDN.XML as the facts Vigía keeps: the entry's uid, name (firstName lastName), programs,
// and its digital currency addresses (<id><idType>Digital Currency Address - XBT</idType><idNumber>...).
import { XMLParser } from "fast-xml-parser";

export interface SdnEntry {
  uid: string;
  name: string;
  programs: string[];
  /** code: the currency code after "Digital Currency Address - " (XBT, ETH, USDT, TRX, ...) */
  addresses: { code: string; address: string }[];
}

export const DIGITAL_CURRENCY_ID = "Digital Currency Address - ";

const parser = new XMLParser({
  // Entities are not expanded: a list has no need of them, and expansion is how XML bombs grow.
  processEntities: false,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === "id" || name === "program",
});

const PREDEFINED: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&apos;": "'",
  "&amp;": "&",
};

/** Text with XML's five predefined entities decoded (nothing else is: no DOCTYPE entity is ever expanded). */
const textOf = (value: unknown): string =>
  typeof value === "string"
    ? value.replace(/&(lt|gt|quot|apos|amp);/g, (e) => PREDEFINED[e] ?? e).trim()
    : "";

/** The entry's digital currency addresses, or none without parsing when it has no such id. */
export function parseSdnEntry(xml: string): SdnEntry | undefined {
  if (!xml.includes(DIGITAL_CURRENCY_ID)) return undefined;
  const entry = (parser.parse(xml) as { sdnEntry?: Record<string, unknown> }).sdnEntry;
  if (!entry) return undefined;
  const programs = ((entry.programList as { program?: unknown[] } | undefined)?.program ?? [])
    .map(textOf)
    .filter(Boolean);
  const ids = (entry.idList as { id?: Record<string, unknown>[] } | undefined)?.id ?? [];
  const addresses = ids
    .filter((id) => textOf(id.idType).startsWith(DIGITAL_CURRENCY_ID))
    .map((id) => ({
      code: textOf(id.idType).slice(DIGITAL_CURRENCY_ID.length).trim(),
      address: textOf(id.idNumber),
    }));
  const name = [textOf(entry.firstName), textOf(entry.lastName)].filter(Boolean).join(" ");
  return { uid: textOf(entry.uid), name, programs, addresses };
}
