// For the readers' tests only: reads a whole (small) list through its reader, sorts what came out, and checks
// every entry against ListEntrySchema (the shape the store will insist on).
import { fileURLToPath } from "node:url";
import { Value } from "@sinclair/typebox/value";
import { type ListEntry, ListEntrySchema } from "../../../screening/index.ts";
import type { ListReader, ReadItem } from "./read.ts";

export const FIXTURES = fileURLToPath(new URL("../../../../test/fixtures/person-lists", import.meta.url));

export interface Collected {
  items: ReadItem[];
  entries: ListEntry[];
  problems: { line: number; problem: string }[];
  skips: { line: number; skip: string }[];
  byId: Map<string, ListEntry>;
}

export async function collect(reader: ListReader): Promise<Collected> {
  const items: ReadItem[] = [];
  for await (const item of reader.items) items.push(item);
  const entries = items.flatMap((i) => ("entry" in i ? [i.entry] : []));
  for (const entry of entries) {
    if (!Value.Check(ListEntrySchema, entry))
      throw new Error(
        `not a ListEntry: ${JSON.stringify(entry)}: ${[...Value.Errors(ListEntrySchema, entry)].map((e) => `${e.path} ${e.message}`).join("; ")}`,
      );
  }
  return {
    items,
    entries,
    problems: items.flatMap((i) => ("problem" in i ? [i] : [])),
    skips: items.flatMap((i) => ("skip" in i ? [i] : [])),
    byId: new Map(entries.map((e) => [e.entryId, e])),
  };
}
