// Deposit addresses inferred on Tron (728126428) from USDT flows, on a real database (PGlite, or PostgreSQL with
// DATABASE_URL): the tronetl export of test/ingest/tron-fixtures (Alice and Bob pay USDT into deposit addresses that
// sweep to Binance wallets, which also send them TRX for the sweeps' fees; Carol pays shops and once Binance) and
// the TRX tags of GraphSense's Binance TagPack. The deposit addresses are attributed to Binance, Carol is not; with
// USDT priced at USD 1 (`import prices`, the token written as its base58 address) the heuristic reads each transfer's
// USD value.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { TRON_CODEC } from "../../src/chains/address/index.ts";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { importPrices } from "../../src/ingest/prices/import-rates.ts";
import { readHistories } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const FIXTURES = new URL("../ingest/tron-fixtures/", import.meta.url).pathname;
const PACK = `${FIXTURES}exchange-wallets-binance-trx.yaml`;
const USDT = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c";
const HOUR = 3_600;

/** The stored form of a base58 address of the fixtures. */
const hex = (base58: string) => {
  const parsed = TRON_CODEC.parse(base58);
  if ("error" in parsed) throw new Error(`${base58} ${parsed.error}`);
  return parsed.address;
};
const who = {
  depositA: hex("TATAAeA7pm8TWBf3VTCeFEjtA5mNhPqrJ6"), // Alice's
  depositB: hex("TGgGW2mfW6fhdk6xqVouQK8mYCciUq3GeB"), // Bob's
  carol: hex("TFZ4QwtgzZdNTxe9Ya28FdTutGA2RSEYeB"),
  binanceA: hex("TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi"),
  binanceB: hex("TJDENsfBJs4RFETt1X1W8wMDc8M5XnJhCe"),
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-tron-deposits-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeEach(async () => {
  database = await openTestDatabase();
  return () => database.drop();
});

async function verdicts() {
  const rows = await database.db
    .selectFrom("deposit_addresses")
    .select(["address", "attributed", "reason", "exchange", "hot_wallets", "sweeps", "received", "senders"])
    .select(["swept_share", "median_sweep_seconds"])
    .where("chain_id", "=", TRON_MAINNET_ID)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.address, r]));
}

describe("deposit addresses on Tron", () => {
  it("attributes the addresses that sweep users' USDT to Binance's labelled wallets, and no other", async () => {
    await importEtl(database, { chainId: TRON_MAINNET_ID, dir: FIXTURES });
    const summary = await importLabels(database.db, PACK);
    expect(summary.deposit_addresses).toEqual({ judged: 3, attributed: 2 });
    const v = await verdicts();
    expect(v[who.depositA]).toEqual({
      address: who.depositA,
      attributed: true,
      reason: null,
      exchange: "binance", // as GraphSense's labels write it ("binance reserve wallets USDT")
      hot_wallets: [who.binanceA, who.binanceB].sort(),
      sweeps: 2,
      received: 2, // Alice's two deposits; Binance's TRX for the fees is not counted
      senders: 1,
      swept_share: 1,
      median_sweep_seconds: 1.5 * HOUR, // 2 hours, then 1 hour
    });
    expect(v[who.depositB]).toMatchObject({
      attributed: true,
      exchange: "binance",
      hot_wallets: [who.binanceA],
      sweeps: 1,
      received: 1,
      swept_share: 1,
    });
    expect(v[who.carol]).toMatchObject({
      attributed: false,
      reason: "6 of 7 outgoing transfers go elsewhere",
    });
  });

  it("values the USDT transfers at USD 1 when USDT on Tron has that price, the token given in base58", async () => {
    const prices = path.join(tmp, "prices.csv");
    fs.writeFileSync(
      prices,
      [
        "chain_id,token,date,price_usd",
        ...["2024-06-01", "2024-06-02", "2024-06-03"].map(
          (day) => `${TRON_MAINNET_ID},TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t,${day},1`,
        ),
        "",
      ].join("\n"),
    );
    await importPrices(database.db, prices);
    const stored = await database.db
      .selectFrom("prices")
      .select(["token"])
      .where("chain_id", "=", TRON_MAINNET_ID)
      .distinct()
      .execute();
    expect(stored).toEqual([{ token: USDT }]);

    await importLabels(database.db, PACK);
    await importEtl(database, { chainId: TRON_MAINNET_ID, dir: FIXTURES });
    const { histories } = await readHistories(database.db, TRON_MAINNET_ID, [who.depositB], 1_000);
    const usdt = histories[0]?.transfers.filter((t) => t.token === USDT);
    expect(usdt?.map((t) => [t.out, t.usd])).toEqual(
      expect.arrayContaining([
        [false, 1_000.25],
        [true, 1_000.25],
      ]),
    );
    expect((await verdicts())[who.depositB]).toMatchObject({ attributed: true, swept_share: 1 });
  });
});
