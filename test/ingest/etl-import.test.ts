// `import etl` against a real database (PGlite, or PostgreSQL with DATABASE_URL): ethereum-etl's own sample of
// real mainnet data (test/fixtures/ethereum-etl, test/fixtures/SOURCES.md) checked row by row against its CSV (read here with csv-parse, independently of the import's reader),
// idempotency, rejected rows with file:line reasons and nothing written, the optional files, the socket bridge of
// a running service, and the clean-up of a run left 'running' by a killed process.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { onPostgres } from "../support/database.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fixture } from "../support/fixtures.ts";
import { transferCountMismatches } from "../support/transfer-counts.ts";

const SAMPLES = fixture("ethereum-etl");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-etl-test-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Row = Record<string, string>;
const readCsv = (file: string): Row[] => parse(fs.readFileSync(file), { columns: true });
const iso = (seconds: string | number) => new Date(Number(seconds) * 1000).toISOString();

interface StoredTransfer {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_time: string;
  from_address: string;
  to_address: string;
  token: string;
  value: string;
}

async function storedTransfers(db: Database<DB>["db"], chainId = 1): Promise<StoredTransfer[]> {
  const { rows } = await sql<StoredTransfer>`
    SELECT tx_hash, log_index, block_number::text AS block_number, block_time, from_address, to_address, token,
      value::text AS value
    FROM transfers WHERE chain_id = ${chainId} ORDER BY block_number, tx_hash, log_index`.execute(db);
  return rows.map((r) => ({ ...r, block_time: new Date(r.block_time).toISOString() }));
}

/** Counts and checksums of everything the import writes. */
async function storeState(db: Database<DB>["db"]) {
  const { rows } = await sql<Record<string, string>>`
    SELECT
      (SELECT count(*) FROM transfers)::text AS transfers,
      (SELECT coalesce(sum(value), 0) FROM transfers)::text AS value_sum,
      (SELECT count(*) FROM blocks)::text AS blocks,
      (SELECT count(*) FROM tokens)::text AS tokens,
      (SELECT count(*) FROM address_facts)::text AS facts,
      (SELECT count(*) FROM address_facts WHERE is_contract)::text AS contracts,
      (SELECT coalesce(sum(first_seen_block), 0) FROM address_facts)::text AS first_seen_sum`.execute(db);
  return rows[0];
}

function writeExport(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  return dir;
}

const A = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const H = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const TX_HEADER =
  "hash,block_number,block_timestamp,transaction_index,from_address,to_address,value,input,receipt_status";
const tx = (n: number, over: Partial<Record<string, string>> = {}) => {
  const row = {
    hash: H(n),
    block_number: "100",
    block_timestamp: "1700000000",
    transaction_index: String(n),
    from_address: A(1),
    to_address: A(2),
    value: "1000",
    input: "0x",
    receipt_status: "1",
    ...over,
  };
  return Object.values(row).join(",");
};

