// The indexer against a stand-in for a java-tron node (support/tron-node.ts: Tron's /jsonrpc subset and its
// HTTP API, on 127.0.0.1): a Tron-kind chain never asks eth_getBlockReceipts, keeps its batches within 100 calls and
// its eth_getLogs ranges within 5000 blocks, stays 19 blocks behind the head by default, records as TRX only the
// values of TransferContract and TriggerSmartContract (call_value) transactions, never a TRC-10 amount, a freeze or
// votes, stores TRC-20 transfers, and hands USDT's freezes (the user in the data or in a topic) to the sink.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADDED_BLACKLIST_TOPIC,
  ChainFollower,
  type IssuerFreezeEvent,
  REMOVED_BLACKLIST_TOPIC,
  settingsFor,
  TRON_USDT,
} from "../../src/chains/indexer/index.ts";
import { processOwnsDatabase } from "../../src/chains/indexer/lock.ts";
import { TRON_MAINNET_ID } from "../../src/chains/registry.ts";
import { issuerFreezeLabels } from "../../src/ingest/labels/index.ts";
import { labelRowsOf } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { checkpointOf, devnetChain, LogSink, until } from "./support/harness.ts";
import { storedTransfers } from "./support/scenario.ts";
import {
  STAND_IN_MAX_BATCH,
  STAND_IN_MAX_LOG_RANGE,
  type StandInTx,
  TronNodeStandIn,
} from "./support/tron-node.ts";

const TRON = TRON_MAINNET_ID;
const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
const topic = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;
const uint = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
const ALICE = addr(0xa001);
const BOB = addr(0xa002);
const CAROL = addr(0xa003);
const DAVE = addr(0xa004);
const WITNESS = addr(0xa005);
const VAULT = addr(0xa006);
const FROZEN = addr(0xa007);
const INDEXED = addr(0xa008);

let node: TronNodeStandIn;
let database: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  node = new TronNodeStandIn(TRON);
  await node.start();
  database = await openTestDatabase();
  const block: StandInTx[] = [
    { type: "TransferContract", from: ALICE, to: BOB, amount: 5_000_000n },
    // TRC-10: `value` is the token amount, not TRX
    { type: "TransferAssetContract", from: ALICE, to: CAROL, amount: 777n },
    { type: "VoteWitnessContract", from: ALICE, to: WITNESS, amount: 10n },
    { type: "FreezeBalanceContract", from: ALICE, to: DAVE, amount: 1_000_000_000n },
    { type: "FreezeBalanceContract", from: ALICE, to: null, amount: 2_000_000n },
    // call_value (sun) sent with a call: TRX into the contract
    { type: "TriggerSmartContract", from: ALICE, to: VAULT, amount: 3_000n, data: "0xd0e30db0" },
    {
      type: "TriggerSmartContract",
      from: ALICE,
      to: TRON_USDT,
      amount: 0n,
      data: "0xa9059cbb",
      logs: [{ address: TRON_USDT, topics: [TRANSFER, topic(ALICE), topic(BOB)], data: uint(100_000_000n) }],
    },
    {
      type: "TriggerSmartContract",
      from: ALICE,
      to: TRON_USDT,
      amount: 0n,
      data: "0x0ecb93c0",
      logs: [{ address: TRON_USDT, topics: [ADDED_BLACKLIST_TOPIC], data: topic(FROZEN) }],
    },
  ];
  node.addBlock(block);
  // A freeze with the user as a topic, and one of a contract that is not the configured USDT (ignored).
  node.addBlock([
    {
      type: "TriggerSmartContract",
      from: ALICE,
      to: TRON_USDT,
      amount: 0n,
      data: "0x0ecb93c0",
      logs: [{ address: TRON_USDT, topics: [ADDED_BLACKLIST_TOPIC, topic(INDEXED)], data: "0x" }],
    },
    {
      type: "TriggerSmartContract",
      from: ALICE,
      to: VAULT,
      amount: 0n,
      data: "0x0ecb93c0",
      logs: [{ address: VAULT, topics: [ADDED_BLACKLIST_TOPIC], data: topic(CAROL) }],
    },
  ]);
  // Enough blocks that a batch would exceed the node's eth_getLogs range, then a release of the indexed one.
  node.addEmptyBlocks(STAND_IN_MAX_LOG_RANGE + 500);
  node.addBlock([
    {
      type: "TriggerSmartContract",
      from: ALICE,
      to: TRON_USDT,
      amount: 0n,
      data: "0xe4997dc5",
      logs: [{ address: TRON_USDT, topics: [REMOVED_BLACKLIST_TOPIC], data: topic(INDEXED) }],
    },
  ]);
  node.addEmptyBlocks(30);
});

afterAll(async () => {
  await node?.stop();
  await database?.drop();
});

