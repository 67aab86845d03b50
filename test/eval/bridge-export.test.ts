// The bridge benchmark's two exports (eval/world/bridges.ts) through the real ethereum-etl import: logs.csv holds
// each token transfer's Transfer log and the bridges' events; `importEtl` keeps only the transactions with a bridge
// event, decodes their legs (in batches that split a transaction's logs too) and stores them, so that every
// delivery on the destination pairs with its deposit on the origin, a deposit towards a chain not held or a fill
// that never came stays unpaired with the reason the analysis gives, and importing again changes nothing. A
// Tron-kind chain's logs are not read; a bad log row fails with its file and line. In-memory PGlite, or PostgreSQL
// with DATABASE_URL.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BRIDGE_DESTINATION_CHAIN_ID,
  BRIDGE_ORIGIN_CHAIN_ID,
  UNHELD_CHAIN_ID,
  writeBridgeExports,
} from "../../eval/world/bridges.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { readBridgeCrossings } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-bridge-export-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

type Row = Record<string, string>;
const readCsv = (dir: string, file: string): Row[] =>
  parse(fs.readFileSync(path.join(dir, file)), { columns: true });

let out: ReturnType<typeof writeBridgeExports>;
beforeAll(() => {
  out = writeBridgeExports(tmp, { seed: 5, perPattern: 8, users: 60, transfers: 600 });
});

