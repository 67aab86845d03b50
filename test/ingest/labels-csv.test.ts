// `vigia import tags` on CSV files: real normalized label files (the fixtures, test/fixtures/SOURCES.md: exact
// counts, known rows), idempotency, strict failure naming file:line with nothing imported, --skip-invalid, and
// rejected rows. test/full-data/labels.test.ts imports the whole normalized file when the full data set is present.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { SEED_SOURCE } from "../../src/ingest/labels/seed.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fixture } from "../support/fixtures.ts";

const LABELS = `${fixture("labels")}/`;
/** 319 of the 24,235 rows of the normalized risk labels, cut as scripts/cut-fixtures.ts says. */
const RISK = `${LABELS}risk_labels_normalized.csv`;

let database: Awaited<ReturnType<typeof openTestDatabase>>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-labels-csv-"));
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

const countLabels = async () =>
  Number(
    (await database.db.selectFrom("labels").select(sql<string>`count(*)`.as("n")).executeTakeFirstOrThrow())
      .n,
  );

const label = (address: string, chainId: number, category: string) =>
  database.db
    .selectFrom("labels")
    .select(["label", "original_category", "source", "confidence"])
    .where("address", "=", address)
    .where("chain_id", "=", chainId)
    .where("category", "=", category)
    .execute();

