// Tron labels land on Tron mainnet (728126428) in the stored 0x form, as its transfers do (docs/labels.md,
// "Tron"): a cut of GraphSense's Binance TagPack (its TRX tags, test/ingest/tron-fixtures/README.md), CSV rows by
// chain name, chain id and the USDT address form, and OFAC SDN entries with TRX and USDT addresses
// (tron-fixtures/sdn_tron.xml). Base58check is case-sensitive: one letter in the other case is a checksum error
// (a rejected row), never a match; a lowercased address is refused as such. On a real database (PGlite, or
// PostgreSQL with DATABASE_URL).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { SANCTIONS_SOURCE, updateSanctions } from "../../src/ingest/sanctions/update.ts";
import { openTestDatabase } from "../support/db-only.ts";

const FIXTURES = new URL("./tron-fixtures/", import.meta.url).pathname;
const PACK = `${FIXTURES}exchange-wallets-binance-trx.yaml`;
const SDN = `${FIXTURES}sdn_tron.xml`;

/** The stored forms of the real addresses used here (checked against tronetl's decoding in tron-etl-import.test.ts). */
const HEX = {
  TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi: "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e",
  TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhCe: "0x5a67fa7cc56bd6d043a98e17d329c1dc9e14753f",
  TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG: "0x7de5ab1914e241177344936dc33b4a8157c98248",
  TTKnV2S1295UrPr7N67Tp9ykNL7xX2Z4Uj: "0xbe5e683633ddd17d8a89b4e10860a0e426c5ed24",
  TX5GV4DyfxNB3rPkzZJhmqZ1efVmL4rEqG: "0xe7800b61479695ec74e4b219f409f67bd1055a27",
  TRYL7PKCG4b4xRCM554Q5J6o8f1UjUmfnY: "0xaacd8c403f7b4ea08a3f959086d3ff04cbf5edfb",
} as const;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-labels-tron-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeEach(async () => {
  database = await openTestDatabase();
  return () => database.drop();
});

const labelsOf = async (source: string) =>
  (
    await database.db
      .selectFrom("labels")
      .select(["address", "chain_id", "label", "category", "original_category"])
      .where("source", "=", source)
      .execute()
  ).sort((a, b) => a.chain_id - b.chain_id || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));

