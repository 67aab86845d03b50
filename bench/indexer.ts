// Benchmarks `indexer` and `indexer-tron`: blocks per second of the indexer against a real anvil, beside a bare loop
// reading the same blocks with full transactions (viem `getBlock({ includeTransactions: true })`, one block at a time) in
// the same run. Target: indexing at least 0.7 of the bare read loop, on each database.
//
// anvil is pre-mined with BENCH_INDEXER_BLOCKS blocks (default 2,000), each with two value transfers and one
// token mint (a Transfer log). The indexer then runs from block 0 on a fresh store (in-memory PGlite; a fresh
// schema of PostgreSQL) with its default batching, until its checkpoint reaches the head; it reads blocks with
// full transactions, their receipts, the token's metadata and the code of the called contract, and writes
// blocks, transfers, tokens, address facts and the checkpoint. Readers run interleaved for
// BENCH_INDEXER_ROUNDS rounds (default 2) and each keeps its best run. A JSON-RPC-batched bare read (blocks only)
// is shown for context.
// `indexer-tron` runs the same on an anvil started with Tron mainnet's chain id and a Tron-kind chain (the Tron
// devnet's stand-in, docs/decisions/0033-tron.md): the indexer then takes Tron's path, with no
// eth_getBlockReceipts (eth_getLogs over the batch plus a receipt per value transfer), 19 confirmations set to 0 as
// on the devnet, and no HTTP API to ask for contract types (`tron_http_url: null`, as on the devnet).
// `npm run bench -- indexer` (or `indexer-tron`) runs it alone.
// BENCH_DATABASES=pglite,postgres picks the databases; BENCH_DATABASE_URL the PostgreSQL server.
import crypto from "node:crypto";
import os from "node:os";
import pg from "pg";
import { createPublicClient, encodeDeployData, encodeFunctionData, http } from "viem";
import { TRON_MAINNET_ID } from "../src/chains/index.ts";
import { startIndexers } from "../src/chains/indexer/index.ts";
import type { ChainConfig } from "../src/chains/registry.ts";
import { migrate } from "../src/platform/db/migrate.ts";
import { openDatabase } from "../src/platform/db/open.ts";
import type { DB } from "../src/schema.ts";
import { Anvil } from "../test/indexer/support/anvil.ts";
import { contracts } from "../test/indexer/support/contracts.ts";
import { devnetChain } from "../test/indexer/support/harness.ts";
import { type Benchmark, fmt, wantedDatabases } from "./support.ts";

const BLOCKS = Number(process.env.BENCH_INDEXER_BLOCKS || 2000);
const TARGET_RATIO = 0.7;
const ROUNDS = Number(process.env.BENCH_INDEXER_ROUNDS || 2);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

type DatabaseName = "pglite" | "postgres";
const LABEL: Record<DatabaseName, string> = { pglite: "PGlite (in memory)", postgres: "PostgreSQL" };

interface IndexRun {
  database: DatabaseName;
  seconds?: number;
  transfers?: number;
  skipped?: string;
}

async function premine(anvil: Anvil): Promise<number> {
  const accounts = await anvil.rpc<string[]>("eth_accounts");
  const { TestToken } = contracts();
  const deploy = await anvil.rpc<string>("eth_sendTransaction", [
    {
      from: accounts[0],
      data: encodeDeployData({
        abi: TestToken.abi,
        bytecode: TestToken.bytecode,
        args: ["Bench Dollar", "BUSD", 6],
      }),
      gas: "0x4c4b40",
    },
  ]);
  let receipt: { contractAddress: string } | null = null;
  while (!receipt) {
    receipt = await anvil.rpc<{ contractAddress: string } | null>("eth_getTransactionReceipt", [deploy]);
    if (!receipt) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const token = receipt.contractAddress;
  await anvil.rpc("evm_setAutomine", [false]);
  let transfers = 0;
  for (let b = 2; b <= BLOCKS; b++) {
    const tx = (from: number, to: number, value: number) => ({
      method: "eth_sendTransaction",
      params: [{ from: accounts[from], to: accounts[to], value: `0x${value.toString(16)}`, gas: "0x5208" }],
    });
    await anvil.batch([
      tx(1 + (b % 4), 5 + (b % 4), b * 10 + 1),
      tx(5 + (b % 4), 1 + (b % 4), b * 10 + 2),
      {
        method: "eth_sendTransaction",
        params: [
          {
            from: accounts[0],
            to: token,
            data: encodeFunctionData({
              abi: TestToken.abi,
              functionName: "mint",
              args: [accounts[b % 10], BigInt(b)],
            }),
            gas: "0x186a0",
          },
        ],
      },
      { method: "evm_mine", params: [] },
    ]);
    transfers += 3;
  }
  return transfers;
}

/** The bare loop: one viem getBlock with full transactions after the other. Returns blocks per second. */
async function bareLoop(url: string, head: bigint): Promise<number> {
  const client = createPublicClient({ transport: http(url) });
  const started = performance.now();
  for (let n = 0n; n <= head; n++) await client.getBlock({ blockNumber: n, includeTransactions: true });
  return Number(head + 1n) / ((performance.now() - started) / 1000);
}

/** For context: the same blocks in JSON-RPC batches of 100, raw JSON. */
async function batchedRead(anvil: Anvil, head: bigint): Promise<number> {
  const started = performance.now();
  for (let from = 0n; from <= head; from += 100n) {
    const calls = [];
    for (let n = from; n < from + 100n && n <= head; n++) {
      calls.push({ method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, true] });
    }
    await anvil.batch(calls);
  }
  return Number(head + 1n) / ((performance.now() - started) / 1000);
}

