// Reorgs on a real anvil (evm_snapshot, blocks with transfers, indexed, evm_revert, different blocks): the
// indexer unwinds to the common ancestor and re-indexes, ending with exactly the new chain's transfers, whether it
// saw the node rewind while following (the head dropped below the checkpoint) or only found out from the next
// block's parent hash after a restart; also when the reorg is deeper than the first search window.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChainFollower, settingsFor } from "../../src/chains/indexer/index.ts";
import { processOwnsDatabase } from "../../src/chains/indexer/lock.ts";
import { JsonRpcClient } from "../../src/chains/rpc/json-rpc.ts";
import { openTestDatabase } from "../support/db-only.ts";
import { transferCountMismatches } from "../support/transfer-counts.ts";
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
import { Scenario, sortTransfers, storedTransfers } from "./support/scenario.ts";

let anvil: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let scenario: Scenario;
let indexer: TestIndexer | undefined;
let token: string;

beforeAll(async () => {
  contracts();
  [anvil, database] = await Promise.all([Anvil.start(), openTestDatabase()]);
  scenario = await Scenario.start(anvil);
  token = await scenario.deploy("TestToken", ["Reorg Dollar", "RUSD", 6]);
  for (let i = 0; i < 3; i++) {
    await scenario.someNativeTransfers(2);
    await scenario.mint(token, scenario.account(1), 10n + BigInt(i));
    await scenario.mine();
  }
});

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await database?.drop();
});

/** Blocks of transfers whose values carry `tag`, so the two sides of a fork never look alike. */
async function playBlocks(count: number, tag: bigint, oneOff?: string) {
  for (let i = 0; i < count; i++) {
    await scenario.someNativeTransfers(2, tag * 1_000_000n);
    await scenario.mint(token, scenario.account(2), tag * 1_000n + BigInt(i));
    if (oneOff && i === 0) await scenario.sendNative(scenario.account(3), oneOff, tag);
    await scenario.mine();
  }
}

async function blockHashesMatchNode() {
  const rows = await database.db
    .selectFrom("blocks")
    .select(["number", "hash"])
    .where("chain_id", "=", CHAIN_ID)
    .orderBy("number")
    .execute();
  const head = await anvil.blockNumber();
  expect(rows.map((r) => BigInt(r.number))).toEqual(
    Array.from({ length: Number(head) + 1 }, (_, i) => BigInt(i)),
  );
  for (const row of rows) {
    const block = await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", [
      `0x${BigInt(row.number).toString(16)}`,
      false,
    ]);
    expect(row.hash, `block ${row.number}`).toBe(block.hash);
  }
}

const firstSeen = async (address: string) => {
  const row = await database.db
    .selectFrom("address_facts")
    .select("first_seen_block")
    .where("chain_id", "=", CHAIN_ID)
    .where("address", "=", address)
    .executeTakeFirst();
  // int8 comes back as a number from PGlite and as a string from node-postgres
  return row?.first_seen_block == null ? row?.first_seen_block : String(row.first_seen_block);
};

describe("reorgs", () => {
  it("while following: the node rewinds, mines other blocks; the orphaned transfers go, the new ones come", async () => {
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    const fork = await anvil.blockNumber();
    const kept = [...scenario.expected];
    const snapshot = await anvil.rpc<string>("evm_snapshot");

    const orphanOnly = `0x${"0d".repeat(20)}`;
    await playBlocks(3, 7n, orphanOnly);
    await waitIndexed(database.db, anvil, fork + 3n);
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    expect(await firstSeen(orphanOnly)).toBe(String(fork + 1n));

    await anvil.rpc("evm_revert", [snapshot]);
    scenario.replaceExpected(kept);
    const newOnly = `0x${"0e".repeat(20)}`;
    await playBlocks(4, 8n, newOnly);
    await waitIndexed(database.db, anvil, fork + 4n);

    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    await blockHashesMatchNode();
    const reorgs = indexer.events.filter((e) => e.kind === "reorg");
    expect(reorgs.length).toBeGreaterThanOrEqual(1);
    expect(reorgs.map((e) => e.kind === "reorg" && e.ancestor)).toContain(fork);
    expect(indexer.log.count("warn", /reorg/)).toBeGreaterThanOrEqual(1);
    // First-seen facts follow the surviving chain.
    expect(await firstSeen(orphanOnly)).toBeNull();
    expect(await firstSeen(newOnly)).toBe(String(fork + 1n));
    // The orphaned transfers are taken back from their ends' transfer counts, the new ones added.
    expect(await transferCountMismatches(database.db)).toEqual([]);
  });

  it("after a restart, from the next block's parent hash; deeper than the first search window", async () => {
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    const fork = await anvil.blockNumber();
    const kept = [...scenario.expected];
    const snapshot = await anvil.rpc<string>("evm_snapshot");
    await playBlocks(20, 9n);
    await waitIndexed(database.db, anvil, fork + 20n);
    await indexer?.stop();

    await anvil.rpc("evm_revert", [snapshot]);
    scenario.replaceExpected(kept);
    await playBlocks(23, 10n);
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, fork + 23n);

    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    await blockHashesMatchNode();
    const reorgs = indexer.events.filter((e) => e.kind === "reorg");
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0]).toMatchObject({ kind: "reorg", from: fork + 20n, ancestor: fork, blocks: 20 });
    expect(await transferCountMismatches(database.db)).toEqual([]);
  });

  it("a reorg deeper than maxReorgDepth is refused: the follower stops, nothing unwound", async () => {
    await indexer?.stop();
    // A second index of the same anvil under a chain id that is not the devnet's, limited to 3 blocks of reorg.
    const OTHER = 31339;
    const events: string[] = [];
    const log = new LogSink();
    const follower = new ChainFollower({
      db: database.db,
      settings: settingsFor(devnetChain(anvil.url, { id: OTHER, confirmations: 0 }), {
        pollIntervalMs: 20,
        maxReorgDepth: 3n,
      }),
      lock: processOwnsDatabase(),
      log,
      rpc: new JsonRpcClient(anvil.url, { fetch: nodeProxy(OTHER).fetch }),
      backoff: { initialMs: 20, maxMs: 100 },
      hooks: { onEvent: (e) => events.push(e.kind) },
    });
    follower.start();
    try {
      const fork = await anvil.blockNumber();
      const snapshot = await anvil.rpc<string>("evm_snapshot");
      await playBlocks(6, 11n);
      const orphanHead = await anvil.rpc<{ hash: string }>("eth_getBlockByNumber", ["latest", false]);
      await until(
        "the orphan side indexed",
        async () => (await checkpointOf(database.db, OTHER))?.hash === orphanHead.hash,
      );
      const before = await storedTransfers(database.db, OTHER);
      await anvil.rpc("evm_revert", [snapshot]);
      await playBlocks(8, 12n);
      // The batch that meets the parted chain refuses to unwind that far; the check made before reading the node
      // again finds no stored block the node shares within the depth: the follower stops.
      await until("the follower to stop", () => follower.status().state === "stopped");
      expect(events).toContain("failure");
      expect(follower.status().stoppedReason).toMatch(/shares no block with the store from block/);
      expect(log.count("error", /stopped following the chain/)).toBe(1);
      expect(events).not.toContain("reorg");
      expect(await storedTransfers(database.db, OTHER)).toEqual(before);
      expect((await checkpointOf(database.db, OTHER))?.number).toBe(fork + 6n);
    } finally {
      await follower.stop();
    }
  });
});
