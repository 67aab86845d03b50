// Streams an XML list one record element at a time (the UN's <INDIVIDUAL> and <ENTITY>), with the line it starts
// on, without holding the file in memory; the root's opening tag is handed over first for its attributes (the UN's
// dateGenerated). The file must end with the root's closing tag: a download cut short fails here instead of
// importing part of the list.
import fs from "node:fs";
import { InputError } from "../../labels/row-problems.ts";

/** The longest record element read; the largest in the UN list are a few tens of kilobytes. */
export const MAX_ELEMENT_CHARS = 4 * 1024 * 1024;

export interface XmlElement {
  line: number;
  name: string;
  xml: string;
}

function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) count += 1;
  return count;
}

/**
 * Yields every element named in `names` (not nested in one another), in order. `onRoot` receives the root's
 * opening tag before the first element (and throws to refuse a file that is not the expected list).
 */
export async function* xmlElements(
  file: string,
  root: string,
  names: string[],
  onRoot: (openTag: string) => void,
): AsyncGenerator<XmlElement> {
  const start = new RegExp(`<(${names.join("|")})[\\s>/]`);
  const rootOpen = new RegExp(`<${root}[\\s>]`);
  const rootClose = `</${root}>`;
  let closed = false;
  let buffer = "";
  let line = 1; // the line buffer[0] is on
  let seenRoot = false;
  let scanned = 0; // characters read before the root was found
  const input = fs.createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  for await (const chunk of input as AsyncIterable<string>) {
    buffer += chunk;
    if (!seenRoot) {
      const at = buffer.search(rootOpen);
      const close = at === -1 ? -1 : buffer.indexOf(">", at);
      if (close === -1) {
        scanned += chunk.length;
        if (scanned > 1 << 20)
          throw new InputError(`${file}: not the expected list (no <${root}> root element)`);
        continue;
      }
      onRoot(buffer.slice(at, close + 1));
      seenRoot = true;
    }
    for (;;) {
      const match = start.exec(buffer);
      if (!match) break;
      const name = match[1] as string;
      const tagEnd = buffer.indexOf(">", match.index);
      if (tagEnd === -1) break;
      if (buffer[tagEnd - 1] === "/") {
        // A self-closing record (<ENTITY/>) has nothing to read.
        line += newlines(buffer, 0, tagEnd + 1);
        buffer = buffer.slice(tagEnd + 1);
        continue;
      }
      const end = `</${name}>`;
      const stop = buffer.indexOf(end, tagEnd);
      if (stop === -1) {
        if (buffer.length - match.index > MAX_ELEMENT_CHARS)
          throw new InputError(
            `${file}:${line + newlines(buffer, 0, match.index)}: a <${name}> runs past ${MAX_ELEMENT_CHARS} characters without closing`,
          );
        break;
      }
      const elementLine = line + newlines(buffer, 0, match.index);
      const after = stop + end.length;
      yield { line: elementLine, name, xml: buffer.slice(match.index, after) };
      line += newlines(buffer, 0, after);
      buffer = buffer.slice(after);
    }
    // Between elements only whitespace and container tags remain: keep a tail long enough for a split tag.
    if (buffer.includes(rootClose)) closed = true;
    if (!start.test(buffer)) {
      const keep = Math.max(0, buffer.length - 64);
      line += newlines(buffer, 0, keep);
      buffer = buffer.slice(keep);
    }
  }
  if (!seenRoot) throw new InputError(`${file}: not the expected list (no <${root}> root element)`);
  const open = start.exec(buffer);
  if (open) throw new InputError(`${file}: truncated: a <${open[1]}> is not closed`);
  if (!closed && !buffer.includes(rootClose))
    throw new InputError(`${file}: truncated: no closing </${root}>`);
}
