// Streams an XML list one record element at a time (the UN's <INDIVIDUAL> and <ENTITY>, OFAC's <sdnEntry>), with the
// line and byte offset it starts at, without holding the file in memory. The text before the first record (the
// root's opening tag with the UN's dateGenerated, OFAC's publshInformation) is handed over first. The file must end
// with the root's closing tag: a download cut short fails here instead of importing part of the list.
//
// The reader works on bytes, not decoded text, so that its limits are limits on what is held: a record being
// collected is refused as soon as it passes MAX_ELEMENT_BYTES, whether its closing tag or even the end of its
// opening tag never comes, and nothing past the chunk that crossed the limit is pulled from the source. Only a whole
// record, within the limit, is decoded (as UTF-8) and given to the parser.
import fs from "node:fs";
import { InputError } from "../../labels/row-problems.ts";

/** The longest record element read; the largest in the UN and OFAC lists are a few tens of kilobytes. */
export const MAX_ELEMENT_BYTES = 4 * 1024 * 1024;
/** The longest text before the first record (a list's root and header are a few hundred bytes). */
export const MAX_PRELUDE_BYTES = 1024 * 1024;
/** Read size from a file: small, so that a refusal comes soon after the limit is crossed. */
const READ_CHUNK = 64 * 1024;

export interface XmlElement {
  line: number;
  /** the byte offset of the element's `<` in the file */
  offset: number;
  name: string;
  xml: string;
}

export interface XmlElementsOptions {
  /** the root element's name (CONSOLIDATED_LIST, sdnList): its closing tag must follow the last record */
  root: string;
  /** the record elements' names (not nested in one another) */
  names: string[];
  /** receives the text before the first record (the whole file if it has none); throws to refuse the file */
  onPrelude?: (text: string) => void;
  /** the error when no record starts within MAX_PRELUDE_BYTES */
  notTheList?: string;
  maxElementBytes?: number;
  /** how errors call a record: `a <NAME>` unless said (OFAC's is "an <sdnEntry>") */
  article?: "a" | "an";
}

const mib = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;

function countNewlines(bytes: Buffer, to: number): number {
  let count = 0;
  for (let i = bytes.indexOf(10); i !== -1 && i < to; i = bytes.indexOf(10, i + 1)) count += 1;
  return count;
}

const isTagBreak = (byte: number) =>
  byte === 0x3e /* > */ ||
  byte === 0x2f /* / */ ||
  byte === 0x20 ||
  byte === 0x09 ||
  byte === 0x0a ||
  byte === 0x0d;

/**
 * The first record start (`<NAME` then whitespace, `>` or `/`) in `bytes`, or where an undecided one begins (its
 * name's end not read yet), or nothing.
 */
function findStart(
  bytes: Buffer,
  opens: { name: string; tag: Buffer }[],
): { index: number; name: string } | { partial: number } | undefined {
  let best: { index: number; name: string } | undefined;
  let partial: number | undefined;
  for (const { name, tag } of opens) {
    for (let i = bytes.indexOf(tag); i !== -1 && (!best || i < best.index); i = bytes.indexOf(tag, i + 1)) {
      const next = i + tag.length;
      if (next >= bytes.length) {
        partial = Math.min(partial ?? i, i);
        break;
      }
      if (isTagBreak(bytes[next] as number)) {
        best = { index: i, name };
        break;
      }
    }
  }
  if (best && (partial === undefined || best.index < partial)) return best;
  return partial === undefined ? undefined : { partial };
}

