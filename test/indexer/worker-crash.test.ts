// A worker process killed with SIGKILL in the middle of a batch (its rows written, the transaction not yet
// committed) loses and duplicates nothing: the store holds exactly the batches it committed, and the indexer
// that carries on ends with exactly the transfers sent. On PostgreSQL the one that carries on is a second worker
// already running, standing by on the chain's advisory lock, which takes over when the holder dies.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../src/platform/db/migrate.ts";
import { type Database, openDatabase } from "../../src/platform/db/open.ts";
import type { DB } from "../../src/schema.ts";
import { onPostgres, testDatabase } from "../support/database.ts";
import { Anvil, CHAIN_ID } from "./support/anvil.ts";
import { contracts } from "./support/contracts.ts";
import { checkpointOf, startTestIndexer, type TestIndexer, until, waitIndexed } from "./support/harness.ts";
import { Scenario, sortTransfers, storedTransfers } from "./support/scenario.ts";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const target = testDatabase();
let anvil: Anvil;
let scenario: Scenario;
let dataDir: string | undefined;
let child: ChildProcess | undefined;
let database: Database<DB> | undefined;
let indexer: TestIndexer | undefined;

beforeAll(async () => {
  contracts();
  anvil = await Anvil.start();
  scenario = await Scenario.start(anvil);
  const token = await scenario.deploy("TestToken", ["Crash Dollar", "CUSD", 6]);
  for (let i = 0; i < 40; i++) {
    await scenario.someNativeTransfers(3);
    await scenario.mint(token, scenario.account(1 + (i % 5)), 1_000n + BigInt(i));
    await scenario.mine();
  }
  if (!onPostgres) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-crash-"));
});

afterAll(async () => {
  child?.kill("SIGKILL");
  await indexer?.stop();
  await database?.close();
  await target.drop();
  await anvil?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function startChild(): { lines: unknown[]; exited: Promise<void> } {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    CHILD_RPC_URL: anvil.url,
    CHILD_COMMIT_DELAY_MS: "1500",
    CHILD_MAX_BATCH: "10",
    ...(onPostgres
      ? { CHILD_DATABASE_URL: target.databaseUrl as string, CHILD_SCHEMA: target.schema as string }
      : { CHILD_DATA_DIR: dataDir as string }),
  };
  const proc = spawn(
    process.execPath,
    [path.join(ROOT, "bin", "run-ts.js"), "test/indexer/support/indexer-child.ts"],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  child = proc;
  const lines: unknown[] = [];
  readline.createInterface({ input: proc.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    try {
      lines.push(JSON.parse(line));
    } catch {}
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  return { lines, exited };
}

const committing = (lines: unknown[]) => lines.filter((l) => (l as { committing?: unknown }).committing);
const committed = (lines: unknown[]) =>
  lines.map((l) => (l as { committed?: [number, number] }).committed).filter((c) => c !== undefined);

async function openShared(): Promise<Database<DB>> {
  const opened = await openDatabase<DB>({
    databaseUrl: target.databaseUrl,
    dataDir: dataDir ?? "memory://",
    schema: target.schema,
  });
  await migrate(opened);
  return opened;
}

describe("a worker killed mid-batch", () => {
  it("loses and duplicates nothing; the next worker completes the index", async () => {
    const head = await anvil.blockNumber();
    const { lines, exited } = startChild();
    await until("the child to be indexing its third batch", () => committing(lines).length >= 3, 60_000);

    // On PostgreSQL a second worker is already running beside it, and must stand by while the child holds the chain.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstCommit = true;
    if (onPostgres) {
      database = await openShared();
      indexer = startTestIndexer(database, anvil.url, {
        hooks: {
          async beforeCommit() {
            if (firstCommit) {
              firstCommit = false;
              await gate;
            }
          },
        },
      });
      await until("the second worker to stand by", () => indexer?.status()[0]?.state === "standby");
    }

    child?.kill("SIGKILL");
    await exited;
    const done = committed(lines);
    expect(done.length).toBeGreaterThanOrEqual(1);
    const lastCommitted = BigInt((done.at(-1) as [number, number])[1]);

    if (!onPostgres) database = await openShared();
    const db = (database as Database<DB>).db;
    // Exactly what the child committed, nothing of the batch it was killed in.
    expect((await checkpointOf(db))?.number).toBe(lastCommitted);
    const { maxBlock, blocks } = await db
      .selectFrom("blocks")
      .select((eb) => [eb.fn.max("number").as("maxBlock"), eb.fn.countAll<string>().as("blocks")])
      .where("chain_id", "=", CHAIN_ID)
      .executeTakeFirstOrThrow();
    expect(BigInt(maxBlock)).toBe(lastCommitted);
    expect(BigInt(blocks)).toBe(lastCommitted + 1n);
    const maxTransfer = await db
      .selectFrom("transfers")
      .select((eb) => eb.fn.max("block_number").as("max"))
      .where("chain_id", "=", CHAIN_ID)
      .executeTakeFirstOrThrow();
    expect(BigInt(maxTransfer.max)).toBeLessThanOrEqual(lastCommitted);

    if (onPostgres) {
      release();
      await until("the second worker to take over", () => indexer?.status()[0]?.state === "following");
    } else {
      indexer = startTestIndexer(database as Database<DB>, anvil.url);
    }
    await waitIndexed(db, anvil, head, 60_000);
    expect(await storedTransfers(db, CHAIN_ID)).toEqual(sortTransfers(scenario.expected));
    const { n } = await db
      .selectFrom("blocks")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("chain_id", "=", CHAIN_ID)
      .executeTakeFirstOrThrow();
    expect(BigInt(n)).toBe(head + 1n);
  });
});
