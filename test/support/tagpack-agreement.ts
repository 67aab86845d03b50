// A TagPack read both ways: by the streaming reader the importer uses, and by a whole-document YAML parse. Tests
// check that the two agree on real packs (the fixtures, and the whole data set where it is present).
import fs from "node:fs";
import { parse } from "yaml";
import { readTagPackHeader, readTagPackItems } from "../../src/ingest/labels/tagpack-scan.ts";

interface Reading {
  header: Record<string, unknown>;
  tags: unknown[];
}

export async function readTagPackBothWays(file: string): Promise<{ streamed: Reading; whole: Reading }> {
  const { tags, ...header } = parse(fs.readFileSync(file, "utf8"), { schema: "failsafe" });
  const streamedTags: unknown[] = [];
  for await (const item of readTagPackItems(file)) streamedTags.push(item.tag);
  return {
    streamed: { header: await readTagPackHeader(file), tags: streamedTags },
    whole: { header, tags },
  };
}
