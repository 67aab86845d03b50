// Reads a GraphSense TagPack (YAML) without holding it in memory: the header (every top-level key but `tags`, which
// may come before or after the list) is read in a first pass, then the `tags:` block list is cut into its items,
// each parsed on its own with its line number. Scalars are read as text (YAML failsafe schema), so an unquoted
// 0x address stays exactly as written. Only the block form of `tags:` (one "- " item per tag) is supported.
import fs from "node:fs";
import readline from "node:readline";
import { parse, YAMLParseError } from "yaml";
import { InputError } from "./row-problems.ts";

export interface TagItem {
  line: number;
  tag: Record<string, unknown>;
}

type Piece = { kind: "header"; line: number; text: string } | { kind: "item"; line: number; lines: string[] };

const BLANK_OR_COMMENT = /^\s*(#.*)?$/;
const TAGS_KEY = /^tags\s*:\s*(#.*)?$/;
const TAGS_INLINE = /^tags\s*:/;

async function* pieces(file: string): AsyncGenerator<Piece> {
  const input = fs.createReadStream(file, { encoding: "utf8" });
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let lineNo = 0;
  let inTags = false;
  let indent: number | undefined;
  let item: { line: number; lines: string[] } | undefined;
  let sawTags = false;
  try {
    for await (const raw of lines) {
      lineNo += 1;
      const text = lineNo === 1 ? raw.replace(/^\uFEFF/, "") : raw;
      if (!inTags) {
        if (TAGS_KEY.test(text)) {
          if (sawTags) throw new InputError(`${file}:${lineNo}: "tags" appears twice`);
          inTags = sawTags = true;
          continue;
        }
        if (TAGS_INLINE.test(text)) {
          throw new InputError(`${file}:${lineNo}: "tags" must be a block list (one "- " item per tag)`);
        }
        yield { kind: "header", line: lineNo, text };
        continue;
      }
      if (BLANK_OR_COMMENT.test(text)) {
        item?.lines.push(text.slice(Math.min(text.length - text.trimStart().length, indent ?? 0)));
        continue;
      }
      const lead = text.length - text.trimStart().length;
      const startsItem = /^-(\s|$)/.test(text.slice(lead));
      if (indent === undefined) {
        if (!startsItem) {
          if (lead === 0) {
            // `tags:` with an empty list; the line belongs to the header again.
            inTags = false;
            yield { kind: "header", line: lineNo, text };
            continue;
          }
          throw new InputError(`${file}:${lineNo}: expected a "- " item of the tags list`);
        }
        indent = lead;
      }
      if (lead === indent && startsItem) {
        if (item) yield { kind: "item", ...item };
        item = { line: lineNo, lines: [text.slice(indent)] };
      } else if (lead > indent && item) {
        item.lines.push(text.slice(indent));
      } else if (lead === 0) {
        if (item) yield { kind: "item", ...item };
        item = undefined;
        inTags = false;
        yield { kind: "header", line: lineNo, text };
      } else {
        throw new InputError(`${file}:${lineNo}: unexpected indentation in the tags list`);
      }
    }
    if (item) yield { kind: "item", ...item };
    if (!sawTags) throw new InputError(`${file}: not a TagPack (no "tags:" list)`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new InputError(`${file}: no such file`);
    throw error;
  } finally {
    lines.close();
    input.destroy();
  }
}

function yamlError(file: string, firstLine: number, error: unknown, lineMap?: number[]): InputError {
  if (error instanceof YAMLParseError) {
    const at = error.linePos?.[0]?.line ?? 1;
    const line = lineMap ? (lineMap[at - 1] ?? lineMap.at(-1) ?? firstLine) : firstLine + at - 1;
    return new InputError(
      `${file}:${line}: invalid YAML: ${error.message.split("\n")[0]?.replace(/ at line.*$/, "")}`,
    );
  }
  return new InputError(`${file}:${firstLine}: invalid YAML: ${(error as Error).message}`);
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const SIMPLE_ENTRY = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$/;
const SINGLE_QUOTED = /^'((?:[^']|'')*)'$/;
const DOUBLE_QUOTED = /^"([^"\\]*)"$/;
const PLAIN = /^[^-?:,[\]{}#&*!|>'"%@`\s](?:(?!: | #).)*$/;

/**
 * The common tag shape, one `key: scalar` per line, read without the YAML parser (which is slow: about 0.5 ms per
 * tag). Anything else (lists, block scalars, escapes, comments, repeated keys) returns undefined, and the item is
 * parsed as YAML. The test suite checks that both readings agree on real TagPacks (test/fixtures/SOURCES.md).
 */
function simpleItem(lines: readonly string[]): Record<string, string> | undefined {
  const first = lines[0];
  if (!first?.startsWith("- ")) return undefined;
  const keyIndent = 2 + (first.slice(2).length - first.slice(2).trimStart().length);
  const tag: Record<string, string> = {};
  for (let index = 0; index < lines.length; index += 1) {
    const line = index === 0 ? first.slice(keyIndent) : lines[index]!;
    if (index > 0) {
      if (line.trim() === "") continue;
      if (line.length - line.trimStart().length !== keyIndent) return undefined;
    }
    const entry = SIMPLE_ENTRY.exec(index === 0 ? line : line.slice(keyIndent));
    if (!entry) return undefined;
    const [, key, raw] = entry as unknown as [string, string, string];
    if (key in tag) return undefined;
    let value: string | undefined;
    const single = SINGLE_QUOTED.exec(raw);
    if (single) value = single[1]!.replaceAll("''", "'");
    else if (DOUBLE_QUOTED.test(raw)) value = raw.slice(1, -1);
    else if (PLAIN.test(raw) && !raw.endsWith(":")) value = raw;
    if (value === undefined) return undefined;
    tag[key] = value;
  }
  return tag;
}

/** The TagPack header: every top-level key but `tags`. */
export async function readTagPackHeader(file: string): Promise<Record<string, unknown>> {
  const lines: string[] = [];
  const lineMap: number[] = [];
  for await (const piece of pieces(file)) {
    if (piece.kind !== "header") continue;
    lines.push(piece.text);
    lineMap.push(piece.line);
  }
  let header: unknown;
  try {
    header = parse(lines.join("\n"), { schema: "failsafe" });
  } catch (error) {
    throw yamlError(file, 1, error, lineMap);
  }
  if (header === null || header === undefined) return {};
  if (!isMap(header)) throw new InputError(`${file}:1: a TagPack header must be a mapping of fields`);
  return header;
}

/** The items of the `tags:` list, one by one; an item that is not a mapping is an InputError. */
export async function* readTagPackItems(file: string): AsyncGenerator<TagItem> {
  for await (const piece of pieces(file)) {
    if (piece.kind !== "item") continue;
    let tag: unknown = simpleItem(piece.lines);
    if (!tag) {
      let parsed: unknown;
      try {
        parsed = parse(piece.lines.join("\n"), { schema: "failsafe" });
      } catch (error) {
        throw yamlError(file, piece.line, error);
      }
      tag = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : undefined;
    }
    if (!isMap(tag)) throw new InputError(`${file}:${piece.line}: a tag must be a mapping of fields`);
    yield { line: piece.line, tag };
  }
}
