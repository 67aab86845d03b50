// A chain is who it says: before reading a node the follower checks its chain id and that it holds a block the
// store holds (the checkpoint's, or one within the reorg depth below it). Another program's node on the followed
// port, with another chain id or with the same id and another history, stops the follower (status, log) with
// nothing unwound.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../support/db-only.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { checkpointOf, startTestIndexer, type TestIndexer, until, waitIndexed } from "./support/harness.ts";
import { Scenario, storedTransfers } from "./support/scenario.ts";

let anvil: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let indexer: TestIndexer | undefined;
let tmp: string;

beforeAll(async () => {
  contracts();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-identity-"));
  [anvil, database] = await Promise.all([
    Anvil.start({ args: ["--dump-state", path.join(tmp, "state.json")] }),
    openTestDatabase(),
  ]);
  const scenario = await Scenario.start(anvil);
  for (let i = 0; i < 3; i++) {
    await scenario.someNativeTransfers(3);
    await scenario.mine();
  }
  indexer = startTestIndexer(database, anvil.url);
  await waitIndexed(database.db, anvil, await anvil.blockNumber());
  await indexer.stop();
  indexer = undefined;
  await anvil.stop();
});

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function storeState() {
  const blocks = await database.db
    .selectFrom("blocks")
    .select(["number", "hash"])
    .where("chain_id", "=", CHAIN_ID)
    .orderBy("number")
    .execute();
  return {
    checkpoint: await checkpointOf(database.db),
    blocks,
    transfers: await storedTransfers(database.db, CHAIN_ID),
  };
}

async function expectStopped(stranger: Anvil, reason: RegExp) {
  const before = await storeState();
  expect(before.transfers.length).toBeGreaterThan(0);
  indexer = startTestIndexer(database, stranger.url);
  try {
    await until("the follower to stop", () => indexer?.status()[0]?.state === "stopped");
    const [status] = indexer.status();
    expect(status?.stoppedReason).toMatch(reason);
    expect(indexer.log.count("error", /stopped following the chain/)).toBe(1);
    // It stays stopped: no retry, no reorg, nothing written or unwound.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(indexer.status()[0]?.state).toBe("stopped");
    expect(indexer.events.filter((e) => e.kind === "reorg" || e.kind === "batch")).toEqual([]);
    expect(await storeState()).toEqual(before);
  } finally {
    await indexer.stop();
    indexer = undefined;
  }
}

describe("a node that is not the chain the store holds", () => {
  it("another chain id on the followed port: stopped, nothing unwound", async () => {
    const stranger = await Anvil.start({ port: anvil.port, chainId: 4242 });
    try {
      await expectStopped(stranger, /serves chain 4242, not chain 31337/);
    } finally {
      await stranger.stop();
    }
  });

  it("the same chain id with another history (a fresh anvil with more blocks): stopped, nothing unwound", async () => {
    // A fresh anvil's genesis is stamped with the current second: make it differ from the indexed one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const stranger = await Anvil.start({ port: anvil.port });
    try {
      const scenario = await Scenario.start(stranger);
      for (let i = 0; i < 8; i++) {
        await scenario.someNativeTransfers(1, 55_000_000n);
        await scenario.mine();
      }
      await expectStopped(stranger, /shares no block with the store/);
    } finally {
      await stranger.stop();
    }
  });

  it("the same chain id with another, shorter history: stopped too", async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const stranger = await Anvil.start({ port: anvil.port });
    try {
      await expectStopped(stranger, /shares no block with the store/);
    } finally {
      await stranger.stop();
    }
  });

  it("the chain it holds, back on the port: followed again from the checkpoint", async () => {
    await anvil.restart(["--load-state", path.join(tmp, "state.json")]);
    const before = await storeState();
    const scenario = await Scenario.start(anvil);
    await scenario.someNativeTransfers(2, 66_000_000n);
    await scenario.mine();
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    expect(indexer.status()[0]).toMatchObject({ state: "following", stoppedReason: null });
    expect(indexer.events.filter((e) => e.kind === "reorg")).toEqual([]);
    expect((await storedTransfers(database.db, CHAIN_ID)).length).toBeGreaterThan(before.transfers.length);
  });
});