describe("import etl", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeEach(async () => {
    database = await openTestDatabase();
    return () => database.drop();
  });

  it("imports the ethereum-etl sample exactly as its CSV says", async () => {
    const summary = await importEtl(database, { chainId: 1, dir: SAMPLES });

    // What the CSV files say, read independently.
    const files = fs.readdirSync(SAMPLES).sort();
    const txRows = files
      .filter((f) => f.includes("_transactions_"))
      .flatMap((f) => readCsv(path.join(SAMPLES, f)));
    const timeOfBlock = new Map(txRows.map((r) => [r.block_number, iso(r.block_timestamp as string)]));
    const expectedNative = txRows
      .filter((r) => r.value !== "0")
      .map((r) => ({
        tx_hash: r.hash,
        log_index: -1,
        block_number: r.block_number,
        block_time: iso(r.block_timestamp as string),
        from_address: r.from_address,
        to_address: r.to_address,
        token: "native",
        value: r.value,
      }));
    const ttRows = files
      .filter((f) => f.includes("_token_transfers_"))
      .flatMap((f) => readCsv(path.join(SAMPLES, f)));
    const expectedToken = ttRows
      .filter((r) => timeOfBlock.has(r.block_number as string))
      .map((r) => ({
        tx_hash: r.transaction_hash,
        log_index: Number(r.log_index),
        block_number: r.block_number,
        block_time: timeOfBlock.get(r.block_number as string),
        from_address: r.from_address,
        to_address: r.to_address,
        token: r.token_address,
        value: r.value,
      }));
    const byKey = (a: StoredTransfer | Row, b: StoredTransfer | Row) =>
      Number(a.block_number) - Number(b.block_number) ||
      String(a.tx_hash).localeCompare(String(b.tx_hash)) ||
      Number(a.log_index) - Number(b.log_index);
    const expected = [...expectedNative, ...expectedToken].sort(byKey as never);

    const stored = await storedTransfers(database.db);
    expect(stored.sort(byKey as never)).toEqual(expected);
    expect(stored).toHaveLength(143);
    expect(summary).toMatchObject({
      rows: { blocks: 2, transactions: 306, token_transfers: 4, logs: 2, tokens: 0, contracts: 0 },
      transfers: { native: 141, token: 4, written: 143 },
      // The sample's logs are two token Transfers: no bridge event.
      bridges: { transactions: 0, legs: 0, skipped_events: 0, without_time: 0 },
      skipped: {
        failed_transactions: 0,
        zero_value_transactions: 165,
        creations_without_address: 0,
        transfers_without_time: 2,
      },
      first_without_time: "ethereum_etl_token_transfers_extract_sample.csv:2 (block 1452581)",
      ignored_files: ["ethereum_etl_receipts_sample.csv"],
    });

    // A few rows by hand.
    expect(stored.find((t) => t.tx_hash.startsWith("0x99f1097a"))).toEqual({
      tx_hash: "0x99f1097abd8f33a68f0ed63d60de5f3e7e2a3e0579b90d5f46a4f201c658b46d",
      log_index: -1,
      block_number: "47218",
      block_time: "2015-08-07T08:31:25.000Z",
      from_address: "0x1406854d149e081ac09cb4ca560da463f3123059",
      to_address: "0xa0e74ae010d51894734c308d612131056bb721ad",
      token: "native",
      value: "110000000000000000000",
    });
    expect(stored.find((t) => t.tx_hash.startsWith("0x04cbcb23"))).toEqual({
      tx_hash: "0x04cbcb236043d8fb7839e07bbc7f5eed692fb2ca55d897f1101eac3e3ad4fab8",
      log_index: 0,
      block_number: "483920",
      block_time: iso(1446561880),
      from_address: "0x1b63142628311395ceafeea5667e7c9026c862ca",
      to_address: "0xac4df82fe37ea2187bc8c011a23d743b4f39019a",
      token: "0xf4eced2f682ce333f96f2d8966c613ded8fc95dd",
      value: "100000",
    });
    const { rows: blocks } = await sql<{
      number: string;
      hash: string;
      parent_hash: string;
      timestamp: string;
    }>`
      SELECT number::text AS number, hash, parent_hash, timestamp FROM blocks WHERE chain_id = 1 ORDER BY number`.execute(
      database.db,
    );
    expect(blocks.map((b) => ({ ...b, timestamp: new Date(b.timestamp).toISOString() }))).toEqual([
      {
        number: "17173049",
        hash: "0xaa5ab9bb22d8020d438496a7edb4eff508b1c5128b0dc01fdecf57f96aac1bb3",
        parent_hash: "0x918a700a8e7a9f3fe0b3ccb176c810ded08729331ceef8d6375af5d1eeeaa6c0",
        timestamp: iso(1683029999),
      },
      {
        number: "17173050",
        hash: "0x5699ffb9477f70ec736463b144614356eb051936da75fcccec73d648f2e91de4",
        parent_hash: "0xaa5ab9bb22d8020d438496a7edb4eff508b1c5128b0dc01fdecf57f96aac1bb3",
        timestamp: iso(1683030011),
      },
    ]);
    // First seen: the earliest block each address took part in.
    const { rows: facts } = await sql<{ first_seen_block: string; first_seen_at: string }>`
      SELECT first_seen_block::text AS first_seen_block, first_seen_at FROM address_facts
      WHERE chain_id = 1 AND address = '0x1406854d149e081ac09cb4ca560da463f3123059'`.execute(database.db);
    expect(facts.map((f) => [f.first_seen_block, new Date(f.first_seen_at).toISOString()])).toEqual([
      ["47218", "2015-08-07T08:31:25.000Z"],
    ]);
    const { rows: runs } = await sql<{
      kind: string;
      status: string;
      rows_read: string;
      rows_written: string;
    }>`
      SELECT kind, status, rows_read::text AS rows_read, rows_written::text AS rows_written FROM import_runs`.execute(
      database.db,
    );
    // 2 blocks, 306 transactions, 4 token transfers and 2 logs.
    expect(runs).toEqual([{ kind: "etl", status: "completed", rows_read: "314", rows_written: "143" }]);
  });

  it("changes nothing when the same export is imported twice", async () => {
    const first = await importEtl(database, { chainId: 1, dir: SAMPLES });
    const before = await storeState(database.db);
    const second = await importEtl(database, { chainId: 1, dir: SAMPLES });
    expect(await storeState(database.db)).toEqual(before);
    expect(first.transfers.written).toBe(143);
    expect(second.transfers.written).toBe(0);
    expect(before).toMatchObject({ transfers: "143", blocks: "2" });
    const { rows } = await sql<{ status: string }>`SELECT status FROM import_runs ORDER BY id`.execute(
      database.db,
    );
    expect(rows.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  it("counts each address's transfers once, across overlapping imports in batches", async () => {
    // The first 150 transactions of the block, then the whole sample in batches of 40: the batches that overlap
    // go the idempotent way and count only what they insert; the later ones the COPY way again.
    const transactions = fs
      .readFileSync(path.join(SAMPLES, "ethereum_etl_transactions_block17173049.csv"), "utf8")
      .split("\n");
    const part = writeExport("part", {
      "ethereum_etl_transactions_block17173049.csv": `${transactions.slice(0, 151).join("\n")}\n`,
    });
    const first = await importEtl(database, { chainId: 1, dir: part });
    expect(await transferCountMismatches(database.db)).toEqual([]);
    const second = await importEtl(database, { chainId: 1, dir: SAMPLES, batchRows: 40 });
    expect(first.transfers.written + second.transfers.written).toBe(143);
    expect(await transferCountMismatches(database.db)).toEqual([]);
    const { rows } = await sql<{ sent: string; received: string }>`
      SELECT sum(transfers_out)::text AS sent, sum(transfers_in)::text AS received FROM address_facts`.execute(
      database.db,
    );
    expect(rows).toEqual([{ sent: "143", received: "143" }]);
  });

  it("reads blocks, tokens and contracts, both timestamp forms, and skips what moved nothing", async () => {
    const dir = writeExport("full", {
      "blocks.csv": `timestamp,number,hash,parent_hash,withdrawals\n1700000000,100,${H(0xb100)},${H(0xb099)},"{""a"":1},{""b"":2}"\n1700000012,101,${H(0xb101)},${H(0xb100)},\n`,
      "transactions.csv": [
        "hash,block_number,block_timestamp,transaction_index,from_address,to_address,value,input,receipt_status,receipt_contract_address",
        `${H(1)},100,2023-11-14 22:13:20 UTC,0,0x${A(0xabcdef).slice(2).toUpperCase()},${A(2)},5000,0x,1,`,
        `${H(2)},100,1700000000,1,${A(1)},${A(3)},7,0x,0,`, // failed: no transfer
        `${H(3)},100,1700000000,2,${A(1)},${A(4)},0,0xa9059cbb,1,`, // zero value: no transfer
        `${H(4)},101,,0,${A(5)},,9,0x6080,1,${A(6)}`, // creation with value: to the new contract, time from blocks.csv
        `${H(5)},101,,1,${A(5)},,0,0x6080,1,`, // creation without address nor value
      ].join("\n"),
      "token_transfers.csv": `token_address,from_address,to_address,value,transaction_hash,log_index,block_number\n${A(7)},${A(1)},${A(8)},0,${H(3)},4,100\n${A(7)},${A(8)},${A(9)},123456789012345678901234567890,${H(3)},5,101\n`,
      "tokens.csv": `address,symbol,name,decimals,total_supply\n${A(7)},"TK,1","Token ""one""",6,1000\n${A(7)},OTHER,Other,8,1\n${A(10)},BAD,Broken,99999999999999,0\n`,
      "contracts.csv": `address,bytecode,is_erc20\n${A(7)},0x6080,true\n`,
    });
    const summary = await importEtl(database, { chainId: 137, dir });
    expect(summary).toMatchObject({
      transfers: { native: 2, token: 2, written: 4 },
      skipped: { failed_transactions: 1, zero_value_transactions: 2, creations_without_address: 0 },
    });
    const stored = await storedTransfers(database.db, 137);
    expect(
      stored.map((t) => [
        t.tx_hash,
        t.log_index,
        t.block_time,
        t.from_address,
        t.to_address,
        t.token,
        t.value,
      ]),
    ).toEqual([
      [H(1), -1, iso(1700000000), A(0xabcdef), A(2), "native", "5000"],
      [H(3), 4, iso(1700000000), A(1), A(8), A(7), "0"],
      [H(3), 5, iso(1700000012), A(8), A(9), A(7), "123456789012345678901234567890"],
      [H(4), -1, iso(1700000012), A(5), A(6), "native", "9"],
    ]);
    const { rows: tokens } = await sql<{
      address: string;
      symbol: string;
      name: string;
      decimals: number | null;
    }>`
      SELECT address, symbol, name, decimals FROM tokens WHERE chain_id = 137 ORDER BY address`.execute(
      database.db,
    );
    expect(tokens).toEqual([
      { address: A(7), symbol: "TK,1", name: 'Token "one"', decimals: 6 },
      { address: A(10), symbol: "BAD", name: "Broken", decimals: null },
    ]);
    const { rows: contracts } = await sql<{ address: string }>`
      SELECT address FROM address_facts WHERE chain_id = 137 AND is_contract ORDER BY address`.execute(
      database.db,
    );
    expect(contracts.map((c) => c.address)).toEqual([A(6), A(7)]);
  });

  const bad: [string, Record<string, string>, string][] = [
    [
      "a bad address",
      { "transactions.csv": `${TX_HEADER}\n${tx(1)}\n${tx(2, { from_address: "0xzz" })}\n` },
      'transactions.csv:3: from_address "0xzz" is not an EVM address (0x and 40 hex digits)',
    ],
    [
      "a bad hash",
      { "transactions.csv": `${TX_HEADER}\n${tx(1, { hash: "0x1234" })}\n` },
      'transactions.csv:2: hash "0x1234" is not a hash (0x and 64 hex digits)',
    ],
    [
      "a negative value",
      { "transactions.csv": `${TX_HEADER}\n${tx(1)}\n${tx(2)}\n${tx(3, { value: "-5" })}\n` },
      'transactions.csv:4: value "-5" is not a non-negative decimal integer (wei, at most 78 digits)',
    ],
    [
      "a bad block number",
      { "transactions.csv": `${TX_HEADER}\n${tx(1, { block_number: "12a" })}\n` },
      'transactions.csv:2: block_number "12a" is not a non-negative integer below 10^18',
    ],
    [
      "a bad timestamp",
      { "transactions.csv": `${TX_HEADER}\n${tx(1, { block_timestamp: "2023-13-01 00:00:00 UTC" })}\n` },
      'transactions.csv:2: block_timestamp "2023-13-01 00:00:00 UTC" is not unix seconds nor YYYY-MM-DD HH:MM:SS UTC',
    ],
    [
      "a bad receipt status",
      { "transactions.csv": `${TX_HEADER}\n${tx(1, { receipt_status: "2" })}\n` },
      'transactions.csv:2: receipt_status "2" is not 0, 1 or empty',
    ],
    [
      "a short row",
      { "transactions.csv": `${TX_HEADER}\n${tx(1)}\n${H(9)},100\n` },
      "transactions.csv:3: 2 fields where the header has 9",
    ],
    [
      "a missing column",
      { "transactions.csv": "hash,block_number,from_address,value\n" },
      "transactions.csv:1: missing column to_address (a transactions file needs hash, block_number, from_address, to_address, value)",
    ],
    [
      "a bad row in a later file, after good transactions",
      {
        "transactions.csv": `${TX_HEADER}\n${tx(1)}\n${tx(2)}\n`,
        "token_transfers.csv": `token_address,from_address,to_address,value,transaction_hash,log_index,block_number\n${A(7)},${A(1)},${A(2)},5,${H(1)},x,100\n`,
      },
      'token_transfers.csv:2: log_index "x" is not a non-negative integer below 2^31',
    ],
    [
      "an unterminated quote",
      { "transactions.csv": `${TX_HEADER}\n${tx(1)}\n"${H(2)},100\n` },
      "transactions.csv:3: unterminated quoted field",
    ],
    [
      "a file that is empty",
      { "transactions.csv": `${TX_HEADER}\n${tx(1)}\n`, "blocks.csv": "" },
      "blocks.csv: empty file (no header row)",
    ],
  ];

  describe("bad input", () => {
    // One database for all the cases: each must leave it exactly as it was.
    let shared: Awaited<ReturnType<typeof openTestDatabase>>;
    let before: Awaited<ReturnType<typeof storeState>>;
    beforeAll(async () => {
      shared = await openTestDatabase();
      await importEtl(shared, { chainId: 1, dir: SAMPLES });
      before = await storeState(shared.db);
      return () => shared.drop();
    });

    it.each(bad)("refuses %s, naming file and line, and writes nothing", async (name, files, message) => {
      const dir = writeExport(`bad-${name.replaceAll(" ", "-")}`, files);
      const { rows: last } = await sql<{ id: string }>`SELECT max(id)::text AS id FROM import_runs`.execute(
        shared.db,
      );
      await expect(importEtl(shared, { chainId: 1, dir })).rejects.toThrow(message);
      expect(await storeState(shared.db)).toEqual(before);
      const { rows } = await sql<{ status: string; error: string | null }>`
        SELECT status, error FROM import_runs WHERE id > ${last[0]?.id} ORDER BY id`.execute(shared.db);
      // Header problems are found before a run starts; a bad row fails the run.
      expect(rows).toEqual(
        message.includes(":1: ") || message.includes("empty file")
          ? []
          : [{ status: "failed", error: message }],
      );
    });
  });

  it("marks a run left 'running' by a killed process failed on the next run", async () => {
    const { rows } = await sql<{ id: string }>`
      INSERT INTO import_runs (kind, source, status) VALUES ('etl', '/gone', 'running') RETURNING id::text AS id`.execute(
      database.db,
    );
    const killed = rows[0]?.id as string;
    // A pid that can't be alive: PIDs are below 2^22 on Linux.
    await sql`INSERT INTO etl_import_runs (run_id, chain_id, host, pid)
      VALUES (${killed}, 1, ${os.hostname()}, ${2 ** 30})`.execute(database.db);
    await importEtl(database, { chainId: 1, dir: SAMPLES });
    const { rows: runs } = await sql<{ id: string; status: string; error: string | null }>`
      SELECT id::text AS id, status, error FROM import_runs ORDER BY id`.execute(database.db);
    expect(runs.map((r) => r.status)).toEqual(["failed", "completed"]);
    expect(runs[0]?.error).toMatch(/^interrupted/);
  });
});

describe.skipIf(onPostgres)("import etl through the socket bridge of a running service", () => {
  it("imports, checks every row before writing, and commits in batches", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-etl-sock-"));
    const owner = await openDatabase<DB>({ dataDir });
    try {
      await migrate(owner);
      await owner.startSocketBridge();
      const client = await openDatabase<DB>({ dataDir });
      try {
        expect(client.kind).toBe("pglite-socket");
        const summary = await importEtl(client, { chainId: 1, dir: SAMPLES, batchRows: 50 });
        expect(summary.transfers.written).toBe(143);
        const before = await storeState(owner.db);
        expect(before?.transfers).toBe("143");
        expect((await importEtl(client, { chainId: 1, dir: SAMPLES })).transfers.written).toBe(0);
        expect(await storeState(owner.db)).toEqual(before);

        // A bad row at the very end: nothing of the good rows before it is written.
        const rows = Array.from({ length: 120 }, (_, i) => tx(1000 + i, { from_address: A(500 + i) }));
        const dir = writeExport("sock-bad", {
          "transactions.csv": `${TX_HEADER}\n${rows.join("\n")}\n${tx(2000, { value: "1.5" })}\n`,
        });
        await expect(importEtl(client, { chainId: 1, dir, batchRows: 50 })).rejects.toThrow(
          'transactions.csv:122: value "1.5" is not',
        );
        expect(await storeState(owner.db)).toEqual(before);
        // The service's own queries went on meanwhile (the socket never held PGlite for the whole import).
        expect((await owner.pglite?.query("SELECT 1 AS one"))?.rows).toEqual([{ one: 1 }]);
      } finally {
        await client.close();
      }
    } finally {
      await owner.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