describe("the indexer on a Tron node's /jsonrpc", () => {
  it("defaults to 19 confirmations and to USDT's freezes on Tron mainnet", () => {
    const settings = settingsFor(devnetChain(node.url, { id: TRON, kind: "tron", confirmations: null }));
    expect(settings.confirmations).toBe(19n);
    expect(settings.issuerFreezeContracts).toEqual([TRON_USDT]);
    expect(settings.tronWalletUrl).toBe(node.url.replace(/\/jsonrpc$/, ""));
    expect(
      settingsFor(devnetChain(node.url, { id: TRON, kind: "tron" }), { maxBatchBlocks: 9000 }).maxBatchBlocks,
    ).toBe(STAND_IN_MAX_LOG_RANGE);
  });

  it("takes the chain's configured fields: its node's id beyond 32 bits, its HTTP API, its freeze contracts", () => {
    // Nile answers eth_chainId 3448148188, beyond the service's 32-bit chain ids: `id` is the service's number.
    const nile = settingsFor(
      devnetChain(node.url, {
        id: 3448,
        kind: "tron",
        node_chain_id: 3448148188,
        tron_http_url: null,
        issuer_freeze_contracts: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
      }),
    );
    expect(nile.nodeChainId).toBe(3448148188n);
    expect(nile.tronWalletUrl).toBeNull();
    expect(nile.issuerFreezeContracts).toEqual([TRON_USDT]);
    expect(settingsFor(devnetChain(node.url, { id: TRON, kind: "tron" })).nodeChainId).toBe(BigInt(TRON));
  });

  it("reads TRX, TRC-20 transfers and freezes the way Tron writes them, within its limits", async () => {
    const freezes: IssuerFreezeEvent[] = [];
    const settings = settingsFor(
      devnetChain(node.url, { id: TRON, name: "Tron", kind: "tron", confirmations: null }),
      {
        pollIntervalMs: 20,
        maxBatchBlocks: 100_000,
        targetBatchTransactions: 1_000_000,
      },
    );
    const follower = new ChainFollower({
      db: database.db,
      settings,
      lock: processOwnsDatabase(),
      log: new LogSink(),
      backoff: { initialMs: 20, maxMs: 100 },
      hooks: {
        issuerFreezes: {
          async recorded(trx, chainId, events) {
            freezes.push(...events);
            await issuerFreezeLabels.recorded(trx, chainId, events);
          },
          unwound: issuerFreezeLabels.unwound,
        },
      },
    });
    follower.start();
    const head = BigInt(node.blocks.length - 1);
    try {
      await until(
        "the chain to be indexed up to 19 blocks behind the head",
        async () => (await checkpointOf(database.db, TRON))?.number === head - 19n,
        60_000,
      );
      // Nothing beyond head - 19, even with time to go on.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await checkpointOf(database.db, TRON))?.number).toBe(head - 19n);
    } finally {
      await follower.stop();
    }

    expect(node.asked.get("eth_getBlockReceipts")).toBeUndefined();
    expect(Math.max(...node.batchSizes)).toBeLessThanOrEqual(STAND_IN_MAX_BATCH);
    expect(Math.max(...node.logRanges)).toBeLessThanOrEqual(STAND_IN_MAX_LOG_RANGE);
    expect(node.asked.get("http:getblockbylimitnext")).toBeGreaterThanOrEqual(1);
    expect(follower.status().failures).toBe(0);

    const hashOf = (block: number, index: number) => node.blocks[block]?.txs[index]?.hash as string;
    expect(await storedTransfers(database.db, TRON)).toEqual(
      [
        { txHash: hashOf(1, 0), token: "native", from: ALICE, to: BOB, value: "5000000" },
        { txHash: hashOf(1, 5), token: "native", from: ALICE, to: VAULT, value: "3000" },
        { txHash: hashOf(1, 6), token: TRON_USDT, from: ALICE, to: BOB, value: "100000000" },
      ].sort((a, b) => (a.txHash < b.txHash ? -1 : 1)),
    );

    expect(freezes.map((f) => [f.address, f.action, f.token, f.blockNumber])).toEqual([
      [FROZEN, "added", TRON_USDT, 1n],
      [INDEXED, "added", TRON_USDT, 2n],
      [INDEXED, "removed", TRON_USDT, BigInt(node.blocks.length - 31)],
    ]);
    expect(freezes[0]).toMatchObject({
      chainId: TRON,
      txHash: hashOf(1, 7),
      blockTime: new Date(1_700_000_003_000),
    });
    const labelled = async (address: string) =>
      (await labelRowsOf(database.db, address, [TRON])).map((l) => [l.category, l.source]);
    expect(await labelled(FROZEN)).toEqual([["blocklisted", `issuer-freeze:${TRON_USDT}`]]);
    expect(await labelled(INDEXED)).toEqual([]);
    expect(await labelled(CAROL)).toEqual([]);
  });
});