describe("bridge benchmark export", () => {
  it("writes a Transfer log for each token transfer and the bridges' events after them", () => {
    for (const dir of [out.originDir, out.destinationDir]) {
      const logs = readCsv(dir, "logs.csv");
      const transfers = readCsv(dir, "token_transfers.csv");
      const transferLogs = logs.filter((l) => l.topics?.startsWith(TRANSFER_TOPIC));
      expect(transferLogs).toHaveLength(transfers.length);
      expect(logs.length).toBeGreaterThan(transfers.length);
      // Log indexes run 0, 1, ... within each transaction.
      const byTx = new Map<string, number[]>();
      for (const l of logs)
        byTx.set(l.transaction_hash as string, [
          ...(byTx.get(l.transaction_hash as string) ?? []),
          Number(l.log_index),
        ]);
      for (const indexes of byTx.values()) expect(indexes).toEqual(indexes.map((_, i) => i));
    }
  });

  it("imports both chains' legs, pairs every delivery with its deposit, and leaves the gaps unpaired", async () => {
    const database = await openTestDatabase();
    try {
      // Batches of 7 rows: a transaction's logs are split across batches.
      const origin = await importEtl(database, {
        chainId: BRIDGE_ORIGIN_CHAIN_ID,
        dir: out.originDir,
        batchRows: 7,
      });
      const destination = await importEtl(database, {
        chainId: BRIDGE_DESTINATION_CHAIN_ID,
        dir: out.destinationDir,
      });
      const events = (dir: string) =>
        readCsv(dir, "logs.csv").filter((l) => !l.topics?.startsWith(TRANSFER_TOPIC));
      const originTxs = new Set(events(out.originDir).map((l) => l.transaction_hash)).size;
      const destinationTxs = new Set(events(out.destinationDir).map((l) => l.transaction_hash)).size;
      // One leg per transaction: CCTP's MessageSent and MintAndWithdraw complete their transaction's leg.
      expect(origin.bridges).toEqual({
        transactions: originTxs,
        legs: originTxs,
        skipped_events: 0,
        without_time: 0,
      });
      expect(destination.bridges).toEqual({
        transactions: destinationTxs,
        legs: destinationTxs,
        skipped_events: 0,
        without_time: 0,
      });
      expect(origin.ignored_files).toEqual(["cases.json", "labels.csv", "prices.csv"]);

      const { rows } = await sql<{ chain_id: number; direction: string; protocol: string; n: number }>`
        SELECT chain_id, direction, protocol, count(*)::int AS n FROM bridge_legs
        GROUP BY chain_id, direction, protocol ORDER BY chain_id, direction, protocol`.execute(database.db);
      expect(rows.map((r) => `${r.chain_id} ${r.direction} ${r.protocol}`)).toEqual([
        `${BRIDGE_ORIGIN_CHAIN_ID} out across`,
        `${BRIDGE_ORIGIN_CHAIN_ID} out cctp`,
        `${BRIDGE_ORIGIN_CHAIN_ID} out oft`,
        `${BRIDGE_DESTINATION_CHAIN_ID} in across`,
        `${BRIDGE_DESTINATION_CHAIN_ID} in cctp`,
        `${BRIDGE_DESTINATION_CHAIN_ID} in oft`,
      ]);

      // Every delivery pairs with one deposit on the origin, from the depositor the delivery names (an OFT's
      // receipt names none).
      const recipients = (
        await sql<{
          recipient: string;
        }>`SELECT DISTINCT recipient FROM bridge_legs WHERE chain_id = ${BRIDGE_DESTINATION_CHAIN_ID}`.execute(
          database.db,
        )
      ).rows.map((r) => r.recipient);
      const delivered = await readBridgeCrossings(database.db, BRIDGE_DESTINATION_CHAIN_ID, recipients, 100);
      expect(delivered.crossings).toHaveLength(destinationTxs);
      for (const c of delivered.crossings) {
        expect(c.other?.chainId).toBe(BRIDGE_ORIGIN_CHAIN_ID);
        if (c.protocol !== "oft") expect(c.other?.sender).toBe(c.leg.sender);
        expect(c.other?.recipient === c.leg.recipient || c.protocol === "oft").toBe(true);
      }

      // The gaps: deposits towards Arbitrum One (not held) and towards the destination whose fill never came.
      const gaps = out.origin.cases.filter((c) => c.pattern === "bridge_gap");
      expect(gaps.length).toBeGreaterThan(1);
      const read = await readBridgeCrossings(
        database.db,
        BRIDGE_ORIGIN_CHAIN_ID,
        gaps.map((g) => g.subject),
        100,
      );
      for (const g of gaps) {
        const own = read.crossings.filter((c) => c.leg.sender === g.subject);
        expect(own).toHaveLength(1);
        expect(own[0]?.other).toBeUndefined();
        // An OFT send names an endpoint id; this pair's are beyond the service's table, so no chain is known.
        expect(own[0]?.otherChainId).toBe(
          { "unheld-chain": UNHELD_CHAIN_ID, "leg-missing": BRIDGE_DESTINATION_CHAIN_ID }[g.variant] ?? null,
        );
        // Held: an import gave the destination its blocks; nothing gave Arbitrum One any.
        expect(own[0]?.otherChainHeld).toBe(g.variant === "leg-missing");
      }

      // Again: nothing new.
      const count = async () =>
        (await sql<{ n: number }>`SELECT count(*)::int AS n FROM bridge_legs`.execute(database.db)).rows[0]
          ?.n;
      const before = await count();
      const again = await importEtl(database, { chainId: BRIDGE_ORIGIN_CHAIN_ID, dir: out.originDir });
      expect(again.bridges.legs).toBe(originTxs);
      expect(await count()).toBe(before);
    } finally {
      await database.drop();
    }
  });

  it("does not read a Tron-kind chain's logs, and names the line of a bad log row", async () => {
    const database = await openTestDatabase();
    try {
      const tron = await importEtl(database, { chainId: 728_999_001, chainKind: "tron", dir: out.originDir });
      expect(tron.ignored_files).toContain("logs.csv");
      expect(tron.bridges.transactions).toBe(0);

      // A file named like logs but with other columns (a tool's own log) is not read, and said so.
      const withToolLog = path.join(tmp, "tool-log");
      fs.mkdirSync(withToolLog);
      for (const file of ["transactions.csv", "blocks.csv", "logs.csv"]) {
        fs.copyFileSync(path.join(out.destinationDir, file), path.join(withToolLog, file));
      }
      fs.writeFileSync(path.join(withToolLog, "import_logs.csv"), "when,message\n2024-01-01,started\n");
      const read = await importEtl(database, { chainId: 8_453_198, dir: withToolLog });
      expect(read.not_logs_files).toEqual(["import_logs.csv"]);
      expect(read.ignored_files).toEqual(["import_logs.csv"]);
      expect(read.bridges.legs).toBeGreaterThan(0);

      const bad = path.join(tmp, "bad");
      fs.mkdirSync(bad);
      for (const file of ["transactions.csv", "blocks.csv"]) {
        fs.copyFileSync(path.join(out.originDir, file), path.join(bad, file));
      }
      const [header, first] = fs.readFileSync(path.join(out.originDir, "logs.csv"), "utf8").split("\n");
      const fields = (first as string).split(",");
      fields[6] = "0xzz";
      fs.writeFileSync(path.join(bad, "logs.csv"), `${header}\n${fields.join(",")}\n`);
      await expect(importEtl(database, { chainId: 8_453_199, dir: bad })).rejects.toThrow(
        /logs\.csv:2: data is not hex bytes/,
      );
    } finally {
      await database.drop();
    }
  });
});
