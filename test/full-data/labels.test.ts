// Optional extra, run where the full data set is present (test/support/full-data.ts): the label importers on the
// whole files the fixtures are cut from. Every one of GraphSense's 37 TagPacks read by the streaming reader as a
// whole-document parse reads it; the normalized risk labels (24,235 rows) refused at their first bad line, then
// imported with --skip-invalid to exact counts; the two large TagPacks imported whole.
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { SEED_SOURCE } from "../../src/ingest/labels/seed.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { fullData } from "../support/full-data.ts";
import { readTagPackBothWays } from "../support/tagpack-agreement.ts";

const packs = fullData("labels/graphsense_tagpacks");
const risk = fullData("labels/risk_labels_normalized.csv");

let database: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
beforeAll(async () => {
  if (packs.path || risk.path) database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const countBy = async (column: "category" | "chain_id", source: string) => {
  const rows = await database!.db
    .selectFrom("labels")
    .select([column, sql<number>`count(*)::integer`.as("n")])
    .where("source", "=", source)
    .groupBy(column)
    .execute();
  return Object.fromEntries(rows.map((row) => [row[column], row.n]));
};

describe("label importers on the full data set", () => {
  it("reads every TagPack as a whole-document parse does", async (ctx) => {
    ctx.skip(!packs.path, packs.skipReason);
    const files = fs.readdirSync(packs.path!).filter((name) => name.endsWith(".yaml"));
    expect(files).toHaveLength(37);
    let total = 0;
    for (const name of files) {
      const { streamed, whole } = await readTagPackBothWays(path.join(packs.path!, name));
      expect(streamed.header, name).toEqual(whole.header);
      expect(streamed.tags, name).toEqual(whole.tags);
      total += streamed.tags.length;
    }
    expect(total).toBe(21_231);
  });

  it("refuses risk_labels_normalized.csv at its first bad line, importing nothing", async (ctx) => {
    ctx.skip(!risk.path, risk.skipReason);
    const file = risk.path!;
    await expect(importLabels(database!.db, file)).rejects.toThrow(
      `${file}:139: "tu4tdfrvckhaz1jdihojmbwzqvjhqcnj4f" is a lowercased Tron address: base58 is case-sensitive, the original case is needed (and 263 more rejected rows)`,
    );
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::integer AS n FROM labels WHERE source <> ${SEED_SOURCE}`.execute(database!.db);
    expect(rows[0]?.n).toBe(0);
  });

  it("imports risk_labels_normalized.csv with --skip-invalid: exact counts, then idempotent", async (ctx) => {
    ctx.skip(!risk.path, risk.skipReason);
    const file = risk.path!;
    const summary = await importLabels(database!.db, file, { skipInvalid: true });
    expect(summary).toMatchObject({
      rows: 24_235,
      labels: 23_907, // 11 rows share a key with another once placed (kucoin's USDT wallets, OFAC's BTC)
      inserted: 23_907,
      // 259 Tron addresses the republished list lowercased (base58 is case-sensitive: they name no address), and 5
      rejected: 264,
      // 34 of them Bitcoin addresses that fail their checksum or network (lowercased, or Tron's filed as Bitcoin)
      skipped: 53,
    });
    // The summary lists the first 20 rejected rows: the lowercased Tron addresses come first in the file.
    const rejected = summary.rejected_rows ?? [];
    expect(rejected).toHaveLength(20);
    expect(rejected[0]).toBe(
      `${file}:139: "tu4tdfrvckhaz1jdihojmbwzqvjhqcnj4f" is a lowercased Tron address: base58 is case-sensitive, the original case is needed`,
    );
    for (const row of rejected) expect(row).toMatch(/is a lowercased Tron address|is not an EVM address/);
    const { rows } = await sql<{ category: string; n: number }>`
      SELECT category, count(*)::integer AS n FROM labels WHERE source <> ${SEED_SOURCE}
      GROUP BY category`.execute(database!.db);
    expect(Object.fromEntries(rows.map((row) => [row.category, row.n]))).toEqual({
      illicit: 18_639,
      exchange: 2_154,
      sanctioned: 681,
      bridge: 834,
      blocklisted: 774,
      sanctioned_historical: 574,
      mixer: 251,
    });
    const again = await importLabels(database!.db, file, { skipInvalid: true });
    expect(again).toMatchObject({ labels: 23_907, inserted: 0, updated: 0, unchanged: 23_907, deleted: 0 });
  });

  it("imports the large TagPacks whole", async (ctx) => {
    ctx.skip(!packs.path, packs.skipReason);
    const usdt = await importLabels(database!.db, path.join(packs.path!, "usdt_blacklist.yaml"));
    expect(usdt).toMatchObject({ rows: 774, labels: 774, inserted: 774, rejected: 0, skipped: 0 });
    expect(await countBy("category", "tagpack:usdt_blacklist")).toEqual({ blocklisted: 774 });
    const ransom = await importLabels(database!.db, path.join(packs.path!, "ransomwhere.yaml"));
    expect(ransom).toMatchObject({ rows: 7_457, labels: 7_457, inserted: 7_457 });
    // Bitcoin mainnet's ledger id (docs/labels.md, "Bitcoin").
    expect(await countBy("chain_id", "tagpack:ransomwhere")).toEqual({ [177_005_167]: 7_457 });
  });
});
