// What every reader of a list of persons hands the importer: the list's facts (ListInfo, filled in as the file is
// read) and its rows one at a time, each an entry, a rejected row (`problem`, which fails a strict import) or a row
// deliberately left out (`skip`, e.g. an OFAC vessel or a FollowTheMoney Address). Readers stream: no list is ever
// held in memory whole, so the same code reads a 30 MB SDN.XML and a 20-line fixture.
import type { ListEntry, ListInfo } from "../../../screening/index.ts";

export type ReadItem =
  | { line: number; entry: ListEntry }
  | { line: number; problem: string }
  | { line: number; skip: string };

export interface ListReader {
  /** filled in as the file is read (version, listDate); `source` is the file path unless options.source says */
  info: ListInfo;
  items: AsyncIterable<ReadItem>;
}

export interface ReadOptions {
  /** what ListInfo.source says (the official URL the file was downloaded from); the first file's path otherwise */
  source?: string;
}

export type ReadList = (files: string[], options?: ReadOptions) => Promise<ListReader>;
