// Parses one record element (an <sdnEntry>, an <INDIVIDUAL>) with fast-xml-parser and reads its values as text.
// Entities are never expanded by the parser (that is how XML bombs grow); XML's five predefined entities and
// numeric character references are decoded here, nothing else.
import { XMLParser } from "fast-xml-parser";

export type XmlNode = Record<string, unknown>;

/** A parser for elements where the tags in `repeated` are always arrays (one <alias> or ten). */
export function elementParser(repeated: string[]): XMLParser {
  const arrays = new Set(repeated);
  return new XMLParser({
    processEntities: false,
    ignoreAttributes: true,
    parseTagValue: false,
    trimValues: true,
    isArray: (name) => arrays.has(name),
  });
}

const PREDEFINED: Record<string, string> = { lt: "<", gt: ">", quot: '"', apos: "'", amp: "&" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|quot|apos|amp);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return safeChar(Number.parseInt(ref.slice(2), 16)) ?? whole;
    if (ref.startsWith("#")) return safeChar(Number.parseInt(ref.slice(1), 10)) ?? whole;
    return PREDEFINED[ref] ?? whole;
  });
}

function safeChar(code: number): string | undefined {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : undefined;
}

/** The text of a leaf value ("" for an empty or missing element, or one with children). */
export function text(value: unknown): string {
  if (typeof value === "string") return decode(value).trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "";
}

/** A value that may be one node or several as an array of nodes. */
export function nodes(value: unknown): XmlNode[] {
  if (value === undefined || value === null || value === "") return [];
  const list = Array.isArray(value) ? value : [value];
  return list.filter((item): item is XmlNode => typeof item === "object" && item !== null);
}

/** A child node, or an empty one. */
export function child(node: XmlNode | undefined, name: string): XmlNode {
  const value = node?.[name];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as XmlNode) : {};
}

/** The texts of a value that may be one leaf or an array of leaves. */
export function texts(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map(text).filter((t) => t !== "");
}
