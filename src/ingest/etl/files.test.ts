// Which ethereum-etl kind a file name stands for, including the names of the shared samples.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findEtlFiles, kindOfFileName } from "./files.ts";

describe("kindOfFileName", () => {
  it.each([
    ["transactions.csv", "transactions"],
    ["TOKEN_TRANSFERS.csv", "token_transfers"],
    ["tokens.csv", "tokens"],
    ["ethereum_etl_transactions_block17173049.csv", "transactions"],
    ["ethereum_etl_transactions_blocks47218-47219.csv", "transactions"],
    ["ethereum_etl_token_transfers_block483920.csv", "token_transfers"],
    ["ethereum_etl_blocks_block17173049.csv", "blocks"],
    ["contracts_00001.csv", "contracts"],
    ["ethereum_etl_logs_sample.csv", "logs"],
    ["ethereum_etl_receipts_sample.csv", undefined],
    ["transactions.json", undefined],
    ["mytransactions.csv", undefined],
  ])("%s is %s", (name, kind) => {
    expect(kindOfFileName(name)).toBe(kind);
  });

  it("lists an export in import order and refuses one without transactions", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-etl-files-"));
    for (const name of [
      "tokens.csv",
      "transactions_b.csv",
      "transactions_a.csv",
      "blocks.csv",
      "logs.csv",
      "receipts.csv",
    ]) {
      fs.writeFileSync(path.join(dir, name), "x\n");
    }
    const found = findEtlFiles(dir);
    expect(found.files.map((f) => path.basename(f.path))).toEqual([
      "blocks.csv",
      "transactions_a.csv",
      "transactions_b.csv",
      "logs.csv",
      "tokens.csv",
    ]);
    expect(found.ignored).toEqual(["receipts.csv"]);
    // A Tron-kind chain's logs are not read.
    expect(findEtlFiles(dir, ["logs"]).ignored).toEqual(["logs.csv", "receipts.csv"]);
    fs.rmSync(path.join(dir, "transactions_a.csv"));
    fs.rmSync(path.join(dir, "transactions_b.csv"));
    expect(() => findEtlFiles(dir)).toThrow(/no transactions file/);
    expect(() => findEtlFiles(path.join(dir, "nope"))).toThrow(/no such directory/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
