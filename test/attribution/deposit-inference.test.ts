// Exchange deposit addresses are inferred where data enters the store (docs/decisions/0010), on a real database:
// through `import etl` and `import tags` (in either order), kept through a re-import, and through the indexer's
// batch writes and a reorg unwind. A deposit address that sweeps to one exchange is attributed; one that sweeps to
// two exchanges, an ordinary user who sometimes pays an exchange and a busy merchant are not; an address with a
// label of its own keeps it. The graph expansion then reads the inferred address as its exchange.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { expandGraph } from "../../src/analysis/graph/index.ts";
import { unwindTo, writeBatch } from "../../src/chains/indexer/store.ts";
import type { TransferRow } from "../../src/chains/store/transfers.ts";
import { importEtl } from "../../src/ingest/etl/import.ts";
import { importLabels } from "../../src/ingest/labels/import-labels.ts";
import { openTestDatabase } from "../support/db-only.ts";

const CHAIN = 1;
const HOUR = 3_600;
const DAY = 86_400;
const T0 = Date.UTC(2024, 2, 1) / 1000;
const ETH = 10n ** 18n;

const A = (name: string) => {
  let h = 0x811c9dc5;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return `0x${name.length.toString(16).padStart(2, "0")}${h.toString(16).padStart(8, "0").repeat(5)}`.slice(
    0,
    42,
  );
};
const who = {
  binance14: A("binance14"),
  binance15: A("binance15"),
  bitso: A("bitso-hot"),
  deposit: A("deposit-of-alice"),
  twoExchanges: A("deposit-shared"),
  alice: A("alice"),
  bob: A("bob"),
  user: A("ordinary-user"),
  merchant: A("merchant"),
  service: A("labelled-service"),
};

interface Tx {
  from: string;
  to: string;
  eth: number;
  at: number;
}

/** The story: each subject's transfers, a few hours or days apart. */
function story(): Tx[] {
  const txs: Tx[] = [];
  const send = (from: string, to: string, eth: number, at: number) => txs.push({ from, to, eth, at });
  // Alice's deposit address: three deposits (one from Bob), each swept to a Binance hot wallet within hours.
  send(who.alice, who.deposit, 2, T0);
  send(who.deposit, who.binance14, 2, T0 + 3 * HOUR);
  send(who.bob, who.deposit, 1, T0 + 2 * DAY);
  send(who.alice, who.deposit, 3, T0 + 2 * DAY + HOUR);
  send(who.deposit, who.binance15, 4, T0 + 2 * DAY + 5 * HOUR);
  // Swept to Binance and to Bitso: a user of both, not one exchange's deposit address.
  send(who.alice, who.twoExchanges, 2, T0 + DAY);
  send(who.twoExchanges, who.binance14, 1, T0 + DAY + HOUR);
  send(who.twoExchanges, who.bitso, 1, T0 + DAY + 2 * HOUR);
  // An ordinary user: a salary, eight payments, and once a payment to an exchange.
  send(who.bob, who.user, 5, T0);
  for (let i = 0; i < 8; i++) send(who.user, A(`shop${i}`), 0.1, T0 + (i + 1) * HOUR);
  send(who.user, who.binance14, 1, T0 + DAY);
  // A busy merchant: customers pay, it cashes out to Bitso weekly and pays its suppliers.
  for (let week = 0; week < 3; week++) {
    const at = T0 + week * 7 * DAY;
    for (let c = 0; c < 10; c++) send(A(`customer${week}-${c}`), who.merchant, 0.2, at + c * HOUR);
    send(who.merchant, who.bitso, 1, at + 5 * DAY);
    send(who.merchant, A(`supplier${week}`), 1, at + 5 * DAY + HOUR);
  }
  // A service with a label of its own, behaving like a deposit address: its label wins.
  send(who.alice, who.service, 1, T0 + 3 * DAY);
  send(who.service, who.binance14, 1, T0 + 3 * DAY + HOUR);
  return txs.sort((a, b) => a.at - b.at);
}