/** Yields every record element of a stream of bytes, in order (see the file's header). */
export async function* xmlElementsFrom(
  source: AsyncIterable<Uint8Array | string>,
  label: string,
  options: XmlElementsOptions,
): AsyncGenerator<XmlElement> {
  const maxBytes = options.maxElementBytes ?? MAX_ELEMENT_BYTES;
  const opens = options.names.map((name) => ({ name, tag: Buffer.from(`<${name}`) }));
  const rootClose = Buffer.from(`</${options.root}>`);
  // Enough of the tail kept between chunks for a record's opening or the root's closing tag split across two.
  const keep = Math.max(rootClose.length, ...opens.map((o) => o.tag.length + 1));
  let pending: Buffer = Buffer.alloc(0);
  let offset = 0; // the file offset of pending[0]
  let line = 1; // the line pending[0] is on
  let prelude: Buffer[] | undefined = [];
  let preludeBytes = 0;
  let closed = false; // the root's closing tag seen after the last record
  let open: { name: string; tagEnd: number; searchFrom: number } | undefined; // the record at pending[0]

  const where = () => `${label}:${line} (byte ${offset})`;
  /** Drops the first `n` bytes of pending: the prelude keeps them, text between records is only looked at. */
  const consume = (n: number) => {
    if (n <= 0) return;
    const dropped = pending.subarray(0, n);
    if (prelude) {
      prelude.push(Buffer.from(dropped));
      preludeBytes += n;
      if (preludeBytes > MAX_PRELUDE_BYTES)
        throw new InputError(
          options.notTheList ??
            `${label}: not the expected list (no <${options.names.join("> or <")}> in its first ${mib(MAX_PRELUDE_BYTES)})`,
        );
    }
    line += countNewlines(dropped, n);
    offset += n;
    pending = pending.subarray(n);
  };
  /** Hands the prelude over, with `rest` (what is left of the file when it has no record). */
  const endPrelude = (rest: Buffer) => {
    if (!prelude) return;
    const text = Buffer.concat([...prelude, rest]).toString("utf8");
    prelude = undefined;
    options.onPrelude?.(text);
  };
  const tooLong = (name: string) =>
    new InputError(
      `${where()}: ${options.article ?? "a"} <${name}> runs past ${mib(maxBytes)} (${maxBytes} bytes) without closing (the limit of one record); the file is damaged or not the list`,
    );

  for await (const chunk of source) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    pending =
      pending.length > 0
        ? Buffer.concat([pending, bytes])
        : Buffer.isBuffer(bytes)
          ? bytes
          : Buffer.from(bytes);
    for (;;) {
      if (!open) {
        const found = findStart(pending, opens);
        // Between records only whitespace and container tags: the root's closing tag is all that matters there.
        const upTo =
          found === undefined
            ? Math.max(0, pending.length - keep)
            : "partial" in found
              ? found.partial
              : found.index;
        if (pending.subarray(0, found && "index" in found ? found.index : pending.length).includes(rootClose))
          closed = true;
        consume(upTo);
        if (!found || "partial" in found) break;
        endPrelude(Buffer.alloc(0));
        open = { name: found.name, tagEnd: -1, searchFrom: 0 };
        closed = false;
      }
      if (open.tagEnd === -1) {
        const tagEnd = pending.indexOf(0x3e, open.name.length + 1);
        if (tagEnd === -1) {
          if (pending.length > maxBytes) throw tooLong(open.name);
          break;
        }
        open.tagEnd = tagEnd;
        if (pending[tagEnd - 1] === 0x2f) {
          // A self-closing record (<ENTITY/>) has nothing to read.
          consume(tagEnd + 1);
          open = undefined;
          continue;
        }
        open.searchFrom = tagEnd;
      }
      const end = Buffer.from(`</${open.name}>`);
      const stop = pending.indexOf(end, open.searchFrom);
      if (stop === -1) {
        if (pending.length > maxBytes) throw tooLong(open.name);
        // Next time, search only what came since (less a closing tag split across the two chunks).
        open.searchFrom = Math.max(open.tagEnd, pending.length - end.length + 1);
        break;
      }
      const after = stop + end.length;
      if (after > maxBytes) throw tooLong(open.name);
      const element: XmlElement = { line, offset, name: open.name, xml: pending.toString("utf8", 0, after) };
      open = undefined;
      consume(after);
      yield element;
    }
  }
  if (open)
    throw new InputError(
      `${label}: truncated: ${options.article ?? "a"} <${open.name}> is not closed (it starts on line ${line}, byte ${offset})`,
    );
  if (pending.includes(rootClose)) closed = true;
  endPrelude(pending);
  if (!closed) throw new InputError(`${label}: truncated: no closing </${options.root}>`);
}

/** xmlElementsFrom over a file, read in small chunks. */
export function xmlElements(file: string, options: XmlElementsOptions): AsyncGenerator<XmlElement> {
  return xmlElementsFrom(fs.createReadStream(file, { highWaterMark: READ_CHUNK }), file, options);
}
