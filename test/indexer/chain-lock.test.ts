// Several workers on one PostgreSQL: exactly one follows a chain (session advisory lock per chain and schema),
// the others stand by; when the holder stops, or its lock connection is cut, another takes over, and the store
// ends with every transfer exactly once. (On the embedded database one process owns the data: nothing to test.)
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { startTestIndexer, type TestIndexer, until, waitIndexed } from "./support/harness.ts";
import { Scenario, sortTransfers, storedTransfers } from "./support/scenario.ts";

const target = testDatabase();
let anvil: Anvil;
let scenario: Scenario;
let token: string;
const databases: Database<DB>[] = [];
const workers: TestIndexer[] = [];

async function addWorker(): Promise<TestIndexer> {
  const database = await openDatabase<DB>({
    databaseUrl: target.databaseUrl,
    dataDir: "memory://",
    schema: target.schema,
  });
  await migrate(database);
  databases.push(database);
  const worker = startTestIndexer(database, anvil.url, { maxBatchBlocks: 5 });
  workers.push(worker);
  return worker;
}

const following = () => workers.filter((w) => w.status()[0]?.state === "following");
const standingBy = () => workers.filter((w) => w.status()[0]?.state === "standby");

async function play(blocks: number, base: bigint) {
  for (let i = 0; i < blocks; i++) {
    await scenario.someNativeTransfers(2, base);
    await scenario.mint(token, scenario.account(1), base + BigInt(i));
    await scenario.mine();
  }
}

beforeAll(async () => {
  if (!onPostgres) return;
  contracts();
  anvil = await Anvil.start();
  scenario = await Scenario.start(anvil);
  token = await scenario.deploy("TestToken", ["Lock Dollar", "LUSD", 6]);
  await play(30, 1_000_000n);
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(databases.map((d) => d.close()));
  await target.drop();
  await anvil?.stop();
});

describe.skipIf(!onPostgres)("one follower per chain across workers (PostgreSQL)", () => {
  it("three workers: one follows, two stand by, every transfer once", async () => {
    // Opened one after the other: concurrent CREATE SCHEMA IF NOT EXISTS of one schema can race in PostgreSQL.
    for (let i = 0; i < 3; i++) await addWorker();
    await waitIndexed(databases[0]!.db, anvil, await anvil.blockNumber());
    await until(
      "one follower and two on standby",
      () => following().length === 1 && standingBy().length === 2,
    );
    expect(await storedTransfers(databases[0]!.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    // Only the holder ever wrote.
    const writers = workers.filter((w) => w.events.some((e) => e.kind === "batch"));
    expect(writers).toHaveLength(1);
  });

  it("the holder stops: another takes over and carries on", async () => {
    const holder = following()[0]!;
    await holder.stop();
    await play(5, 2_000_000n);
    await until("a new holder", () => following().length === 1);
    await waitIndexed(databases[0]!.db, anvil, await anvil.blockNumber());
    expect(await storedTransfers(databases[0]!.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
  });

  it("the holder's lock connection is cut: it stops writing, the lock moves, nothing is written twice", async () => {
    const holder = following()[0]!;
    const admin = new pg.Client({ connectionString: target.databaseUrl });
    await admin.connect();
    try {
      const cut = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
          WHERE locktype = 'advisory' AND granted AND objid = $1
            AND classid = (SELECT hashtext($2 || '/vigia-indexer')::oid)`,
        [CHAIN_ID, target.schema],
      );
      expect(cut.rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await play(5, 3_000_000n);
    await waitIndexed(databases[0]!.db, anvil, await anvil.blockNumber());
    await until("exactly one follower again", () => following().length === 1 && standingBy().length === 1);
    expect(await storedTransfers(databases[0]!.db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    // The cut holder noticed it lost the lock (whether it or another worker took it next), and never crashed.
    await until(
      "the holder to notice",
      () => holder.log.count("warn", /lock was lost|lost the chain's lock/) === 1,
    );
    expect(["standby", "following"]).toContain(holder.status()[0]?.state);
  });
});
