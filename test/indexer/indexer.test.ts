// The indexer against a real anvil: native and token transfers land exactly once (compared with what was
// sent), failed transactions and non-ERC-20 events are ignored, token metadata and contract marks are read, and
// a batch that fails between the RPC fetch and the commit loses and duplicates nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainFollower, settingsFor } from "../../src/chains/indexer/index.ts";
import { processOwnsDatabase } from "../../src/chains/indexer/lock.ts";
import { hexToBigInt } from "../../src/chains/rpc/evm.ts";
import { JsonRpcClient } from "../../src/chains/rpc/json-rpc.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import {
  checkpointOf,
  devnetChain,
  LogSink,
  nodeProxy,
  startTestIndexer,
  type TestIndexer,
  until,
  waitIndexed,
} from "./support/harness.ts";
import { Scenario, sortTransfers, storedTransfers, ZERO } from "./support/scenario.ts";

let anvil: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let scenario: Scenario;
let indexer: TestIndexer | undefined;
const addr: Record<string, string> = {};

beforeAll(async () => {
  contracts(); // compile before the clock matters
  [anvil, database] = await Promise.all([Anvil.start(), openTestDatabase()]);
  scenario = await Scenario.start(anvil);
  addr.usd = await scenario.deploy("TestToken", ["Vigía Dollar", "USDV", 6]);
  addr.mkr = await scenario.deploy("Bytes32Token");
  addr.bare = await scenario.deploy("BareToken");
  addr.nft = await scenario.deploy("TestNft");
  addr.vault = await scenario.deploy("Vault");
  addr.refuser = await scenario.deploy("Refuser");
  addr.revertAfterLog = await scenario.deploy("RevertAfterLog");
  // A creation that pays the new contract: a native transfer to the created address.
  addr.fundedVault = await scenario.deploy("Vault", [], { value: 5_000n });
});

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await database?.drop();
});

async function playMixedBlocks() {
  const s = scenario;
  const [a0, a1, a2, a3] = [s.account(0), s.account(1), s.account(2), s.account(3)];
  const { TestToken, BareToken, TestNft, RevertAfterLog, Vault } = contracts();
  // Block: mints of every kind, plain value transfers, a zero-value transfer (not a transfer).
  await s.mint(addr.usd as string, a1, 1_000_000_000n);
  await s.mint(addr.mkr as string, a2, 10n ** 21n, "Bytes32Token");
  await s.call(a0, addr.bare as string, BareToken.abi, "mint", [a3, 77n], {
    transfers: [{ token: addr.bare as string, from: ZERO, to: a3, value: "77" }],
  });
  await s.call(a0, addr.nft as string, TestNft.abi, "mint", [a3, 42n]); // ERC-721: no transfer row
  await s.sendNative(a0, a1, 10n ** 18n);
  await s.sendNative(a2, a3, 123_456_789n);
  await s.sendNative(a3, a2, 0n);
  await s.mine();
  // Block: token transfers, several in one transaction (log indexes), a token transfer of 0 (kept).
  await s.transferToken(addr.usd as string, a1, a2, 250_000n);
  await s.call(
    a1,
    addr.usd as string,
    TestToken.abi,
    "transferMany",
    [
      [a2, a3, a0],
      [1n, 2n, 3n],
    ],
    {
      transfers: [
        { token: addr.usd as string, from: a1, to: a2, value: "1" },
        { token: addr.usd as string, from: a1, to: a3, value: "2" },
        { token: addr.usd as string, from: a1, to: a0, value: "3" },
      ],
    },
  );
  await s.transferToken(addr.usd as string, a2, a0, 0n);
  // Value into a contract (it has code: a contract mark), and forwarded on (internal: not visible).
  await s.sendNative(a0, addr.vault as string, 3_000n);
  await s.call(a3, addr.vault as string, Vault.abi, "forward", [a1], { value: 4_000n });
  await s.mine();
  // Block: failures. None of these moves anything.
  await s.sendNative(a1, addr.refuser as string, 999n, { fail: true });
  await s.transferToken(addr.usd as string, a3, a1, 10n ** 30n, { fail: true });
  await s.call(a0, addr.revertAfterLog as string, RevertAfterLog.abi, "go", [a1], { fail: true });
  await s.call(a2, addr.vault as string, Vault.abi, "forward", [addr.refuser], { value: 555n, fail: true });
  await s.sendNative(a2, a1, 31_337n);
  await s.mine();
  // Several blocks of plain transfers.
  for (let i = 0; i < 5; i++) {
    await s.someNativeTransfers(3);
    await s.mine();
  }
}

