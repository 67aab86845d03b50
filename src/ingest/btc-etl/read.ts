// Reads a bitcoin-etl export (the blockchain-etl project's `export_blocks_and_transactions`: JSON lines, one block
// or transaction per line, as its README's schema defines them) into the ethereum-etl import's batches, so that
// both imports share the sessions, runs, block times and writers (src/ingest/etl). Files are found by name, in the
// directory and the Hive-style partitions bitcoin-etl writes (`blocks/start_block=…/blocks_….json`): blocks first,
// then transactions, each in name order. Every line is checked; the first bad one stops the read with
// `file:line: reason`. Addresses are read with the chain's network (src/chains/address/bitcoin.ts); transactions
// become transfers by project.ts.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { BitcoinNetwork } from "../../chains/address/index.ts";
import {
  type BtcPartRead,
  type BtcTransactionRead,
  bitcoinPart,
  projectBitcoinTransaction,
} from "../../chains/bitcoin/index.ts";
import { type Batch, emptyBatch } from "../etl/batch.ts";
import { EtlInputError, shown } from "../etl/errors.ts";
import type { EtlFile, EtlFiles } from "../etl/files.ts";
import type { ReadCounts } from "../etl/read.ts";

const KINDS = ["blocks", "transactions"] as const;

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The export's files: `.json` files whose name has "blocks" or "transactions" as a word; the rest ignored. */
export function findBtcEtlFiles(dir: string): EtlFiles {
  if (!fs.existsSync(dir)) throw new Error(`${dir}: no such directory`);
  if (!fs.statSync(dir).isDirectory())
    throw new Error(`${dir}: not a directory (give the export's directory)`);
  const files: EtlFile[] = [];
  const ignored: string[] = [];
  for (const file of walk(dir)) {
    const name = path.basename(file).toLowerCase();
    const kind = name.endsWith(".json")
      ? KINDS.find((k) => new RegExp(`(^|[^a-z])${k}($|[^a-z])`).test(name.slice(0, -5)))
      : undefined;
    if (kind) files.push({ kind, path: file });
    else ignored.push(path.relative(dir, file));
  }
  files.sort((a, b) => KINDS.indexOf(a.kind as "blocks") - KINDS.indexOf(b.kind as "blocks"));
  if (!files.some((f) => f.kind === "transactions")) {
    throw new Error(
      `${dir}: no transactions file (transactions.json, or a .json file with "transactions" in its name)`,
    );
  }
  return { files, ignored };
}

const HASH = /^[0-9a-f]{64}$/;

class LineError extends Error {}

function field<T>(
  row: Record<string, unknown>,
  name: string,
  check: (v: unknown) => v is T,
  what: string,
): T {
  const value = row[name];
  if (!check(value))
    throw new LineError(
      `${name} ${value === undefined ? "is missing" : `${shown(JSON.stringify(value))} is not ${what}`}`,
    );
  return value;
}
const isWhole = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isHash = (v: unknown): v is string => typeof v === "string" && HASH.test(v.toLowerCase());
const isBoolean = (v: unknown): v is boolean => typeof v === "boolean";
const isArray = (v: unknown): v is unknown[] => Array.isArray(v);

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export interface BitcoinReadOptions {
  batchRows: number;
  counts: ReadCounts;
  network: BitcoinNetwork;
}

/** A part's single address of the chain's network (bitcoin-etl's `addresses` of one), or null. */
function addressOf(part: Record<string, unknown>): string | null {
  const list = part.addresses;
  return Array.isArray(list) && list.length === 1 && typeof list[0] === "string" ? list[0] : null;
}

function parts(
  row: Record<string, unknown>,
  name: "inputs" | "outputs",
  network: BitcoinNetwork,
): BtcPartRead[] {
  return field(row, name, isArray, "a list").map((p, i) => {
    if (typeof p !== "object" || p === null) throw new LineError(`${name}[${i}] is not an object`);
    const part = p as Record<string, unknown>;
    if (name === "inputs" && part.value === null) {
      throw new LineError(
        `inputs[${i}].value is null: the export is not enriched (bitcoin-etl fills inputs' values and addresses ` +
          "with enrich_transactions, or stream / export_all with enrichment on)",
      );
    }
    const value = field(part, "value", isWhole, `a number of satoshis (${name}[${i}])`);
    return bitcoinPart(addressOf(part), part.type === "nulldata", BigInt(value), network);
  });
}

function transaction(row: Record<string, unknown>, network: BitcoinNetwork): BtcTransactionRead {
  return {
    hash: field(row, "hash", isHash, "a transaction hash (64 hex digits)").toLowerCase(),
    block: String(field(row, "block_number", isWhole, "a block number")),
    time: iso(field(row, "block_timestamp", isWhole, "a unix time in seconds")),
    coinbase: row.is_coinbase === undefined ? false : field(row, "is_coinbase", isBoolean, "true or false"),
    inputs: parts(row, "inputs", network),
    outputs: parts(row, "outputs", network),
  };
}

/** Yields batches of checked rows; a batch never spans two files. `counts` is kept up to date as rows are read. */
export async function* readBtcExport(files: EtlFile[], options: BitcoinReadOptions): AsyncGenerator<Batch> {
  const { counts } = options;
  for (const file of files) {
    counts.file = path.basename(file.path);
    let batch = emptyBatch();
    let line = 0;
    const lines = readline.createInterface({
      input: fs.createReadStream(file.path),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const text of lines) {
      line++;
      if (text.trim() === "") continue;
      try {
        let row: Record<string, unknown>;
        try {
          row = JSON.parse(text) as Record<string, unknown>;
        } catch {
          throw new LineError("is not a JSON object (bitcoin-etl writes one per line)");
        }
        if (typeof row !== "object" || row === null || Array.isArray(row))
          throw new LineError("is not a JSON object");
        if (file.kind === "blocks") {
          const number = String(field(row, "number", isWhole, "a block number"));
          const time = iso(field(row, "timestamp", isWhole, "a unix time in seconds"));
          batch.blocks.push({
            number,
            hash: field(row, "hash", isHash, "a block hash").toLowerCase(),
            parentHash: null,
            time,
          });
          batch.blockTimes.set(number, time);
        } else {
          const tx = transaction(row, options.network);
          batch.blockTimes.set(tx.block, tx.time);
          const projected = projectBitcoinTransaction(tx);
          if (projected.utxo) batch.utxo.push(projected.utxo);
          if (projected.coinbase) counts.bitcoin.coinbase++;
          if (projected.mixer) {
            counts.bitcoin.coinjoins++;
            batch.hubLabels.push(projected.mixer);
          } else if (projected.large) counts.bitcoin.large++;
          counts.bitcoin.withoutAddress += projected.withoutAddress;
          for (const t of projected.transfers)
            batch.transfers.push({ file: files.indexOf(file), line, row: t });
          counts.nativeTransfers += projected.transfers.length;
        }
      } catch (error) {
        if (error instanceof LineError) throw new EtlInputError(file.path, line, error.message);
        throw error;
      }
      counts.rows[file.kind]++;
      batch.rows++;
      if (batch.rows >= options.batchRows) {
        yield batch;
        batch = emptyBatch();
      }
    }
    if (batch.rows > 0) yield batch;
  }
}
