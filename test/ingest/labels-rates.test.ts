// `vigia import prices` and `vigia import fx`: exact decimals, idempotency, updates, rejected rows with file:line,
// and a key given two different values in one file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importFx, importPrices } from "../../src/ingest/prices/import-rates.ts";
import { openTestDatabase } from "../support/db-only.ts";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-rates-"));
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, lines: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";

const prices = async () =>
  (
    await database.db
      .selectFrom("prices")
      .select(["chain_id", "token", "day", "price_usd"])
      .orderBy("chain_id")
      .orderBy("token")
      .orderBy("day")
      .execute()
  ).map((row) => [row.chain_id, row.token, new Date(row.day).toISOString().slice(0, 10), row.price_usd]);

describe("import prices", () => {
  it("imports daily USD prices exactly, and a second run changes nothing", async () => {
    const file = write("prices.csv", [
      "chain_id,token,date,price_usd",
      "1,native,2024-01-01,2281.123456789012345678",
      `1,${USDC},2024-01-01,1.0001`,
      "137,NATIVE,2024-01-01,0.98",
      "1,native,2024-01-01,2281.123456789012345678",
      "1,native,2024-01-02,2352.5",
    ]);
    expect(await importPrices(database.db, file)).toMatchObject({
      import: "prices",
      rows: 5,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      rejected: 0,
    });
    expect(await prices()).toEqual([
      [1, "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "2024-01-01", "1.0001"],
      [1, "native", "2024-01-01", "2281.123456789012345678"],
      [1, "native", "2024-01-02", "2352.5"],
      [137, "native", "2024-01-01", "0.98"],
    ]);
    expect(await importPrices(database.db, file)).toMatchObject({ inserted: 0, updated: 0, unchanged: 4 });
    const changed = write("changed.csv", [
      "date,price_usd,token,chain_id",
      "2024-01-02,2352.50,native,1",
      "2024-01-02,0.97,native,137",
    ]);
    expect(await importPrices(database.db, changed)).toMatchObject({
      rows: 2,
      inserted: 1,
      updated: 0,
      unchanged: 1,
    });
    const moved = write("moved.csv", ["chain_id,token,date,price_usd", "1,native,2024-01-02,2400"]);
    expect(await importPrices(database.db, moved)).toMatchObject({ inserted: 0, updated: 1 });
  });

  it("rejects bad rows naming file:line, and conflicting values naming both lines", async () => {
    const before = await prices();
    const file = write("bad-prices.csv", [
      "chain_id,token,date,price_usd",
      "1,native,2024-03-01,3400",
      "1,native,2024-02-30,3400",
      "1,USDC,2024-03-01,1",
      "eth,native,2024-03-01,1",
      "1,native,2024-03-02,-5",
    ]);
    await expect(importPrices(database.db, file)).rejects.toThrow(
      `${file}:3: date "2024-02-30" is not a YYYY-MM-DD date (and 3 more rejected rows)`,
    );
    expect(await prices()).toEqual(before);
    const summary = await importPrices(database.db, file, { skipInvalid: true });
    expect(summary).toMatchObject({ rows: 5, inserted: 1, rejected: 4 });
    expect(summary.rejected_rows).toEqual([
      `${file}:3: date "2024-02-30" is not a YYYY-MM-DD date`,
      `${file}:4: token "USDC" is neither "native" nor a token address`,
      `${file}:5: chain_id "eth" is not an integer`,
      `${file}:6: price_usd "-5" is not a non-negative decimal number`,
    ]);
    const conflict = write("conflict.csv", [
      "chain_id,token,date,price_usd",
      "56,native,2024-03-01,580",
      "56,native,2024-03-02,590",
      "56,native,2024-03-01,581",
    ]);
    await expect(importPrices(database.db, conflict)).rejects.toThrow(
      `${conflict}:4: chain 56 native 2024-03-01 differs from line 2`,
    );
    const header = write("header.csv", ["chain_id,token,day,price_usd"]);
    await expect(importPrices(database.db, header)).rejects.toThrow(
      `${header}:1: missing column date (expected chain_id,token,date,price_usd)`,
    );
    const runs = await database.db.selectFrom("import_runs").select(["kind", "status"]).execute();
    expect(runs.filter((run) => run.status === "failed")).toHaveLength(3);
    expect(new Set(runs.map((run) => run.kind))).toEqual(new Set(["prices"]));
  });
});

describe("import fx", () => {
  it("imports units per US dollar, idempotently, and rejects bad rows", async () => {
    const file = write("fx.csv", [
      "date,currency,per_usd",
      "2024-01-02,MXN,16.9745",
      "2024-01-02,cop,3873.55",
      "2024-01-02,GTQ,7.8125",
    ]);
    expect(await importFx(database.db, file)).toMatchObject({ import: "fx", rows: 3, inserted: 3 });
    expect(await importFx(database.db, file)).toMatchObject({ inserted: 0, updated: 0, unchanged: 3 });
    const rows = await database.db
      .selectFrom("fx_rates")
      .select(["currency", "per_usd"])
      .orderBy("currency")
      .execute();
    expect(rows).toEqual([
      { currency: "COP", per_usd: "3873.55" },
      { currency: "GTQ", per_usd: "7.8125" },
      { currency: "MXN", per_usd: "16.9745" },
    ]);
    const bad = write("bad-fx.csv", ["date,currency,per_usd", "2024-01-03,MXN,0", "2024-01-03,PESO,17"]);
    await expect(importFx(database.db, bad)).rejects.toThrow(
      `${bad}:2: per_usd "0" is not a positive decimal number (and 1 more rejected rows)`,
    );
  });
});