const hash = (i: number) => `0x${(i + 1).toString(16).padStart(64, "0")}`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-deposits-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The story as an ethereum-etl export; `first` keeps only its first transactions. */
function writeExport(first?: number): string {
  const dir = path.join(tmp, first === undefined ? "export" : `export-${first}`);
  fs.mkdirSync(dir, { recursive: true });
  const lines = [
    "hash,block_number,block_timestamp,transaction_index,from_address,to_address,value,input,receipt_status",
  ];
  story()
    .slice(0, first)
    .forEach((tx, i) => {
      const wei = (BigInt(Math.round(tx.eth * 1_000)) * ETH) / 1_000n;
      lines.push(`${hash(i)},${100 + i},${tx.at},0,${tx.from},${tx.to},${wei},0x,1`);
    });
  fs.writeFileSync(path.join(dir, "transactions.csv"), `${lines.join("\n")}\n`);
  return dir;
}

function writeLabels(): string {
  const file = path.join(tmp, "labels.csv");
  fs.writeFileSync(
    file,
    [
      "address,chain_id,label,category,source",
      `${who.binance14},1,Binance 14,exchange,test`,
      `${who.binance15},1,Binance 15,exchange,test`,
      `${who.bitso},1,Bitso: hot wallet,exchange,test`,
      `${who.service},1,Some payment processor,other,test`,
      "",
    ].join("\n"),
  );
  return file;
}

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeEach(async () => {
  database = await openTestDatabase();
  return () => database.drop();
});

/** The verdicts, without their time of writing. */
async function verdicts() {
  const rows = await database.db
    .selectFrom("deposit_addresses")
    .select([
      "address",
      "attributed",
      "reason",
      "exchange",
      "hot_wallets",
      "sweeps",
      "received",
      "senders",
      "swept_share",
      "median_sweep_seconds",
      "confidence",
    ])
    .where("chain_id", "=", CHAIN)
    .orderBy("address")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.address, r]));
}

const attributed = async () =>
  Object.values(await verdicts())
    .filter((v) => v.attributed)
    .map((v) => v.address);