describe("import tags: CSV", () => {
  it("fails on risk_labels_normalized.csv naming the first bad line, and imports nothing", async () => {
    const before = await countLabels();
    // The first bad rows are OFAC's Tron addresses as a republished list lowercased them: base58 is
    // case-sensitive, so they can't be decoded into the stored form (docs/labels.md, "Tron").
    await expect(importLabels(database.db, RISK)).rejects.toThrow(
      `${RISK}:31: "tu4tdfrvckhaz1jdihojmbwzqvjhqcnj4f" is a lowercased Tron address: base58 is case-sensitive, the original case is needed (and 7 more rejected rows)`,
    );
    expect(await countLabels()).toBe(before);
    const run = await database.db
      .selectFrom("import_runs")
      .selectAll()
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    expect(run).toMatchObject({ kind: "labels", status: "failed", source: RISK });
    expect(run.error).toContain(":31:");
  });

  it("imports risk_labels_normalized.csv with --skip-invalid: exact counts, known rows, then idempotent", async () => {
    const summary = await importLabels(database.db, RISK, { skipInvalid: true });
    expect(summary).toMatchObject({
      format: "csv",
      rows: 319,
      // 7 rows share a key with another: kucoin's USDT wallets, listed under their chain and again under
      // "usdt(unspecified chain)", which the address form places on the same chain.
      labels: 285,
      inserted: 285,
      updated: 0,
      rejected: 8,
      skipped: 19,
      skipped_reasons: {
        'chain "usdt(unspecified chain)": cannot tell the chain from the address form': 15,
        'chain "usdc(unspecified chain)": cannot tell the chain from the address form': 4,
      },
    });
    const lowercased = "is a lowercased Tron address: base58 is case-sensitive, the original case is needed";
    expect(summary.rejected_rows).toEqual([
      `${RISK}:31: "tu4tdfrvckhaz1jdihojmbwzqvjhqcnj4f" ${lowercased}`,
      `${RISK}:32: "tde2unavuuntbbdo7518eme3txn5qjw8ft" ${lowercased}`,
      `${RISK}:33: "teeycugdyenkudj4u6gqrxxxo3nh29r2vp" ${lowercased}`,
      `${RISK}:223: "1.4390191554254E+48" is not an EVM address`,
      `${RISK}:224: "1.06323208699073E+48" is not an EVM address`,
      `${RISK}:225: "1.07711560455244E+48" is not an EVM address`,
      `${RISK}:226: "8.09198839620803E+47" is not an EVM address`,
      `${RISK}:241: "X-avax1ju2khnvkex4u30rt5jm5x8jd3jdfhvawg7ed9x" is not an EVM address`,
    ]);
    const byCategory = await database.db
      .selectFrom("labels")
      .select(["category", sql<number>`count(*)::integer`.as("n")])
      .where("source", "<>", SEED_SOURCE)
      .groupBy("category")
      .execute();
    expect(Object.fromEntries(byCategory.map((row) => [row.category, row.n]))).toEqual({
      illicit: 96,
      sanctioned: 43, // without the 3 lowercased Tron addresses
      bridge: 38,
      mixer: 34,
      exchange: 31,
      sanctioned_historical: 28,
      blocklisted: 15,
    });
    expect(await label("0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c", 42161, "sanctioned")).toEqual([
      {
        label: "OFAC SDN: Hyon Sop SIM",
        original_category: "sanctioned",
        source: "ofac_sdn_2026-08-20",
        confidence: 50,
      },
    ]);
    expect(await label("qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3", -1_000_145, "sanctioned")).toHaveLength(
      1,
    );
    // TX5GV4DyfxNB3rPkzZJhmqZ1efVmL4rEqG ("usdt(unspecified chain)"), decoded onto Tron mainnet.
    expect(
      await label("0xe7800b61479695ec74e4b219f409f67bd1055a27", TRON_MAINNET_ID, "sanctioned_historical"),
    ).toHaveLength(1);
    expect(
      await label("0x38735f03b30fbc022ddd06abed01f0ca823c6a94", 0, "sanctioned_historical"),
    ).toHaveLength(1);
    const tornado = await label("0x12d66f87a04a9e220743712ce6d9bb1b5616b8fc", 1, "sanctioned_historical");
    expect(tornado[0]?.label).toBe("Tornado.Cash: 0.1 ETH");

    const again = await importLabels(database.db, RISK, { skipInvalid: true });
    expect(again).toMatchObject({ labels: 285, inserted: 0, updated: 0, unchanged: 285, deleted: 0 });
  });

  it("imports tornado_cash_contracts.csv: chain names and ids agree, pools and routers are mixers", async () => {
    const summary = await importLabels(database.db, `${LABELS}tornado_cash_contracts.csv`);
    expect(summary).toMatchObject({ rows: 54, labels: 54, inserted: 54, rejected: 0, skipped: 0 });
    const rows = await database.db
      .selectFrom("labels")
      .select(["category", sql<number>`count(*)::integer`.as("n")])
      .where("source", "like", "tornadocash/docs%")
      .groupBy("category")
      .execute();
    expect(Object.fromEntries(rows.map((row) => [row.category, row.n]))).toEqual({ mixer: 49, other: 5 });
    const pool = await label("0xa160cdab225685da1d56aa342ad8841c3b53f291", 1, "mixer");
    expect(pool.filter((row) => row.source.startsWith("tornadocash/docs"))).toMatchObject([
      { label: "Tornado.Cash: 100 ETH", original_category: "mixer_pool" },
    ]);
  });

  it("rejects bad rows naming file:line and the reason", async () => {
    const file = write("bad.csv", [
      "address,chain_id,label,category,source,confidence",
      `0x${"a".repeat(40)},1,ok,exchange,test-bad,`,
      `0x${"a".repeat(39)},1,short,exchange,test-bad,`,
      `0x${"b".repeat(40)},-5,bad chain,exchange,test-bad,`,
      `0x${"c".repeat(40)},1,no source,exchange,,`,
      `0x${"d".repeat(40)},1,unsure,exchange,test-bad,sure`,
      `1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2,-1000000,btc,scam,test-bad,web_crawl`,
    ]);
    const before = await countLabels();
    await expect(importLabels(database.db, file)).rejects.toThrow(
      `${file}:3: "0x${"a".repeat(39)}" is not an EVM address (and 3 more rejected rows)`,
    );
    expect(await countLabels()).toBe(before);
    const summary = await importLabels(database.db, file, { skipInvalid: true });
    expect(summary).toMatchObject({ rows: 6, labels: 2, inserted: 2, rejected: 4 });
    expect(summary.rejected_rows).toEqual([
      `${file}:3: "0x${"a".repeat(39)}" is not an EVM address`,
      `${file}:4: unknown chain_id "-5"`,
      `${file}:5: empty source`,
      `${file}:6: unknown confidence "sure" (a GraphSense level name or 0-100)`,
    ]);
    // Bitcoin's former pseudo chain (-1000000) is Bitcoin mainnet's ledger id now.
    expect(await label("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", 177_005_167, "illicit")).toEqual([
      { label: "btc", original_category: "scam", source: "test-bad", confidence: 20 },
    ]);

    const mismatch = write("mismatch.csv", [
      "address,chain,chain_id,label,category,source",
      `0x${"e".repeat(40)},polygon,1,x,bridge,test-bad`,
    ]);
    await expect(importLabels(database.db, mismatch)).rejects.toThrow(
      `${mismatch}:2: chain "polygon" is chain id 137, not 1`,
    );
    const long = write("long.csv", [
      "address,chain_id,label,category,source",
      `0x${"e".repeat(40)},1,${"x".repeat(501)},bridge,test-bad`,
    ]);
    await expect(importLabels(database.db, long)).rejects.toThrow(
      `${long}:2: the label is longer than 500 characters`,
    );
    const unclosed = write("unclosed.csv", [
      "address,chain_id,label,category,source",
      `0x${"e".repeat(40)},1,"${"z".repeat(1_200_000)}`,
    ]);
    await expect(importLabels(database.db, unclosed)).rejects.toThrow(/max_record_size|record size/i);
    const header = write("header.csv", ["address,chain_id,label,category", `0x${"e".repeat(40)},1,x,bridge`]);
    await expect(importLabels(database.db, header)).rejects.toThrow(`${header}:1: missing column source`);
    const quote = write("quote.csv", [
      "address,chain_id,label,category,source",
      `0x${"e".repeat(40)},1,"x,bridge,s`,
    ]);
    await expect(importLabels(database.db, quote)).rejects.toThrow(new RegExp(`^${quote}:\\d+: `));
    const ragged = write("ragged.csv", ["address,chain_id,label,category,source", "a,1,x"]);
    await expect(importLabels(database.db, ragged)).rejects.toThrow(new RegExp(`^${ragged}:2: `));
    await expect(importLabels(database.db, path.join(dir, "none.csv"))).rejects.toThrow(
      "none.csv: no such file",
    );
    await expect(importLabels(database.db, path.join(dir, "x.json"))).rejects.toThrow(
      'unknown label file type ".json"',
    );
  });
});