describe("Tron labels", () => {
  it("imports a TagPack's TRX tags on Tron mainnet in the 0x form; a second import changes nothing", async () => {
    const summary = await importLabels(database.db, PACK);
    expect(summary).toMatchObject({ rows: 9, labels: 8, inserted: 8, skipped: 0, rejected: 0 });
    const rows = await labelsOf("tagpack:exchange-wallets-binance-trx");
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      expect(row.chain_id).toBe(TRON_MAINNET_ID);
      expect(row.address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(row.category).toBe("exchange");
    }
    // Tagged for USDC, then for USDT: the first tag wins.
    expect(rows.find((r) => r.address === HEX.TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi)).toMatchObject({
      label: "binance reserve wallets USDC",
    });
    expect(rows.find((r) => r.address === HEX.TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhCe)).toMatchObject({
      label: "binance reserve wallets USDT",
    });
    // Nothing on the former pseudo chain.
    expect(rows.filter((r) => r.chain_id === -1_000_195)).toEqual([]);
    expect(await importLabels(database.db, PACK)).toMatchObject({ inserted: 0, updated: 0, unchanged: 8 });
  });

  it("rejects a tag whose address has one letter in the other case (checksum) or was lowercased", async () => {
    const text = fs.readFileSync(PACK, "utf8");
    const bad = write(
      "binance-bad.yaml",
      text
        .replace("TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhCe", "TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhce")
        .replace("TYASr5UV6HEcXatwdFQfmLVUqQQQMUxHLS", "tyasr5uv6hecxatwdfqfmluvqqqqmuxhls"),
    );
    const lineOf = (needle: string) =>
      fs
        .readFileSync(bad, "utf8")
        .split("\n")
        .findIndex((l) => l.includes(needle)) + 1;
    const checksumLine = lineOf("TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhce");
    await expect(importLabels(database.db, bad)).rejects.toThrow(
      `${bad}:${checksumLine}: "TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhce" has a wrong base58check checksum: a character is mistyped`,
    );
    expect(await labelsOf("tagpack:binance-bad")).toEqual([]);
    const summary = await importLabels(database.db, bad, { skipInvalid: true });
    expect(summary).toMatchObject({ labels: 6, rejected: 2 });
    expect(summary.rejected_rows).toEqual([
      `${bad}:${checksumLine}: "TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhce" has a wrong base58check checksum: a character is mistyped`,
      `${bad}:${lineOf("tyasr5uv")}: "tyasr5uv6hecxatwdfqfmluvqqqqmuxhls" is a lowercased Tron address: base58 is case-sensitive, the original case is needed`,
    ]);
    expect((await labelsOf("tagpack:binance-bad")).map((r) => r.address)).not.toContain(
      HEX.TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhCe,
    );
  });

  it("places CSV rows by chain name, chain id (the former −1000195 too) and USDT's T address form", async () => {
    const file = write(
      "tron.csv",
      [
        "address,chain,chain_id,label,category,source",
        "TRYL7PKCG4b4xRCM554Q5J6o8f1UjUmfnY,tron,,kucoin reserve wallets,exchange,test",
        "TX5GV4DyfxNB3rPkzZJhmqZ1efVmL4rEqG,usdt(unspecified chain),,OFAC listed,sanctioned_historical,test",
        `TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi,,${TRON_MAINNET_ID},binance,exchange,test`,
        "41D1C4BB7B2F39ABA5707711719B2236B5B605AF2E,tron,-1000195,binance (hex),other,test",
        "",
      ].join("\n"),
    );
    expect(await importLabels(database.db, file)).toMatchObject({ labels: 4, rejected: 0, skipped: 0 });
    expect((await labelsOf("test")).map((r) => [r.address, r.chain_id, r.category])).toEqual([
      [HEX.TRYL7PKCG4b4xRCM554Q5J6o8f1UjUmfnY, TRON_MAINNET_ID, "exchange"],
      [HEX.TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi, TRON_MAINNET_ID, "exchange"],
      [HEX.TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi, TRON_MAINNET_ID, "other"],
      [HEX.TX5GV4DyfxNB3rPkzZJhmqZ1efVmL4rEqG, TRON_MAINNET_ID, "sanctioned_historical"],
    ]);
  });

  it("labels OFAC's TRX and USDT addresses on Tron mainnet; a case-changed address is a checksum error, not a match", async () => {
    const summary = await updateSanctions(database.db, SDN);
    expect(summary).toMatchObject({ entries: 2, addresses: 3, labels: 2, inserted: 2, rejected: 0 });
    expect(await labelsOf(SANCTIONS_SOURCE)).toEqual([
      {
        address: HEX.TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG,
        chain_id: TRON_MAINNET_ID,
        label: "OFAC SDN: Jiantong WANG (ILLICIT-DRUGS-EO14059)",
        category: "sanctioned",
        original_category: "Digital Currency Address - TRX",
      },
      {
        address: HEX.TTKnV2S1295UrPr7N67Tp9ykNL7xX2Z4Uj,
        chain_id: TRON_MAINNET_ID,
        label: "OFAC SDN: Fengbing XIA (ILLICIT-DRUGS-EO14059)",
        category: "sanctioned",
        // Listed under both codes: one label, both id types.
        original_category: "Digital Currency Address - TRX;Digital Currency Address - USDT",
      },
    ]);

    // The same list with one letter of WANG's address in the other case: not another address, a wrong checksum.
    const text = fs.readFileSync(SDN, "utf8");
    const flippedText = text.replace(
      "TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG",
      "TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsg",
    );
    const flipped = write("sdn_flipped.xml", flippedText);
    const line = flippedText.slice(0, flippedText.indexOf("<uid>45350</uid>")).split("\n").length - 1;
    const entryLine = flippedText.slice(0, flippedText.indexOf("<uid>45349</uid>")).split("\n").length - 1;
    expect(line).toBeGreaterThan(entryLine);
    await expect(updateSanctions(database.db, flipped)).rejects.toThrow(
      `${flipped}:${entryLine}: entry 45349: "TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsg" has a wrong base58check checksum: a character is mistyped`,
    );
    // Nothing changed: the sanctioned set is the first list's.
    expect((await labelsOf(SANCTIONS_SOURCE)).map((r) => r.address)).toEqual([
      HEX.TMStbg5fgb4uTV7fK1gEYF9hKAzP3siPsG,
      HEX.TTKnV2S1295UrPr7N67Tp9ykNL7xX2Z4Uj,
    ]);
    // Skipping the bad row, WANG's (real) address is no longer on the list: its label goes, nothing else matches.
    const skipped = await updateSanctions(database.db, flipped, { skipInvalid: true });
    expect(skipped).toMatchObject({ rejected: 1, deleted: 1, inserted: 0 });
    expect((await labelsOf(SANCTIONS_SOURCE)).map((r) => r.address)).toEqual([
      HEX.TTKnV2S1295UrPr7N67Tp9ykNL7xX2Z4Uj,
    ]);
  });
});