describe("indexer on anvil", () => {
  it("stores every native and ERC-20 transfer exactly once, and nothing else", async () => {
    await playMixedBlocks();
    const head = await anvil.blockNumber();
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, head);

    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    // Log indexes are the node's; native rows carry -1.
    const usdRows = await database.db
      .selectFrom("transfers")
      .select(["tx_hash", "log_index"])
      .where("token", "=", addr.usd as string)
      .execute();
    for (const row of usdRows) {
      const receipt = await anvil.rpc<{ logs: { logIndex: string; address: string }[] }>(
        "eth_getTransactionReceipt",
        [row.tx_hash],
      );
      expect(receipt.logs.map((l) => Number(hexToBigInt(l.logIndex)))).toContain(row.log_index);
    }
    const native = await database.db
      .selectFrom("transfers")
      .select("log_index")
      .where("token", "=", "native")
      .execute();
    expect(new Set(native.map((r) => r.log_index))).toEqual(new Set([-1]));
  });

  it("stores every block with its hash, and the checkpoint at the head", async () => {
    const head = await anvil.blockNumber();
    const blocks = await database.db
      .selectFrom("blocks")
      .select(["number", "hash", "parent_hash"])
      .where("chain_id", "=", CHAIN_ID)
      .orderBy("number")
      .execute();
    expect(blocks.map((b) => BigInt(b.number))).toEqual(
      Array.from({ length: Number(head) + 1 }, (_, i) => BigInt(i)),
    );
    const last = await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
    expect(blocks.at(-1)?.hash).toBe(last.hash);
    expect(await checkpointOf(database.db)).toEqual({ number: head, hash: last.hash });
  });

  it("reads token metadata once, tolerating bytes32 symbols and tokens without metadata", async () => {
    const tokens = await database.db
      .selectFrom("tokens")
      .select(["address", "symbol", "name", "decimals"])
      .where("chain_id", "=", CHAIN_ID)
      .orderBy("address")
      .execute();
    const expected = [
      { address: addr.usd, symbol: "USDV", name: "Vigía Dollar", decimals: 6 },
      { address: addr.mkr, symbol: "MKR", name: "Maker", decimals: 18 },
      { address: addr.bare, symbol: null, name: null, decimals: null },
    ].sort((a, b) => ((a.address as string) < (b.address as string) ? -1 : 1));
    // The ERC-721 contract is not a token here.
    expect(tokens).toEqual(expected);
  });

  it("marks contracts (called, created, emitting) and leaves accounts unmarked", async () => {
    const facts = await database.db
      .selectFrom("address_facts")
      .select(["address", "is_contract"])
      .where("chain_id", "=", CHAIN_ID)
      .execute();
    const contractSet = new Set(facts.filter((f) => f.is_contract).map((f) => f.address));
    for (const name of ["usd", "mkr", "bare", "nft", "vault", "fundedVault", "refuser", "revertAfterLog"]) {
      expect(contractSet, name).toContain(addr[name]);
    }
    for (const account of scenario.accounts.slice(0, 9)) expect(contractSet).not.toContain(account);
    // First seen: every transfer party has a fact row.
    const known = new Set(facts.map((f) => f.address));
    for (const t of scenario.expected) expect(known).toContain(t.to);
  });

  it("keeps following: new blocks are indexed as they come, once", async () => {
    for (let i = 0; i < 3; i++) {
      await scenario.someNativeTransfers(2, 5_000_000n);
      await scenario.mint(addr.usd as string, scenario.account(4), 100n + BigInt(i));
      await scenario.mine();
    }
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
  });

  it("a restarted indexer resumes from its checkpoint without duplicating anything", async () => {
    await indexer?.stop();
    const before = await database.db
      .selectFrom("transfers")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    await scenario.someNativeTransfers(3, 9_000_000n);
    await scenario.mine();
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    const batches = indexer.events.filter((e) => e.kind === "batch");
    expect(batches[0]?.kind === "batch" && batches[0].from).toBe(
      await anvil.blockNumber(), // only the one new block was read
    );
    expect(Number(before.n) + 3).toBe(scenario.expected.length);
  });

  it("a batch failing between fetch and commit (injected crash) loses and duplicates nothing", async () => {
    await indexer?.stop();
    for (let i = 0; i < 12; i++) {
      await scenario.someNativeTransfers(2, 20_000_000n);
      await scenario.mint(addr.usd as string, scenario.account(6), 1_000n + BigInt(i));
      await scenario.mine();
    }
    let commits = 0;
    indexer = startTestIndexer(database, anvil.url, {
      maxBatchBlocks: 3,
      hooks: {
        // Every other batch dies after its rows are written, before the commit.
        beforeCommit() {
          commits++;
          if (commits % 2 === 1) throw new Error("injected crash before commit");
        },
      },
    });
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    const failures = indexer.events.filter((e) => e.kind === "failure");
    expect(failures.length).toBeGreaterThanOrEqual(4);
    expect(indexer.log.count("warn", /retrying/)).toBeGreaterThanOrEqual(1);
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    // Blocks are contiguous and unique.
    const { n, max } = await database.db
      .selectFrom("blocks")
      .select((eb) => [eb.fn.countAll<string>().as("n"), eb.fn.max("number").as("max")])
      .where("chain_id", "=", CHAIN_ID)
      .executeTakeFirstOrThrow();
    expect(BigInt(n)).toBe(BigInt(max) + 1n);
  });

  it("a node without eth_getBlockReceipts: eth_getLogs and per-transaction receipts give the same store", async () => {
    // The same anvil behind a proxy that refuses eth_getBlockReceipts and says it serves chain 31338, so this
    // second copy of the index lands beside the first under another chain id.
    const OTHER = 31338;
    const { fetch: proxy, asked } = nodeProxy(OTHER, { refuse: ["eth_getBlockReceipts"] });
    const follower = new ChainFollower({
      db: database.db,
      settings: settingsFor(devnetChain(anvil.url, { id: OTHER, confirmations: 0 }), { pollIntervalMs: 20 }),
      lock: processOwnsDatabase(),
      log: new LogSink(),
      rpc: new JsonRpcClient(anvil.url, { fetch: proxy }),
      backoff: { initialMs: 20, maxMs: 250 },
    });
    follower.start();
    try {
      const head = await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      await until(
        "the second copy",
        async () => (await checkpointOf(database.db, OTHER))?.hash === head.hash,
      );
    } finally {
      await follower.stop();
    }
    expect(await storedTransfers(database.db, OTHER)).toEqual(sortTransfers(scenario.expected));
    expect(asked.get("eth_getLogs")).toBeGreaterThanOrEqual(1);
    // Token metadata read once per token: symbol, name and decimals of the three tokens, even with the next
    // batch read ahead while the one that found them was being written.
    expect(asked.get("eth_call")).toBe(9);
    expect(asked.get("eth_getTransactionReceipt")).toBeGreaterThanOrEqual(1);
    const metadata = async (chainId: number) =>
      database.db
        .selectFrom("tokens")
        .select(["address", "symbol", "name", "decimals"])
        .where("chain_id", "=", chainId)
        .orderBy("address")
        .execute();
    expect(await metadata(OTHER)).toEqual(await metadata(CHAIN_ID));
    const contractsOf = async (chainId: number) =>
      (
        await database.db
          .selectFrom("address_facts")
          .select("address")
          .where("chain_id", "=", chainId)
          .where("is_contract", "=", true)
          .orderBy("address")
          .execute()
      ).map((r) => r.address);
    // Without receipts of every transaction, only the emitters of Transfer events are known to hold code without
    // asking; the rest come from eth_getCode on the recipients of calls: the same set in the end.
    expect(await contractsOf(OTHER)).toEqual(await contractsOf(CHAIN_ID));
  });

  it("refuses a node that serves another chain than the configured one", async () => {
    const wrong = startTestIndexer(database, anvil.url, { chain: { id: 1, confirmations: 0 } });
    try {
      await until("a refusal", () => wrong.status()[0]?.state === "stopped");
      expect(wrong.status()[0]?.stoppedReason).toMatch(/serves chain 31337, not chain 1/);
      expect(await checkpointOf(database.db, 1)).toBeUndefined();
    } finally {
      await wrong.stop();
    }
  });
});