/** The chain the indexer follows: the EVM devnet's, or a Tron-kind chain on Tron mainnet's id. */
type Flavour = "evm" | "tron";
const chainOf = (flavour: Flavour, url: string): ChainConfig =>
  flavour === "evm"
    ? devnetChain(url)
    : devnetChain(url, {
        id: TRON_MAINNET_ID,
        name: "Tron (anvil)",
        kind: "tron",
        currency_symbol: "TRX",
        currency_decimals: 6,
        confirmations: 0,
        tron_http_url: null,
      });

async function indexRun(
  database: DatabaseName,
  anvil: Anvil,
  head: bigint,
  flavour: Flavour,
): Promise<IndexRun> {
  const schema = `bench_${crypto.randomBytes(6).toString("hex")}`;
  if (database === "postgres") {
    const probe = new pg.Client({ connectionString: POSTGRES_URL });
    try {
      await probe.connect();
    } catch (error) {
      return { database, skipped: `PostgreSQL not reachable: ${(error as Error).message}` };
    } finally {
      await probe.end().catch(() => {});
    }
  }
  const opened = await openDatabase<DB>({
    databaseUrl: database === "postgres" ? POSTGRES_URL : undefined,
    dataDir: "memory://",
    schema: database === "postgres" ? schema : undefined,
  });
  try {
    await migrate(opened);
    let reached: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const started = performance.now();
    const indexers = startIndexers({
      database: opened,
      chains: [chainOf(flavour, anvil.url)],
      logLevel: "warn",
      tuning: { pollIntervalMs: 20 },
      hooks: {
        onEvent(event) {
          if (event.kind === "batch" && event.to >= head) reached();
        },
      },
    });
    await done;
    const seconds = (performance.now() - started) / 1000;
    await indexers.stop();
    const row = await opened.db
      .selectFrom("transfers")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    return { database, seconds, transfers: Number(row.n) };
  } finally {
    await opened.close();
    if (database === "postgres") {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  }
}

export const indexerBenchmark: Benchmark = {
  name: "indexer",
  title: "EVM indexer blocks/s against anvil, beside a bare read loop",
  run: () => runIndexerBenchmark("evm"),
};

export const tronIndexerBenchmark: Benchmark = {
  name: "indexer-tron",
  title: "Tron indexer blocks/s against a Tron-id anvil, beside a bare read loop",
  run: () => runIndexerBenchmark("tron"),
};

async function runIndexerBenchmark(flavour: Flavour): Promise<{ markdown: string; passed: boolean }> {
  const databases = wantedDatabases();
  const anvil = await Anvil.start(flavour === "tron" ? { chainId: TRON_MAINNET_ID } : {});
  try {
    const premineStarted = performance.now();
    const transfers = await premine(anvil);
    const head = await anvil.blockNumber();
    const blocks = Number(head + 1n);
    console.log(
      `pre-mined ${head} blocks (${transfers} transfers) in ${((performance.now() - premineStarted) / 1000).toFixed(1)} s`,
    );
    await batchedRead(anvil, head); // warm-up: every block read once before anything is measured
    const load = os.loadavg().map((l) => l.toFixed(1));

    // Interleaved rounds, best of each reader: a load spike on a shared machine hits one run, not the figure.
    const bareRates: number[] = [];
    const batchedRates: number[] = [];
    const best = new Map<DatabaseName, IndexRun>();
    for (let round = 1; round <= ROUNDS; round++) {
      bareRates.push(await bareLoop(anvil.url, head));
      console.log(`round ${round}: bare loop ${fmt.rps(bareRates.at(-1) as number)} blocks/s`);
      for (const database of databases) {
        const run = await indexRun(database, anvil, head, flavour);
        if (run.skipped) {
          best.set(database, run);
          console.log(`  ${LABEL[database]}: skipped (${run.skipped})`);
          continue;
        }
        console.log(`  indexer on ${LABEL[database]}: ${fmt.rps(blocks / (run.seconds as number))} blocks/s`);
        const previous = best.get(database);
        if (!previous?.seconds || (run.seconds as number) < previous.seconds) best.set(database, run);
      }
      batchedRates.push(await batchedRead(anvil, head));
    }
    bareRates.push(await bareLoop(anvil.url, head));
    const bare = Math.max(...bareRates);
    const batched = Math.max(...batchedRates);
    console.log(`bare loop, best of ${bareRates.length}: ${fmt.rps(bare)} blocks/s`);

    const rows: string[] = [];
    let passed = true;
    for (const database of databases) {
      const run = best.get(database) as IndexRun;
      if (run.skipped) {
        rows.push(`| indexer, ${LABEL[database]} | skipped: ${run.skipped} | | | |`);
        passed = false;
        continue;
      }
      const rate = blocks / (run.seconds as number);
      const ratio = rate / bare;
      const complete = run.transfers === transfers;
      const ok = ratio >= TARGET_RATIO && complete;
      passed &&= ok;
      rows.push(
        `| indexer, ${LABEL[database]} | ${fmt.rps(rate)} | ${(run.seconds as number).toFixed(2)} s | ${fmt.ratio(ratio)} | ${
          ok ? "yes" : `no${complete ? "" : `: ${run.transfers} of ${transfers} transfers stored`}`
        } |`,
      );
    }
    const tron = flavour === "tron";
    const markdown = [
      tron
        ? "## indexer-tron: the Tron indexer against a Tron-id anvil"
        : "## indexer: EVM indexer against anvil",
      "",
      ...(tron
        ? [
            `anvil started with Tron mainnet's chain id (${TRON_MAINNET_ID}), followed as a Tron-kind chain: the indexer`,
            "takes Tron's path (no eth_getBlockReceipts: eth_getLogs over each batch and eth_getTransactionReceipt for",
            "each value transfer; batches within Tron's 5,000-block log range), as on the Tron devnet. What anvil does",
            "not imitate of a java-tron node (its HTTP API, its latency): docs/decisions/0033-tron.md.",
            "",
          ]
        : []),
      `anvil pre-mined with ${head.toLocaleString("en-US")} blocks: block 1 deploys a token, every later one holds two value`,
      `transfers and one token mint (${transfers.toLocaleString("en-US")} transfers). The figures count blocks 0 to ${head}.`,
      "The indexer runs from block 0 on a fresh store with its default batching (up to 100 blocks per batch;",
      tron
        ? "eth_getBlockByNumber with transactions, eth_getLogs and receipts in JSON-RPC batches of 50 calls, 4 in"
        : "eth_getBlockByNumber with transactions and eth_getBlockReceipts in JSON-RPC batches of 50 calls, 4 in",
      "flight; the next batch read while the current one is written) until its checkpoint reaches the head,",
      "having stored every transfer. The bare loop reads the same blocks with viem",
      `\`getBlock({ includeTransactions: true })\`, one after the other. Readers run interleaved, ${ROUNDS} rounds`,
      "(the bare loop once more at the end); each figure is the reader's best run.",
      `Target: at least 0.7 of the bare loop, on each database. Load average when measuring began: ${load.join(", ")}`,
      "(2 cores: the figures move with other work on the machine, the indexer's more than the bare loop's, since",
      "it asks the node for twice the work, receipts included, and writes the store besides).",
      "",
      "| Reader | blocks/s | time | ÷ bare loop | Meets target |",
      "| --- | ---: | ---: | ---: | --- |",
      `| bare loop (viem getBlock, full transactions) | ${fmt.rps(bare)} | ${(blocks / bare).toFixed(2)} s |  |  |`,
      ...rows,
      `| for context: bare batched read (100 blocks per JSON-RPC batch, raw JSON, no receipts) | ${fmt.rps(batched)} | ${(blocks / batched).toFixed(2)} s | ${fmt.ratio(batched / bare)} |  |`,
    ].join("\n");
    return { markdown, passed };
  } finally {
    await anvil.stop();
  }
}
