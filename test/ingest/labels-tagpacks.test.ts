// `vigia import tags` on real GraphSense TagPacks (the fixtures: whole packs, and the first tags of two large ones,
// test/fixtures/SOURCES.md): header inheritance, chains (EVM on every chain, BTC/Tron/BNB beacon chain addresses
// kept in their case, Tron's decoded into the 0x form on Tron mainnet), categories, confidence, idempotency, skips,
// and the seeded Tornado Cash pools.
// test/full-data/labels.test.ts imports the large packs whole when the full data set is present.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { applySeedLabels, SEED_LABELS, SEED_SOURCE } from "../../src/ingest/labels/seed.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fixture } from "../support/fixtures.ts";

const PACKS = `${fixture("graphsense-tagpacks")}/`;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** Sorted here, by chain then address in code-point order, the same on every database collation. */
const labelsOf = async (source: string) =>
  (
    await database.db
      .selectFrom("labels")
      .select(["address", "chain_id", "label", "category", "original_category", "confidence"])
      .where("source", "=", source)
      .execute()
  ).sort((a, b) => a.chain_id - b.chain_id || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));

async function countByChain(source: string): Promise<Record<number, number>> {
  const rows = await database.db
    .selectFrom("labels")
    .select(["chain_id", sql<number>`count(*)::integer`.as("n")])
    .where("source", "=", source)
    .groupBy("chain_id")
    .execute();
  return Object.fromEntries(rows.map((row) => [row.chain_id, row.n]));
}

/** Bitcoin mainnet's ledger id, where Bitcoin addresses' labels go (docs/decisions/0052-bitcoin-chains.md). */
const BTC = 177_005_167;

