// `import etl` on a Tron chain (728126428), on a real database (PGlite, or PostgreSQL with DATABASE_URL): a
// tronetl-format export (test/ingest/tron-fixtures, synthesised; its README says how) is stored in the 0x form the
// whole service uses, checked row by row against its CSV (read here with csv-parse and Node's own base58 decoding,
// independently of the import's reader); a re-import changes nothing; hex addresses (41 or 0x) and 0x hashes are read
// too; a mistyped base58 address fails the import naming file, line, column and the checksum, with nothing written.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import type { Database } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { openTestDatabase } from "../support/db-only.ts";

const EXPORT = new URL("./tron-fixtures/", import.meta.url).pathname;
const USDT = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c"; // TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t
const BINANCE = "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e"; // TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-tron-etl-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Row = Record<string, string>;
const readCsv = (file: string): Row[] => parse(fs.readFileSync(path.join(EXPORT, file)), { columns: true });

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** Base58check decoded with BigInt and node:crypto (not the service's codec): 0x + the 20 bytes after 0x41. */
function hexOf(base58: string): string {
  let n = 0n;
  for (const c of base58) n = n * 58n + BigInt(ALPHABET.indexOf(c));
  const bytes = Buffer.from(n.toString(16).padStart(50, "0"), "hex");
  const check = crypto
    .createHash("sha256")
    .update(crypto.createHash("sha256").update(bytes.subarray(0, 21)).digest())
    .digest();
  expect(bytes.subarray(21).equals(check.subarray(0, 4)), base58).toBe(true);
  expect(bytes[0]).toBe(0x41);
  return `0x${bytes.subarray(1, 21).toString("hex")}`;
}

interface Stored {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: string;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
}

async function storedTransfers(db: Database<DB>["db"]): Promise<Stored[]> {
  const { rows } = await sql<Stored>`
    SELECT tx_hash, log_index, block_number::text AS block_number, block_time, from_address, to_address, token,
      value::text AS value
    FROM transfers WHERE chain_id = ${TRON_MAINNET_ID} ORDER BY block_number, tx_hash, log_index`.execute(db);
  return rows.map((r) => ({ ...r, block_time: new Date(r.block_time).toISOString() }));
}

async function storeState(db: Database<DB>["db"]) {
  const { rows } = await sql<Record<string, string>>`
    SELECT
      (SELECT count(*) FROM transfers)::text AS transfers,
      (SELECT coalesce(sum(value), 0) FROM transfers)::text AS value_sum,
      (SELECT count(*) FROM blocks)::text AS blocks,
      (SELECT count(*) FROM tokens)::text AS tokens,
      (SELECT count(*) FROM address_facts)::text AS facts`.execute(db);
  return rows[0];
}

function writeExport(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();

describe("import etl on Tron", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeEach(async () => {
    database = await openTestDatabase();
    return () => database.drop();
  });

  it("stores a tronetl export in the 0x form, exactly as its CSV says, and a re-import changes nothing", async () => {
    // No chain kind given: the built-in chain list says 728126428 is a Tron chain.
    const summary = await importEtl(database, { chainId: TRON_MAINNET_ID, dir: EXPORT });
    expect(summary).toMatchObject({
      chain_id: TRON_MAINNET_ID,
      files: ["blocks.csv", "transactions.csv", "token_transfers.csv", "tokens.csv"],
      ignored_files: ["README.md", "exchange-wallets-binance-trx.yaml", "sdn_tron.xml", "trc10.csv"],
      rows: { blocks: 20, transactions: 22, token_transfers: 15, tokens: 1, contracts: 0 },
      transfers: { native: 6, token: 15, written: 21 },
      skipped: {
        failed_transactions: 1, // the REVERTed call
        zero_value_transactions: 15, // the USDT transfer calls: their value is in token_transfers.csv
        creations_without_address: 0,
        transfers_without_time: 0,
      },
    });

    // What the files say, read independently.
    const timeOf = new Map(readCsv("blocks.csv").map((b) => [b.number, iso(b.timestamp as string)]));
    const native = readCsv("transactions.csv")
      .filter((t) => t.value !== "0" && t.Status === "SUCCESS")
      .map((t) => ({
        tx_hash: `0x${t.hash}`,
        log_index: -1,
        block_number: t.block_number as string,
        block_time: iso(t.block_timestamp as string),
        from_address: hexOf(t.from_address as string),
        to_address: hexOf(t.to_address as string),
        token: "native",
        value: t.value as string,
      }));
    const tokens = readCsv("token_transfers.csv").map((t) => ({
      tx_hash: `0x${t.transaction_hash}`,
      log_index: Number(t.log_index),
      block_number: t.block_number as string,
      block_time: timeOf.get(t.block_number as string) as string,
      from_address: hexOf(t.from_address as string),
      to_address: hexOf(t.to_address as string),
      token: hexOf(t.token_address as string),
      value: t.value as string,
    }));
    const byKey = (a: Stored, b: Stored) =>
      Number(a.block_number) - Number(b.block_number) ||
      (a.tx_hash < b.tx_hash ? -1 : a.tx_hash > b.tx_hash ? 1 : 0) ||
      a.log_index - b.log_index;
    const stored = await storedTransfers(database.db);
    expect([...stored].sort(byKey)).toEqual([...native, ...tokens].sort(byKey));

    // A few by hand: every address is 0x + 40 lowercase hex, USDT is its contract's 0x form.
    for (const t of stored) {
      for (const a of [t.from_address, t.to_address]) expect(a).toMatch(/^0x[0-9a-f]{40}$/);
      expect(t.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(stored.filter((t) => t.token === USDT)).toHaveLength(15);
    expect(stored.find((t) => t.log_index === -1 && t.from_address === BINANCE)).toMatchObject({
      block_number: "62500000",
      block_time: "2024-06-01T00:00:00.000Z",
      to_address: "0x7afb84bbe6214c4dd90a6e17d9dc1d3c062b3438", // TMBUkGpMX4GYNvmxoroga35PMQRpsWrxKw
      value: "2000000000", // 2,000 TRX in sun
    });
    // Bob's 1,000.25 USDT into his deposit address (6 decimals).
    expect(stored.find((t) => t.token === USDT && t.value === "1000250000")).toMatchObject({
      from_address: hexOf("TGXHG6EdsBVEfNJW1sFkvnDQgapr4iVW2p"),
      to_address: hexOf("TGgGW2mfW6fhdk6xqVouQK8mYCciUq3GeB"),
      log_index: 0,
    });
    const { rows: tokenRows } = await sql<{ address: string; symbol: string; decimals: number }>`
      SELECT address, symbol, decimals FROM tokens WHERE chain_id = ${TRON_MAINNET_ID}`.execute(database.db);
    expect(tokenRows).toEqual([{ address: USDT, symbol: "USDT", decimals: 6 }]);
    const { rows: blocks } = await sql<{ hash: string; parent_hash: string }>`
      SELECT hash, parent_hash FROM blocks WHERE chain_id = ${TRON_MAINNET_ID} AND number = 62500000`.execute(
      database.db,
    );
    const firstBlock = readCsv("blocks.csv")[0] as Row;
    expect(blocks).toEqual([{ hash: `0x${firstBlock.hash}`, parent_hash: `0x${firstBlock.parent_hash}` }]);

    const before = await storeState(database.db);
    const again = await importEtl(database, { chainId: TRON_MAINNET_ID, dir: EXPORT });
    expect(again.transfers.written).toBe(0);
    expect(await storeState(database.db)).toEqual(before);
    const { rows: runs } = await sql<{ status: string }>`SELECT status FROM import_runs ORDER BY id`.execute(
      database.db,
    );
    expect(runs.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  it("reads hex addresses (41 or 0x, any case) and 0x hashes as the same rows", async () => {
    const hash = `0x${"ab".repeat(32)}`;
    const dir = writeExport("hex", {
      "transactions.csv": [
        "hash,block_number,block_timestamp,from_address,to_address,value,Status",
        `${"AB".repeat(32)},70000000,1720000000,41D1C4BB7B2F39ABA5707711719B2236B5B605AF2E,0x7afb84bbe6214c4dd90a6e17d9dc1d3c062b3438,5,SUCCESS`,
        `${"cd".repeat(32)},70000000,1720000000,TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi,TMBUkGpMX4GYNvmxoroga35PMQRpsWrxKw,7,OUT_OF_ENERGY`,
      ].join("\n"),
      "token_transfers.csv": `block_number,transaction_hash,log_index,token_address,from_address,to_address,value\n70000000,${hash},3,41a614f803b6fd780986a42c78ec9c7f77e6ded13c,TMBUkGpMX4GYNvmxoroga35PMQRpsWrxKw,0xD1C4BB7B2F39ABA5707711719B2236B5B605AF2E,9\n`,
    });
    const summary = await importEtl(database, { chainId: TRON_MAINNET_ID, dir });
    expect(summary).toMatchObject({
      transfers: { native: 1, token: 1, written: 2 },
      skipped: { failed_transactions: 1 },
    });
    expect(
      (await storedTransfers(database.db)).map((t) => [
        t.tx_hash,
        t.log_index,
        t.from_address,
        t.to_address,
        t.token,
        t.value,
      ]),
    ).toEqual([
      [hash, -1, BINANCE, "0x7afb84bbe6214c4dd90a6e17d9dc1d3c062b3438", "native", "5"],
      [hash, 3, "0x7afb84bbe6214c4dd90a6e17d9dc1d3c062b3438", BINANCE, USDT, "9"],
    ]);
  });

  it("refuses a mistyped base58 address naming file, line, column and the checksum, and writes nothing", async () => {
    await importEtl(database, { chainId: TRON_MAINNET_ID, dir: EXPORT });
    const before = await storeState(database.db);
    const lines = fs.readFileSync(path.join(EXPORT, "token_transfers.csv"), "utf8").split("\n");
    // Line 5 of the file (its 4th transfer): one letter of the recipient in the other case.
    const fields = (lines[4] as string).split(",");
    const recipient = fields[5] as string;
    const at = [...recipient].findIndex(
      (c, i) => i > 0 && swapCase(c) !== c && ALPHABET.includes(swapCase(c)),
    );
    const flipped = recipient.slice(0, at) + swapCase(recipient[at] as string) + recipient.slice(at + 1);
    fields[5] = flipped;
    lines[4] = fields.join(",");
    const dir = writeExport("bad-checksum", {
      "transactions.csv": fs.readFileSync(path.join(EXPORT, "transactions.csv"), "utf8"),
      "token_transfers.csv": lines.join("\n"),
    });
    await expect(importEtl(database, { chainId: TRON_MAINNET_ID, dir })).rejects.toThrow(
      `token_transfers.csv:5: to_address "${flipped}" has a wrong base58check checksum: a character is mistyped`,
    );
    expect(await storeState(database.db)).toEqual(before);

    // An EVM chain's import still wants EVM addresses: the chain's kind decides, not the file.
    const evm = writeExport("tron-on-evm", {
      "transactions.csv": fs.readFileSync(path.join(EXPORT, "transactions.csv"), "utf8"),
    });
    await expect(importEtl(database, { chainId: 1, dir: evm })).rejects.toThrow(
      'transactions.csv:2: hash "56f73ce7225c86bb063e074a5b1a874454b953615c30bdb435b9f06537949bcc" is not a hash (0x and 64 hex digits)',
    );
    expect(await storeState(database.db)).toEqual(before);
  });
});

function swapCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}
