// Streams OFAC's SDN.XML (<sdnList> <publshInformation/> <sdnEntry>...</sdnEntry>* </sdnList>) one <sdnEntry> at a
// time, with the line it starts on, without holding the ~30 MB file in memory. Reports the list's publish date and
// Record_Count, and fails on a file that is not an SDN list or is cut short (no </sdnList>, or fewer entries than
// Record_Count), so that a truncated download never replaces the sanctioned set with part of it.
import fs from "node:fs";
import { InputError } from "../labels/row-problems.ts";

export interface SdnListInfo {
  publishDate: string | undefined;
  recordCount: number | undefined;
  entries: number;
}

const START = /<sdnEntry[\s>]/;
/** The longest entry read (the largest in the real list are a few tens of kilobytes). */
export const MAX_ENTRY_CHARS = 4 * 1024 * 1024;
const END = "</sdnEntry>";

function newlines(text: string, from = 0, to = text.length): number {
  let count = 0;
  for (
    let index = text.indexOf("\n", from);
    index !== -1 && index < to;
    index = text.indexOf("\n", index + 1)
  ) {
    count += 1;
  }
  return count;
}

export async function* sdnEntries(
  file: string,
  info: SdnListInfo = { publishDate: undefined, recordCount: undefined, entries: 0 },
): AsyncGenerator<{ line: number; xml: string }, SdnListInfo> {
  let buffer = "";
  let line = 1; // the line buffer[0] is on
  let prelude: string | undefined = "";
  const input = fs.createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  for await (const chunk of input as AsyncIterable<string>) {
    buffer += chunk;
    for (;;) {
      const start = buffer.search(START);
      if (start === -1) break;
      if (prelude !== undefined) {
        readPrelude(file, prelude + buffer.slice(0, start), info);
        prelude = undefined;
      }
      const end = buffer.indexOf(END, start);
      if (end === -1) {
        // An entry is a few kilobytes: one that runs on without closing is not an SDN list.
        if (buffer.length - start > MAX_ENTRY_CHARS)
          throw new InputError(
            `${file}: line ${line + newlines(buffer, 0, start)}: an <sdnEntry> runs past ${MAX_ENTRY_CHARS} characters without closing`,
          );
        break;
      }
      const entryLine = line + newlines(buffer, 0, start);
      const stop = end + END.length;
      info.entries += 1;
      yield { line: entryLine, xml: buffer.slice(start, stop) };
      line += newlines(buffer, 0, stop);
      buffer = buffer.slice(stop);
    }
    // Keep the prelude (before the first entry) for its publish information; elsewhere drop the text between
    // entries, but keep enough of the tail to catch an entry tag split across chunks.
    if (prelude !== undefined && buffer.search(START) === -1) {
      prelude += buffer.slice(0, Math.max(0, buffer.length - 16));
      if (prelude.length > 1 << 20)
        throw new InputError(`${file}: not an OFAC SDN list (no <sdnEntry> found)`);
      line += newlines(buffer, 0, Math.max(0, buffer.length - 16));
      buffer = buffer.slice(Math.max(0, buffer.length - 16));
    }
  }
  if (prelude !== undefined) readPrelude(file, prelude + buffer, info);
  if (START.test(buffer)) throw new InputError(`${file}: truncated: an <sdnEntry> is not closed`);
  if (!buffer.includes("</sdnList>")) throw new InputError(`${file}: truncated: no closing </sdnList>`);
  if (info.recordCount !== undefined && info.recordCount !== info.entries) {
    throw new InputError(
      `${file}: ${info.entries} entries but Record_Count says ${info.recordCount} (truncated or altered file?)`,
    );
  }
  return info;
}

function readPrelude(file: string, text: string, info: SdnListInfo) {
  if (!/<sdnList[\s>]/.test(text)) throw new InputError(`${file}: not an OFAC SDN list (no <sdnList> root)`);
  info.publishDate = /<Publish_Date>\s*([^<]*?)\s*<\/Publish_Date>/.exec(text)?.[1];
  const count = /<Record_Count>\s*(\d+)\s*<\/Record_Count>/.exec(text)?.[1];
  info.recordCount = count === undefined ? undefined : Number(count);
}
