// Streams OFAC's SDN.XML (<sdnList> <publshInformation/> <sdnEntry>...</sdnEntry>* </sdnList>) one <sdnEntry> at a
// time, with the line it starts on, without holding the ~30 MB file in memory. Reports the list's publish date and
// Record_Count, and fails on a file that is not an SDN list or is cut short (no </sdnList>, or fewer entries than
// Record_Count), so that a truncated download never replaces the sanctioned set with part of it.
import fs from "node:fs";
import { InputError } from "../labels/row-problems.ts";
import { MAX_ELEMENT_BYTES, xmlElementsFrom } from "../person-lists/formats/xml-elements.ts";

export interface SdnListInfo {
  publishDate: string | undefined;
  recordCount: number | undefined;
  entries: number;
}

/** The longest entry read (the largest in the real list are a few tens of kilobytes), in bytes. */
export const MAX_ENTRY_BYTES = MAX_ELEMENT_BYTES;

/** `source`: the file's bytes, when they come from elsewhere than `file` (which then only names it in errors). */
export async function* sdnEntries(
  file: string,
  info: SdnListInfo = { publishDate: undefined, recordCount: undefined, entries: 0 },
  source?: AsyncIterable<Uint8Array>,
): AsyncGenerator<{ line: number; xml: string }, SdnListInfo> {
  const bytes = source ?? fs.createReadStream(file, { highWaterMark: 64 * 1024 });
  // The byte-bounded reader refuses an entry that runs on without closing (an entry is a few kilobytes) as soon as
  // it passes the limit, and a file cut short.
  for await (const { line, xml } of xmlElementsFrom(bytes, file, {
    root: "sdnList",
    names: ["sdnEntry"],
    article: "an",
    onPrelude: (text) => readPrelude(file, text, info),
    notTheList: `${file}: not an OFAC SDN list (no <sdnEntry> found)`,
  })) {
    info.entries += 1;
    yield { line, xml };
  }
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
