// The node going away and coming back: the indexer logs a warning (not one per attempt), keeps retrying with
// backoff, never crashes, and carries on when the node returns, whether with its state (dumped on exit and
// loaded again); a fresh chain in its place is not the chain the store holds: the follower stops, unwinding nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../support/db-only.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { startTestIndexer, type TestIndexer, until, waitIndexed } from "./support/harness.ts";
import { Scenario, sortTransfers, storedTransfers } from "./support/scenario.ts";

let anvil: Anvil;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let indexer: TestIndexer;
let tmp: string;

beforeAll(async () => {
  contracts();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-anvil-"));
  [anvil, database] = await Promise.all([
    Anvil.start({ args: ["--dump-state", path.join(tmp, "state.json")] }),
    openTestDatabase(),
  ]);
});

afterAll(async () => {
  await indexer?.stop();
  await anvil?.stop();
  await database?.drop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const failuresOf = (i: TestIndexer) => i.events.filter((e) => e.kind === "failure").length;

describe("the node going away", () => {
  it("is survived: warnings, retries, and the work resumes when it returns with its state", async () => {
    let scenario = await Scenario.start(anvil);
    const token = await scenario.deploy("TestToken", ["Outage Dollar", "OUSD", 6]);
    for (let i = 0; i < 4; i++) {
      await scenario.someNativeTransfers(3);
      await scenario.mint(token, scenario.account(1), 1n + BigInt(i));
      await scenario.mine();
    }
    indexer = startTestIndexer(database, anvil.url);
    await waitIndexed(database.db, anvil, await anvil.blockNumber());

    // SIGTERM: anvil writes its state on the way out.
    await anvil.stop("SIGTERM");
    await until("several failed attempts", () => failuresOf(indexer) >= 5);
    const [status] = indexer.status();
    expect(status).toMatchObject({ state: "failing" });
    expect(status?.lastError).toMatch(/ECONNREFUSED/);
    // One warning when it starts failing, not one per attempt.
    expect(indexer.log.count("warn", /retrying/)).toBe(1);

    await anvil.restart(["--load-state", path.join(tmp, "state.json")]);
    const expected = scenario.expected;
    scenario = await Scenario.start(anvil);
    scenario.replaceExpected(expected);
    for (let i = 0; i < 3; i++) {
      await scenario.someNativeTransfers(2, 77_000_000n);
      await scenario.mint(token, scenario.account(2), 100n + BigInt(i));
      await scenario.mine();
    }
    await waitIndexed(database.db, anvil, await anvil.blockNumber());
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    expect(indexer.status()[0]).toMatchObject({ state: "following", failures: 0 });
    expect(indexer.log.count("info", /recovered/)).toBe(1);
    expect(indexer.events.filter((e) => e.kind === "reorg")).toHaveLength(0);
  });

  it("stops when it dies (SIGKILL) and a fresh chain comes up in its place: nothing unwound", async () => {
    const before = failuresOf(indexer);
    const transfers = await storedTransfers(database.db, CHAIN_ID);
    await anvil.stop("SIGKILL");
    await until("failed attempts", () => failuresOf(indexer) >= before + 3);
    // Make sure the new chain's genesis differs from the old one's (anvil stamps it with the current second).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await anvil.restart();
    const scenario = await Scenario.start(anvil);
    await scenario.someNativeTransfers(2, 88_000_000n);
    await scenario.mine();
    // The fresh chain shares no block with the store: another chain under the same id (chain-identity.test.ts).
    await until("the follower to stop", () => indexer.status()[0]?.state === "stopped");
    expect(indexer.status()[0]?.stoppedReason).toMatch(/shares no block with the store/);
    expect(indexer.events.some((e) => e.kind === "reorg")).toBe(false);
    expect(await storedTransfers(database.db, CHAIN_ID)).toEqual(transfers);
  });
});