describe("deposit addresses inferred where data enters", () => {
  it("import etl then import tags: one deposit address, with its evidence; the others are not", async () => {
    await importEtl(database, { chainId: CHAIN, dir: writeExport() });
    expect(await verdicts()).toEqual({}); // no exchange labels yet: no candidates
    const summary = await importLabels(database.db, writeLabels());
    expect(summary.deposit_addresses).toEqual({ judged: 5, attributed: 1 });
    const v = await verdicts();
    expect(v[who.deposit]).toEqual({
      address: who.deposit,
      attributed: true,
      reason: null,
      exchange: "Binance",
      hot_wallets: [who.binance14, who.binance15].sort(),
      sweeps: 2,
      received: 3,
      senders: 2,
      swept_share: 1,
      // The oldest funds waiting at each sweep: Alice's first 2 ETH 3 hours, Bob's 1 ETH 5 hours.
      median_sweep_seconds: 4 * HOUR,
      confidence: 80,
    });
    expect(v[who.twoExchanges]).toMatchObject({ attributed: false, reason: "sends to 2 exchanges" });
    expect(v[who.user]).toMatchObject({
      attributed: false,
      reason: "8 of 9 outgoing transfers go elsewhere",
    });
    expect(v[who.merchant]).toMatchObject({
      attributed: false,
      reason: "3 of 6 outgoing transfers go elsewhere",
    });
    expect(v[who.service]).toMatchObject({ attributed: false, reason: "labelled" });
  });

  it("import tags then import etl gives the same verdicts, and a re-import changes nothing", async () => {
    await importLabels(database.db, writeLabels());
    const dir = writeExport();
    await importEtl(database, { chainId: CHAIN, dir });
    const first = await verdicts();
    expect(await attributed()).toEqual([who.deposit]);
    await importEtl(database, { chainId: CHAIN, dir });
    await importLabels(database.db, writeLabels());
    expect(await verdicts()).toEqual(first);
  });

  it("an import in small batches, then one that extends it, gives the verdicts of one import in one batch", async () => {
    // The COPY way judges once, after its last batch, what its batches wrote (the idempotent batches too).
    await importLabels(database.db, writeLabels());
    const firstSweep = story().findIndex((tx) => tx.from === who.deposit);
    await importEtl(database, { chainId: CHAIN, dir: writeExport(firstSweep + 1), batchRows: 4 });
    expect((await verdicts())[who.deposit]).toMatchObject({ attributed: true, sweeps: 1, received: 1 });
    await importEtl(database, { chainId: CHAIN, dir: writeExport(), batchRows: 4 });
    const extended = await verdicts();

    const fresh = await openTestDatabase();
    try {
      await importLabels(fresh.db, writeLabels());
      await importEtl(fresh, { chainId: CHAIN, dir: writeExport() });
      const once = await fresh.db
        .selectFrom("deposit_addresses")
        .select(["address", "attributed", "reason", "sweeps", "received", "senders", "confidence"])
        .where("chain_id", "=", CHAIN)
        .orderBy("address")
        .execute();
      expect(once.map((v) => v.address)).toEqual(Object.keys(extended));
      for (const v of once) expect(extended[v.address]).toMatchObject(v);
      expect(extended[who.deposit]).toMatchObject({ attributed: true, sweeps: 2, received: 3 });
    } finally {
      await fresh.drop();
    }
  });

  it("the graph reads the inferred address as its exchange; a stored label wins", async () => {
    await importLabels(database.db, writeLabels());
    await importEtl(database, { chainId: CHAIN, dir: writeExport() });
    const { graph } = await expandGraph(database.db, { chainId: CHAIN, roots: [who.alice], maxDepth: 2 });
    expect(graph.nodes.get(who.deposit)).toMatchObject({
      type: "exchange",
      category: "exchange",
      label: "Binance: deposit address (inferred)",
      inferred: true,
      expanded: false, // an exchange ends a path
    });
    expect(graph.nodes.get(who.service)).toMatchObject({
      label: "Some payment processor",
      category: "other",
    });
    expect(graph.nodes.get(who.service)?.inferred).toBeUndefined();
    expect(graph.nodes.get(who.twoExchanges)).toMatchObject({ type: "eoa", expanded: true });
  });

  it("the indexer's batches attribute, a reorg unwind takes the attribution back, and the replay restores it", async () => {
    await importLabels(database.db, writeLabels());
    const rows: TransferRow[] = story().map((tx, i) => ({
      chainId: CHAIN,
      txHash: hash(i),
      logIndex: -1,
      blockNumber: BigInt(100 + i),
      blockTime: new Date(tx.at * 1000),
      from: tx.from,
      to: tx.to,
      token: "native",
      value: (BigInt(Math.round(tx.eth * 1_000)) * ETH) / 1_000n,
    }));
    const block = (n: number) => ({ number: BigInt(n), hash: `0x${n.toString(16).padStart(64, "a")}` });
    const batch = (from: number, to: number) => ({
      blocks: [],
      transfers: rows.filter((r) => r.blockNumber >= BigInt(from) && r.blockNumber <= BigInt(to)),
      tokens: [],
      contracts: [],
    });
    const last = 100 + rows.length - 1;
    // Blocks up to the deposit's first sweep, then the rest.
    const firstSweep = 100 + rows.findIndex((r) => r.from === who.deposit);
    await writeBatch(database.db, CHAIN, batch(100, firstSweep), undefined, block(firstSweep));
    expect(await attributed()).toEqual([who.deposit]);
    await writeBatch(database.db, CHAIN, batch(firstSweep + 1, last), block(firstSweep), block(last));
    expect((await verdicts())[who.deposit]).toMatchObject({ attributed: true, sweeps: 2 });
    // A reorg back to before the first sweep: the deposit address has swept nothing on the chain that remains.
    await unwindTo(database.db, CHAIN, block(firstSweep - 1), 100n, block(last));
    expect((await verdicts())[who.deposit]).toMatchObject({
      attributed: false,
      reason: "sends nothing to an exchange",
    });
    await writeBatch(database.db, CHAIN, batch(firstSweep, last), block(firstSweep - 1), block(last));
    expect((await verdicts())[who.deposit]).toMatchObject({ attributed: true, sweeps: 2, received: 3 });
  });
});
