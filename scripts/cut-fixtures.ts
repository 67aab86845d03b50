// Writes the test fixtures under test/fixtures/ from the whole public data set (labels, TagPacks, ethereum-etl
// samples, schemas; origins and licences in test/fixtures/SOURCES.md), so that `npm test` needs nothing beside
// the clone. Small files are copied as they are; the large ones are cut to what the tests assert, keeping rows
// and tags unchanged and in their original order.
//
//   node bin/run-ts.js scripts/cut-fixtures.ts [DATA_DIR]
//
// DATA_DIR is the data set's folder (with labels/, samples/, schemas/); by default VIGIA_FULL_DATA, else
// ../shared/data beside the clone, where the project's machines keep it. Running it again on the same data
// writes the same bytes; test/full-data/fixtures.test.ts checks that, and that every fixture is a faithful cut.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "csv-parse/sync";
import { EVM_CHAIN_IDS } from "../src/ingest/labels/chains.ts";
import { readTagPackItems } from "../src/ingest/labels/tagpack-scan.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Fixture paths (relative to test/fixtures) of the files copied as they are, by their path in the data set. */
export function verbatimFixtures(data: string): Record<string, string> {
  return {
    "labels/tornado_cash_contracts.csv": "labels/tornado_cash_contracts.csv",
    "schemas/graphsense_tagpack/confidence.csv": "graphsense-tagpack/confidence.csv",
    ...Object.fromEntries(
      fs.readdirSync(path.join(data, "samples")).map((name) => [`samples/${name}`, `ethereum-etl/${name}`]),
    ),
    ...Object.fromEntries(
      [
        "tornado_cash", // header inheritance onto every EVM chain, a duplicate address with a trailing space
        "exchange-wallets-binance", // BTC, Tron and BNB beacon chain addresses whose case must be kept
        "exchange-wallets-kucoin", // currencies the importer cannot place, counted by reason
        "lazarus", // category and abuse both given
        "ronin_bridge", // small: --source and --replace
        "etherscan-wordcloud-mixing_service", // a tag list indented by four spaces
      ].map((name) => [`labels/graphsense_tagpacks/${name}.yaml`, `graphsense-tagpacks/${name}.yaml`]),
    ),
  };
}

/** TagPacks cut to their first tags (the header kept whole). */
export const TAGPACK_CUTS: Record<string, number> = {
  usdt_blacklist: 100, // header-level label, category and confidence; wrapped quoted contexts
  ransomwhere: 150, // BTC addresses with abuse but no category; the Netwalker tag the test reads is the first
};

/** Writes every fixture cut from the data set in `data` into `out`; returns the paths written, relative to `out`. */
export async function cutFixtures(
  data: string,
  out: string,
  log?: (line: string) => void,
): Promise<string[]> {
  const written: string[] = [];
  const write = (relative: string, content: string | Buffer) => {
    const file = path.join(out, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    written.push(relative);
    log?.(`${relative}: ${content.toString().split("\n").length - 1} lines`);
  };
  for (const [from, to] of Object.entries(verbatimFixtures(data))) {
    write(to, fs.readFileSync(path.join(data, from)));
  }
  for (const [name, count] of Object.entries(TAGPACK_CUTS)) {
    const source = path.join(data, "labels/graphsense_tagpacks", `${name}.yaml`);
    write(`graphsense-tagpacks/${name}.yaml`, await firstTags(source, count));
  }
  write(
    "labels/risk_labels_normalized.csv",
    cutRiskLabels(path.join(data, "labels/risk_labels_normalized.csv")),
  );
  return written;
}

/**
 * The header lines and the first `count` tags of a TagPack, text unchanged. Fails on a pack with top-level keys
 * after its tag list, which a cut by lines would lose.
 */
async function firstTags(file: string, count: number): Promise<string> {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const starts: number[] = [];
  for await (const item of readTagPackItems(file)) starts.push(item.line);
  const firstTag = starts[0];
  if (firstTag === undefined) throw new Error(`${file}: no tags`);
  const afterList = lines.slice(firstTag - 1).findIndex((line) => /^[A-Za-z_]/.test(line));
  if (afterList !== -1) throw new Error(`${file}: header fields after the tag list`);
  const end = count < starts.length ? starts[count]! - 1 : lines.length;
  const kept = lines.slice(0, end);
  return `${kept.join("\n").trimEnd()}\n`;
}

/**
 * Rows of the normalized risk labels, in file order, chosen to cover what the label tests assert: every chain
 * name's first rows (case handling, chain names, the "unspecified chain" rows the importer can or cannot place),
 * each category's first rows, the rows whose address a spreadsheet mangled, and every row that the importer folds
 * into one label with a kept row.
 */
function cutRiskLabels(file: string): string {
  const text = fs.readFileSync(file, "utf8");
  const lines = text.split("\n");
  const rows: Record<string, string>[] = parse(text, { columns: true });
  const EVM_NAMES = new Set(Object.keys(EVM_CHAIN_IDS));
  const keep = new Set<number>();
  const seenChain = new Map<string, number>();
  const seenCategory = new Map<string, number>();
  rows.forEach((row, index) => {
    const chain = row.chain ?? "";
    const category = row.category ?? "";
    const address = row.address ?? "";
    const chainCount = seenChain.get(chain) ?? 0;
    seenChain.set(chain, chainCount + 1);
    const categoryCount = seenCategory.get(category) ?? 0;
    seenCategory.set(category, categoryCount + 1);
    if (chainCount < 3 || categoryCount < 15) keep.add(index);
    if (chain.includes("unspecified")) keep.add(index);
    if (EVM_NAMES.has(chain) && !/^0x[0-9a-fA-F]{40}$/.test(address)) keep.add(index);
  });
  // Rows the label tests read by address.
  const named = ["0x12d66f87a04a9e220743712ce6d9bb1b5616b8fc"];
  rows.forEach((row, index) => {
    if (named.includes(row.address ?? "")) keep.add(index);
  });
  // Every row that shares a kept row's address (in any case), category and source: the importer folds such rows
  // into one label, whichever chain name they carry.
  const foldKey = (row: Record<string, string>) =>
    `${row.address?.toLowerCase()} ${row.category} ${row.source}`;
  const keptKeys = new Set([...keep].map((index) => foldKey(rows[index]!)));
  rows.forEach((row, index) => {
    if (keptKeys.has(foldKey(row))) keep.add(index);
  });
  // csv-parse's row index is the line index minus the header, as no field of this file spans lines.
  if (rows.length !== lines.filter((line) => line !== "").length - 1)
    throw new Error(`${file}: multi-line rows`);
  const kept = [lines[0], ...[...keep].sort((a, b) => a - b).map((index) => lines[index + 1])];
  return `${kept.join("\n")}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const data = path.resolve(
    process.argv[2] ?? process.env.VIGIA_FULL_DATA ?? path.join(ROOT, "../shared/data"),
  );
  if (!fs.existsSync(path.join(data, "labels"))) {
    process.stderr.write(`cut-fixtures: ${data} has no labels/ folder; pass the data set's folder\n`);
    process.exit(1);
  }
  await cutFixtures(data, path.join(ROOT, "test/fixtures"), (line) =>
    process.stderr.write(`test/fixtures/${line}\n`),
  );
}