describe("import tags: GraphSense TagPacks", () => {
  it("imports tornado_cash.yaml on every EVM chain, with the header inherited, and a second run changes nothing", async () => {
    const file = `${PACKS}tornado_cash.yaml`;
    const first = await importLabels(database.db, file);
    // 39 tags; one address appears twice (once with a trailing space), so 38 labels.
    expect(first).toMatchObject({
      format: "tagpack",
      rows: 39,
      labels: 38,
      inserted: 38,
      updated: 0,
      deleted: 0,
    });
    expect(first).toMatchObject({ rejected: 0, skipped: 0 });
    const rows = await labelsOf("tagpack:tornado_cash");
    expect(rows).toHaveLength(38);
    for (const row of rows) {
      expect(row).toMatchObject({
        chain_id: 0,
        label: "tornado.cash",
        category: "mixer",
        original_category: "mixing_service",
        confidence: 60, // authority_data
      });
      expect(row.address).toMatch(/^0x[0-9a-f]{40}$/);
    }
    expect(rows.map((row) => row.address)).toContain("0x8589427373d6d84e98730d7795d8f6f8731fda16");
    expect(rows.map((row) => row.address)).toContain("0x4736dcf1b7a3d580672cce6e7c65cd5cc9cfba9d");

    const second = await importLabels(database.db, file);
    expect(second).toMatchObject({
      rows: 39,
      labels: 38,
      inserted: 0,
      updated: 0,
      unchanged: 38,
      deleted: 0,
    });
    expect(await labelsOf("tagpack:tornado_cash")).toEqual(rows);
    const runs = await database.db
      .selectFrom("import_runs")
      .selectAll()
      .where("id", "in", [String(first.run_id), String(second.run_id)])
      .orderBy("id")
      .execute();
    expect(
      runs.map((run) => [run.kind, run.status, Number(run.rows_read), Number(run.rows_written)]),
    ).toEqual([
      ["labels", "completed", 39, 38],
      ["labels", "completed", 39, 0],
    ]);
    expect(runs[0]?.source).toBe(file);
  });

  it("imports exchange-wallets-binance.yaml: BTC and BNB beacon chain addresses kept in their case, Tron's decoded", async () => {
    const summary = await importLabels(database.db, `${PACKS}exchange-wallets-binance.yaml`);
    expect(summary).toMatchObject({ rows: 86, labels: 64, inserted: 64, skipped: 0, rejected: 0 });
    expect(await countByChain("tagpack:exchange-wallets-binance")).toEqual({
      [-1_000_714]: 25, // BEP2: BNB beacon chain
      [TRON_MAINNET_ID]: 8, // TRX (9 tags, one address twice), in the stored 0x form
      [BTC]: 4, // BTC, on Bitcoin mainnet's ledger id
      0: 11, // ETH: every EVM chain
      56: 16, // BEP20: BNB Smart Chain
    });
    const rows = await labelsOf("tagpack:exchange-wallets-binance");
    expect(rows.find((row) => row.address === "34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo")).toEqual({
      address: "34xp4vRoCGJym3xR7yCVPFHoCNxv4Twseo",
      chain_id: BTC,
      label: "binance reserve wallets BTC",
      category: "exchange",
      original_category: "exchange",
      confidence: 50, // service_data
    });
    // The same Tron address is tagged for USDC and then USDT: the first tag wins.
    // TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi, decoded.
    expect(rows.find((row) => row.address === "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e")).toMatchObject({
      chain_id: TRON_MAINNET_ID,
      label: "binance reserve wallets USDC",
    });
    expect(rows.filter((row) => row.address === "0xf977814e90da44bfa03b6295a0616a897441acec")).toHaveLength(
      2,
    );
  });

  it("skips tags for chains it keeps no labels for, counting the reasons", async () => {
    const summary = await importLabels(database.db, `${PACKS}exchange-wallets-kucoin.yaml`);
    expect(summary).toMatchObject({
      rows: 59,
      labels: 23,
      inserted: 23,
      skipped: 17,
      rejected: 0,
      skipped_reasons: {
        "currency USDT: cannot tell the chain from the address form": 7,
        "unsupported currency KCS": 6,
        "currency USDC: cannot tell the chain from the address form": 4,
      },
    });
    expect(await countByChain("tagpack:exchange-wallets-kucoin")).toEqual({
      [TRON_MAINNET_ID]: 4,
      [BTC]: 4,
      0: 15,
    });
  });

  it("takes the riskiest of category and abuse, and maps more packs", async () => {
    expect(await importLabels(database.db, `${PACKS}lazarus.yaml`)).toMatchObject({ rows: 21, labels: 21 });
    const lazarus = await labelsOf("tagpack:lazarus");
    expect(
      new Set(lazarus.map((row) => `${row.category} ${row.original_category} ${row.confidence}`)),
    ).toEqual(new Set(["sanctioned sanction;user 60"]));
    expect(await countByChain("tagpack:lazarus")).toEqual({ [BTC]: 20, 0: 1 });

    // The first 100 of the pack's 774 tags; label, category and confidence come from its header.
    expect(await importLabels(database.db, `${PACKS}usdt_blacklist.yaml`)).toMatchObject({
      rows: 100,
      labels: 100,
    });
    expect((await labelsOf("tagpack:usdt_blacklist"))[0]).toMatchObject({
      category: "blocklisted",
      original_category: "black_list",
      confidence: 100, // ledger_immanent
    });

    // The first 150 of the pack's 7,457 tags, all BTC: abuse `ransomware` and no category.
    const ransom = await importLabels(database.db, `${PACKS}ransomwhere.yaml`);
    expect(ransom).toMatchObject({ rows: 150, labels: 150, inserted: 150 });
    expect(await countByChain("tagpack:ransomwhere")).toEqual({ [BTC]: 150 });
    const netwalker = await database.db
      .selectFrom("labels")
      .select(["label", "category", "original_category", "confidence"])
      .where("address", "=", "17TMc2UkVRSga2yYvuxSD9Q1XyB2EPRjTF")
      .executeTakeFirstOrThrow();
    expect(netwalker).toEqual({
      label: "Netwalker (Mailto)",
      category: "illicit",
      original_category: "ransomware",
      confidence: 50,
    });
  });

  it("names the source with --source and replaces a pack's labels with --replace", async () => {
    const file = `${PACKS}ronin_bridge.yaml`;
    expect(await importLabels(database.db, file, { source: "ronin" })).toMatchObject({
      labels: 6,
      inserted: 6,
    });
    await database.db
      .insertInto("labels")
      .values({
        address: `0x${"1".repeat(40)}`,
        chain_id: 0,
        label: "gone",
        category: "illicit",
        source: "ronin",
      })
      .execute();
    expect(await importLabels(database.db, file, { source: "ronin" })).toMatchObject({
      unchanged: 6,
      deleted: 0,
    });
    expect(await importLabels(database.db, file, { source: "ronin", replace: true })).toMatchObject({
      unchanged: 6,
      deleted: 1,
    });
    expect(await labelsOf("ronin")).toHaveLength(6);
  });

  it("has the Tornado Cash ETH pools from the start, and re-applies them idempotently", async () => {
    const seeded = await labelsOf(SEED_SOURCE);
    expect(seeded).toEqual(
      SEED_LABELS.map((row) => ({
        address: row.address,
        chain_id: row.chainId,
        label: row.label,
        category: row.category,
        original_category: row.originalCategory,
        confidence: row.confidence,
      })),
    );
    expect(seeded.map((row) => row.label)).toEqual([
      "Tornado.Cash: 0.1 ETH",
      "Tornado.Cash: 1 ETH",
      "Tornado.Cash: 10 ETH",
      "Tornado.Cash: 100 ETH",
    ]);
    expect(new Set(seeded.map((row) => `${row.chain_id} ${row.category}`))).toEqual(new Set(["1 mixer"]));
    expect(await applySeedLabels(database.db)).toBe(0);
    await database.db
      .deleteFrom("labels")
      .where("source", "=", SEED_SOURCE)
      .where("label", "=", "Tornado.Cash: 1 ETH")
      .execute();
    expect(await applySeedLabels(database.db)).toBe(1);
    expect(await labelsOf(SEED_SOURCE)).toEqual(seeded);
  });
});
