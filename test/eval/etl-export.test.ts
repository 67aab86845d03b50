// The detection benchmark's export generator (eval/world/etl.ts): the same seed gives byte-identical files
// and another seed other files; the export is a valid ethereum-etl export that the importer's own functions
// (importEtl, importLabels, importPrices; not the CLI) accept and store exactly the world's transfers; cases.json
// agrees with the files (positives, near misses, the background sample, the sanctions chains, the dusted users,
// each with its variant). In-memory PGlite, or PostgreSQL with DATABASE_URL.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CasesFile, EXPORT_FILES, readCases, writeBenchmarkExport } from "../../eval/world/etl.ts";
import { benchmarkWorld } from "../../eval/world/index.ts";
import { type ImportEtlSummary, importEtl } from "../../src/ingest/etl/import.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { importPrices } from "../../src/ingest/prices/import-rates.ts";
import { PATTERNS } from "../../src/risk/findings.ts";
import { TOKEN_ADDRESSES, transactionsOf } from "../../src/worlds/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

const OPTIONS = { seed: 11, perPattern: 3, users: 40, transfers: 400 };
const BACKGROUND = 8; // eval/world defaultBackground(40)
const CHAINS = 1; // half of perPattern, at least one
const DUSTED = 1; // eval/world defaultDusted(40): one user in 25
const CHAIN = 8_453_001;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-eval-export-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Row = Record<string, string>;
const readCsv = (dir: string, file: string): Row[] =>
  parse(fs.readFileSync(path.join(dir, file)), { columns: true });

const dir = path.join(tmp, "a");
let cases: CasesFile;
beforeAll(() => {
  cases = writeBenchmarkExport(dir, OPTIONS, CHAIN);
});

