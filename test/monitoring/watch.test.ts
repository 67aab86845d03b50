// Watching registered addresses through the indexer's own batch writes (src/chains/indexer writeBatch and unwindTo
// with the monitoring watcher, as the followers call them): a transfer of a monitored address, in or out, native
// or token, is recorded once per address however often its batch is written again; transfers before the
// registration, of other addresses, of other chains and of stopped addresses are not; a reorg takes back what was
// not checked yet and marks what was. PGlite in memory, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Checkpoint, unwindTo, writeBatch } from "../../src/chains/indexer/index.ts";
import type { TransferRow } from "../../src/chains/store/index.ts";
import { monitoringWatcher } from "../../src/monitoring/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const CHAIN = 31337;
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const addr = (i: number) => `0x${i.toString(16).padStart(40, "0")}`;
const hash = (block: number) => `0x${block.toString(16).padStart(64, "b")}`;
const T0 = Date.UTC(2026, 10, 1) / 1000;
let checkpoint: Checkpoint | undefined;

/** Writes blocks `from..to` as the indexer would, with these transfers, and moves the checkpoint. */
async function index(from: number, to: number, transfers: Omit<TransferRow, "chainId" | "blockTime">[]) {
  const blocks = [];
  for (let n = from; n <= to; n++)
    blocks.push({
      chainId: CHAIN,
      number: BigInt(n),
      hash: hash(n),
      parentHash: hash(n - 1),
      timestamp: new Date((T0 + n * 12) * 1000),
    });
  const next = { number: BigInt(to), hash: hash(to) };
  await writeBatch(
    svc.database.db,
    CHAIN,
    {
      blocks,
      transfers: transfers.map((t) => ({
        ...t,
        chainId: CHAIN,
        blockTime: new Date((T0 + Number(t.blockNumber) * 12) * 1000),
      })),
      tokens: [],
      contracts: [],
    },
    checkpoint,
    next,
    undefined,
    monitoringWatcher,
  );
  checkpoint = next;
}
const transfer = (block: number, from: string, to: string, logIndex = -1, token = "native") => ({
  txHash: `0x${(block * 1000 + logIndex + 2).toString(16).padStart(64, "a")}`,
  logIndex,
  blockNumber: BigInt(block),
  from,
  to,
  token,
  value: 10n ** 18n,
});
async function register(address: string, user: string, chainId = CHAIN) {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/addresses`,
    headers: auth(svc.project.keys.developer),
    payload: { address, chainId, foreign_user_id: user },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.id as number;
}
const recorded = async () =>
  (
    await svc.database.db
      .selectFrom("monitored_transfers")
      .select(["address_id", "tx_hash", "log_index", "block_number", "status"])
      .orderBy("block_number")
      .orderBy("address_id")
      .execute()
  ).map((r) => ({ ...r, address_id: Number(r.address_id), block_number: Number(r.block_number) }));

describe("watching monitored addresses", () => {
  it("records each new transfer of a monitored address once, in and out, native and token", async () => {
    // History before the registration: indexed, never recorded.
    await index(1, 10, [transfer(5, addr(1), addr(9))]);
    const a = await register(addr(1), "alice");
    const b = await register(addr(2), "bob");
    await index(11, 20, [
      transfer(12, addr(1), addr(9)), // A out
      transfer(13, addr(8), addr(1), 4, addr(0xd1)), // A in, a token
      transfer(14, addr(1), addr(2)), // A to B: recorded for both
      transfer(15, addr(7), addr(6)), // nobody's
    ]);
    expect(await recorded()).toEqual([
      expect.objectContaining({ address_id: a, block_number: 12, log_index: -1, status: "pending" }),
      expect.objectContaining({ address_id: a, block_number: 13, log_index: 4 }),
      expect.objectContaining({ address_id: a, block_number: 14 }),
      expect.objectContaining({ address_id: b, block_number: 14 }),
    ]);
  });

  it("records nothing twice when a batch is written again (a worker that crashed after committing)", async () => {
    const before = await recorded();
    // The same rows through the watcher again, as a re-run would hand them over.
    await svc.database.db.transaction().execute(async (trx) => {
      await monitoringWatcher.written(trx, CHAIN, [
        { ...transfer(12, addr(1), addr(9)), chainId: CHAIN, blockTime: new Date((T0 + 144) * 1000) },
      ]);
    });
    expect(await recorded()).toEqual(before);
  });

  it("ignores stopped addresses and other chains", async () => {
    const c = await register(addr(3), "carol");
    await register(addr(4), "dave", 1);
    await svc.app!.inject({
      method: "DELETE",
      url: `/v1/projects/${svc.project.id}/addresses/${c}`,
      headers: auth(svc.project.keys.developer),
    });
    await index(21, 22, [transfer(21, addr(3), addr(9)), transfer(22, addr(4), addr(9))]);
    expect((await recorded()).filter((r) => r.block_number >= 21)).toEqual([]);
  });

  it("a reorg takes back the transfers not checked yet and marks the checked ones unwound", async () => {
    await index(23, 25, [transfer(24, addr(1), addr(9)), transfer(25, addr(9), addr(1))]);
    // The transfer of block 24 was checked (its notification made); block 25's was not.
    await svc.database.db
      .updateTable("monitored_transfers")
      .set({ status: "evaluated", evaluated_at: new Date() })
      .where("block_number", "=", "24")
      .execute();
    await unwindTo(
      svc.database.db,
      CHAIN,
      { number: 23n, hash: hash(23) },
      0n,
      checkpoint!,
      monitoringWatcher,
    );
    checkpoint = { number: 23n, hash: hash(23) };
    const after = (await recorded()).filter((r) => r.block_number >= 23);
    expect(after).toEqual([expect.objectContaining({ block_number: 24, status: "unwound" })]);
    // The new chain's block 24 carries another transfer: recorded as new.
    await index(24, 24, [transfer(24, addr(1), addr(5), 7)]);
    const again = (await recorded()).filter((r) => r.block_number === 24);
    expect(again.map((r) => [r.log_index, r.status]).sort()).toEqual([
      [-1, "unwound"],
      [7, "pending"],
    ]);
  });
});
