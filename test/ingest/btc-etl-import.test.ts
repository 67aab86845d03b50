// `import btc-etl` against a real database (PGlite, or PostgreSQL with DATABASE_URL): bitcoin-etl's own sample of
// mainnet blocks 50,001-50,002 (test/fixtures/bitcoin-etl, test/fixtures/SOURCES.md) becomes the transfers its
// transactions project to, with its blocks and times; importing twice changes nothing; a segwit export on testnet
// is read with its network's addresses (another network's count as none); a bad line fails with file:line; and a
// Bitcoin chain takes only bitcoin-etl exports, which only a Bitcoin chain takes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bech32 } from "@scure/base";
import { sql } from "kysely";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fixture } from "../support/fixtures.ts";

const SAMPLE = fixture("bitcoin-etl");
const CHAIN = 177_005_167;
const TESTNET = 1_467_959_619;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-btc-etl-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A P2WPKH address of `hrp` whose 20-byte program is `n` repeated. */
const p2wpkh = (hrp: string, n: number) =>
  bech32.encode(hrp, [0, ...bech32.toWords(new Uint8Array(20).fill(n))]);

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeEach(async () => {
  database = await openTestDatabase();
});
afterEach(async () => database.drop());

async function stored(chainId: number) {
  const { rows } = await sql<{
    tx_hash: string;
    from_address: string;
    to_address: string;
    value: string;
    block_time: Date;
  }>`
    SELECT tx_hash, from_address, to_address, value::text AS value, block_time FROM transfers
    WHERE chain_id = ${chainId} ORDER BY tx_hash, log_index`.execute(database.db);
  return rows.map((r) => ({ ...r, block_time: new Date(r.block_time).toISOString() }));
}

describe("import btc-etl", () => {
  it("projects bitcoin-etl's sample into transfers, with its blocks, and changes nothing the second time", async () => {
    const summary = await importEtl(database, {
      chainId: CHAIN,
      chainKind: "bitcoin",
      format: "bitcoin-etl",
      dir: SAMPLE,
    });
    expect(summary).toMatchObject({
      files: ["blocks.json", "transactions.json"],
      rows: { blocks: 2, transactions: 4 },
      transfers: { native: 3, token: 0, written: 3 },
      bitcoin: { coinbase_transactions: 2, parts_without_address: 0, coinjoins: 0, large_transactions: 0 },
    });
    const at = "2010-04-10T16:31:40.000Z"; // block 50,001's timestamp 1270917100
    expect(await stored(CHAIN)).toEqual([
      // Two inputs of 50 BTC into one output of 100 BTC: each pays its whole value.
      {
        tx_hash: "7940cdde4d713e171849efc6bd89939185be270266c94e92369e3877ad89455a",
        from_address: "1DoQeKfU3dYhN9bxMpFFcVUnufCPDqSPae",
        to_address: "1HaHTfmvoUW6i6nhJf8jJs6tU4cHNmBQHQ",
        value: "5000000000",
        block_time: at,
      },
      {
        tx_hash: "7940cdde4d713e171849efc6bd89939185be270266c94e92369e3877ad89455a",
        from_address: "1PZMgkF2x161qvfP7dhoWSEEU3SjnQE1m9",
        to_address: "1HaHTfmvoUW6i6nhJf8jJs6tU4cHNmBQHQ",
        value: "5000000000",
        block_time: at,
      },
      {
        tx_hash: "f84761459a00c6df3176ae5d94c99e69f25100d09548e5686bd0c354bb8cc60a",
        from_address: "18dxbN6m8zxieN8F9BchXmhbeXUdFLr8fD",
        to_address: "1HaHTfmvoUW6i6nhJf8jJs6tU4cHNmBQHQ",
        value: "5000000000",
        block_time: at,
      },
    ]);
    const { rows: blocks } = await sql<{ number: string; hash: string }>`
      SELECT number::text AS number, hash FROM blocks WHERE chain_id = ${CHAIN} ORDER BY number`.execute(
      database.db,
    );
    expect(blocks).toEqual([
      { number: "50001", hash: "000000001c920d495e1eeef2452b6d1c6c229a919b28196c103ecffebabee141" },
      { number: "50002", hash: "000000002066d7f9b134c30b5005b7bf5fbfa52f279883f1fde793dcdc964266" },
    ]);
    const again = await importEtl(database, {
      chainId: CHAIN,
      chainKind: "bitcoin",
      format: "bitcoin-etl",
      dir: SAMPLE,
    });
    expect(again.transfers.written).toBe(0);
    expect(await stored(CHAIN)).toHaveLength(3);
  });

  it("reads a testnet export with its network's addresses; another network's count as no address", async () => {
    const dir = path.join(tmp, "testnet");
    fs.mkdirSync(path.join(dir, "transactions", "start_block=00000100"), { recursive: true });
    const [a, b, x] = [1, 2, 3].map((n) => p2wpkh("tb", n));
    const mainnet = p2wpkh("bc", 4);
    const tx = {
      hash: "cd".repeat(32),
      block_number: 100,
      block_timestamp: 1_700_000_000,
      is_coinbase: false,
      inputs: [
        { addresses: [a], value: 3_000 },
        { addresses: [b], value: 1_000 },
      ],
      outputs: [
        { addresses: [x], value: 2_500 },
        { addresses: [mainnet], value: 1_400 },
      ],
    };
    // Hive-style partitions, as bitcoin-etl writes them.
    fs.writeFileSync(
      path.join(dir, "transactions", "start_block=00000100", "transactions_00000100.json"),
      `${JSON.stringify(tx)}\n`,
    );
    const summary = await importEtl(database, {
      chainId: TESTNET,
      chainKind: "bitcoin",
      bitcoinNetwork: "testnet",
      format: "bitcoin-etl",
      dir,
    });
    expect(summary.bitcoin).toEqual({
      coinbase_transactions: 0,
      parts_without_address: 1,
      coinjoins: 0,
      large_transactions: 0,
      // Its two inputs of the network's: one cluster.
      clusters: { written: 1, merged_away: 0 },
    });
    expect((await stored(TESTNET)).map((t) => [t.from_address, t.to_address, t.value])).toEqual([
      [a, x, "1875"],
      [b, x, "625"],
    ]);
  });

  it("names the file and line of a bad row, and keeps each kind of chain to its kind of export", async () => {
    const dir = path.join(tmp, "bad");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, "transactions.json"),
      `${JSON.stringify({ hash: "ef".repeat(32), block_number: 1, block_timestamp: 1, inputs: [], outputs: [] })}\n{"hash": 5}\n`,
    );
    await expect(
      importEtl(database, { chainId: CHAIN, chainKind: "bitcoin", format: "bitcoin-etl", dir }),
    ).rejects.toThrow(/^transactions\.json:2: hash "5" is not a transaction hash/);
    await expect(importEtl(database, { chainId: CHAIN, chainKind: "bitcoin", dir: SAMPLE })).rejects.toThrow(
      /is a Bitcoin chain: its exports are bitcoin-etl's, read by vigia import btc-etl/,
    );
    await expect(
      importEtl(database, { chainId: 1, chainKind: "evm", format: "bitcoin-etl", dir: SAMPLE }),
    ).rejects.toThrow(/chain 1 is not a Bitcoin chain \(its kind is evm\)/);
  });
});