describe("benchmark export generator", () => {
  it("writes byte-identical files for the same seed and other files for another seed", () => {
    const again = path.join(tmp, "again");
    writeBenchmarkExport(again, OPTIONS, CHAIN);
    const other = path.join(tmp, "other");
    writeBenchmarkExport(other, { ...OPTIONS, seed: OPTIONS.seed + 1 }, CHAIN);
    for (const file of EXPORT_FILES) {
      const bytes = fs.readFileSync(path.join(dir, file));
      expect(bytes.length, file).toBeGreaterThan(0);
      expect(fs.readFileSync(path.join(again, file)).equals(bytes), file).toBe(true);
    }
    for (const file of ["transactions.csv", "token_transfers.csv", "cases.json"]) {
      expect(
        fs.readFileSync(path.join(other, file)).equals(fs.readFileSync(path.join(dir, file))),
        file,
      ).toBe(false);
    }
  });

  it("writes rows in the ethereum-etl shape: chained blocks, transactions in order, token calls", () => {
    const blocks = readCsv(dir, "blocks.csv");
    const txs = readCsv(dir, "transactions.csv");
    const tokenTransfers = readCsv(dir, "token_transfers.csv");
    expect(blocks.length).toBe(cases.counts.blocks);
    expect(txs.length).toBe(cases.counts.transactions);
    expect(tokenTransfers.length).toBe(cases.counts.tokenTransfers);
    blocks.forEach((b, i) => {
      expect(b.number).toBe(String(i + 1));
      if (i > 0) {
        expect(b.parent_hash).toBe(blocks[i - 1]?.hash);
        expect(Number(b.timestamp)).toBeGreaterThan(Number(blocks[i - 1]?.timestamp));
      }
    });
    const timeOf = new Map(blocks.map((b) => [b.number, b.timestamp]));
    const perBlock = new Map<string, number>();
    for (const t of txs) {
      expect(t.hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(t.from_address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(t.to_address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(t.value).toMatch(/^[0-9]+$/);
      expect(t.receipt_status).toBe("1");
      expect(t.block_timestamp).toBe(timeOf.get(t.block_number ?? ""));
      const index = perBlock.get(t.block_number ?? "") ?? 0;
      expect(t.transaction_index).toBe(String(index));
      perBlock.set(t.block_number ?? "", index + 1);
    }
    for (const b of blocks) expect(String(perBlock.get(b.number ?? ""))).toBe(b.transaction_count);
    const txByHash = new Map(txs.map((t) => [t.hash, t]));
    const tokens = new Set(Object.values(TOKEN_ADDRESSES));
    let swapLegs = 0;
    for (const tt of tokenTransfers) {
      const t = txByHash.get(tt.transaction_hash ?? "");
      expect(t, tt.transaction_hash).toBeDefined();
      expect(tokens.has(tt.token_address ?? "")).toBe(true);
      if (t?.input === "0x7ff36ab5") {
        // a leg of a swap: the sender called the DEX's router (World.transaction), with the ETH leg as the value
        swapLegs++;
        expect(t.to_address).not.toBe(tt.token_address);
        continue;
      }
      // the transaction is the call of the token's transfer(to, amount), moving no ether
      expect(t).toMatchObject({ to_address: tt.token_address, from_address: tt.from_address, value: "0" });
      expect(t?.input).toBe(
        `0xa9059cbb${tt.to_address?.slice(2).padStart(64, "0")}${BigInt(tt.value ?? "0")
          .toString(16)
          .padStart(64, "0")}`,
      );
      expect(tt.block_number).toBe(t?.block_number);
    }
    expect(txs.filter((t) => t.value !== "0")).toHaveLength(cases.counts.nativeTransfers);
    expect(swapLegs).toBeGreaterThan(0); // everyday DEX use and the conversion cases swap in one transaction
  });

  it("lists every case in cases.json, consistent with the world and the export", () => {
    expect(readCases(dir)).toEqual(cases);
    expect(cases).toMatchObject({
      ...OPTIONS,
      background: BACKGROUND,
      chainId: CHAIN,
      namespace: `vigia-benchmark-${OPTIONS.seed}`,
    });
    const world = benchmarkWorld({ ...OPTIONS, background: BACKGROUND });
    expect(cases.cases).toEqual(
      world.cases.map((c) => ({
        id: c.id,
        pattern: c.pattern,
        positive: c.positive,
        subject: c.subject,
        variant: c.variant,
        note: c.note,
        ...(c.distance !== undefined ? { distance: c.distance } : {}),
      })),
    );
    // The deposit addresses are the inference's truth: in cases.json, never in labels.csv.
    expect(cases.deposits).toEqual(
      [...world.deposits]
        .map(([address, d]) => ({ address, exchange: d.exchange }))
        .sort((a, b) => (a.address < b.address ? -1 : 1)),
    );
    expect(cases.deposits.length).toBeGreaterThan(100);
    const labelsCsv = fs.readFileSync(path.join(dir, "labels.csv"), "utf8");
    for (const d of cases.deposits) expect(labelsCsv).not.toContain(d.address);
    expect(cases.cases.every((c) => c.variant !== "")).toBe(true);
    expect(new Set(cases.cases.map((c) => c.id)).size).toBe(cases.cases.length);
    // peel_chain and structuring have as many again across conversions and wallets (cases/conversions.ts)
    const extra = (p: string) => (p === "peel_chain" || p === "structuring" ? OPTIONS.perPattern : 0);
    for (const p of PATTERNS) {
      const of = cases.cases.filter((c) => c.pattern === p);
      expect(
        of.filter((c) => c.positive),
        p,
      ).toHaveLength(OPTIONS.perPattern + extra(p));
      expect(
        of.filter((c) => !c.positive),
        p,
      ).toHaveLength(OPTIONS.perPattern);
    }
    const sanctions = cases.cases.filter((c) => c.pattern === "sanctions_exposure");
    expect(sanctions).toHaveLength(3 * CHAINS);
    expect(sanctions.every((c) => c.positive && /-d[123]$/.test(c.id))).toBe(true);
    const background = cases.cases.filter((c) => c.pattern === "background");
    expect(background).toHaveLength(BACKGROUND);
    expect(background.every((c) => !c.positive && ["neighbour", "random"].includes(c.variant))).toBe(true);
    const lookalikes = cases.cases.filter((c) => c.pattern === "lookalike");
    expect(lookalikes).toHaveLength(OPTIONS.perPattern);
    expect(lookalikes.every((c) => !c.positive)).toBe(true);
    expect(cases.cases.filter((c) => c.pattern === "conversion_exposure")).toHaveLength(OPTIONS.perPattern);
    const dusted = cases.cases.filter((c) => c.pattern === "dusted");
    expect(dusted).toHaveLength(DUSTED);
    expect(dusted.every((c) => !c.positive && ["sanctioned", "mixer", "both"].includes(c.variant))).toBe(
      true,
    );
    expect(cases.cases).toHaveLength(
      PATTERNS.length * 2 * OPTIONS.perPattern + 3 * CHAINS + BACKGROUND + DUSTED + 4 * OPTIONS.perPattern,
    );

    // every subject moves funds in the export; the sanctions chains start at a labelled sanctioned address
    const touched = new Set<string>();
    for (const t of readCsv(dir, "transactions.csv"))
      if (t.value !== "0") touched.add(t.from_address ?? "").add(t.to_address ?? "");
    for (const t of readCsv(dir, "token_transfers.csv"))
      touched.add(t.from_address ?? "").add(t.to_address ?? "");
    for (const c of cases.cases) expect(touched.has(c.subject), c.id).toBe(true);
    const labels = readCsv(dir, "labels.csv");
    expect(labels).toHaveLength(cases.counts.labels);
    expect(labels.filter((l) => l.category === "sanctioned")).toHaveLength(1);
    expect(
      labels.every((l) => l.chain_id === String(CHAIN) && l.source === `scenario:${cases.namespace}`),
    ).toBe(true);
    const labelled = new Set(labels.map((l) => l.address));
    // a positive's subject is an ordinary wallet (some false friends are services: an exchange's payouts)
    for (const c of cases.cases) if (c.positive) expect(labelled.has(c.subject), c.id).toBe(false);
    expect(readCsv(dir, "prices.csv")).toHaveLength(cases.counts.prices);
  });
});

describe("the importer on the generated export", () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let summary: ImportEtlSummary;
  beforeAll(async () => {
    database = await openTestDatabase();
    summary = await importEtl(database, { chainId: CHAIN, dir });
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("imports every transfer, and skips only the zero-value token calls", () => {
    expect(summary.files).toEqual([
      "blocks.csv",
      "transactions.csv",
      "token_transfers.csv",
      "tokens.csv",
      "contracts.csv",
    ]);
    expect(summary.ignored_files.sort()).toEqual(["cases.json", "labels.csv", "prices.csv"]);
    expect(summary.transfers).toEqual({
      native: cases.counts.nativeTransfers,
      token: cases.counts.tokenTransfers,
      written: cases.counts.nativeTransfers + cases.counts.tokenTransfers,
    });
    expect(summary.skipped).toEqual({
      failed_transactions: 0,
      // every transaction without a value: a token's transfer call, or a swap of tokens for tokens
      zero_value_transactions: cases.counts.transactions - cases.counts.nativeTransfers,
      creations_without_address: 0,
      transfers_without_time: 0,
    });
  });

  it("stores exactly the world's transfers (hashes as writeWorldToStore makes them)", async () => {
    const world = benchmarkWorld({ ...OPTIONS, background: BACKGROUND });
    const expected = transactionsOf(world.timeline())
      .map(({ t, hashIndex, logIndex }) =>
        [
          `0x${createHash("sha256").update(`${world.namespace}:${hashIndex}`).digest("hex")}`,
          logIndex,
          new Date(t.at * 1000).toISOString(),
          t.from,
          t.to,
          TOKEN_ADDRESSES[t.token],
          t.amount.toString(),
        ].join(" "),
      )
      .sort();
    const { rows } = await sql<Record<string, string | number | Date>>`
      SELECT tx_hash, log_index, block_time, from_address, to_address, token, value::text AS value
      FROM transfers WHERE chain_id = ${CHAIN}`.execute(database.db);
    const stored = rows
      .map((r) =>
        [
          r.tx_hash,
          r.log_index,
          new Date(r.block_time as string).toISOString(),
          r.from_address,
          r.to_address,
          r.token,
          r.value,
        ].join(" "),
      )
      .sort();
    expect(stored).toEqual(expected);
  });

  it("imports again without change, and takes the labels and prices", async () => {
    const again = await importEtl(database, { chainId: CHAIN, dir });
    expect(again.transfers.written).toBe(0);
    const labels = await importLabels(database.db, path.join(dir, "labels.csv"));
    expect(labels).toMatchObject({ rows: cases.counts.labels, rejected: 0, skipped: 0 });
    const prices = await importPrices(database.db, path.join(dir, "prices.csv"));
    expect(prices).toMatchObject({ rows: cases.counts.prices, inserted: cases.counts.prices, rejected: 0 });
    const { rows } = await sql<{ tokens: string; contracts: string; sanctioned: string }>`
      SELECT
        (SELECT count(*) FROM tokens WHERE chain_id = ${CHAIN})::text AS tokens,
        (SELECT count(*) FROM address_facts WHERE chain_id = ${CHAIN} AND is_contract)::text AS contracts,
        (SELECT count(*) FROM labels WHERE chain_id = ${CHAIN} AND category = 'sanctioned')::text AS sanctioned`.execute(
      database.db,
    );
    const contracts = readCsv(dir, "contracts.csv").length; // tokens, mixer pools and router, other contracts
    expect(contracts).toBeGreaterThanOrEqual(2 + 4);
    expect(rows[0]).toEqual({ tokens: "2", contracts: String(contracts), sanctioned: "1" });
  });
});
