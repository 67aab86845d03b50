// The shared store writers are idempotent and keep first-seen facts at the earliest transfer and each address's
// transfer counts, which a reorg unwind takes back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "../../../test/support/db-only.ts";
import { transferCountMismatches } from "../../../test/support/transfer-counts.ts";
import {
  deleteTransfersAbove,
  insertBlocks,
  insertTransfers,
  markContracts,
  type TransferRow,
  upsertTokens,
} from "./transfers.ts";

let database: Awaited<ReturnType<typeof openTestDatabase>>;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const a = `0x${"a".repeat(40)}`;
const b = `0x${"b".repeat(40)}`;
const transfer = (n: number, logIndex = -1): TransferRow => ({
  chainId: 1,
  txHash: `0x${n.toString(16).padStart(64, "0")}`,
  logIndex,
  blockNumber: BigInt(100 + n),
  blockTime: new Date(Date.UTC(2024, 0, 1, 0, n)),
  from: a,
  to: b,
  token: "native",
  value: 10n ** 30n + BigInt(n),
});

describe("store writers", () => {
  it("insert transfers once, exactly, and record first-seen", async () => {
    const db = database.db;
    expect(await insertTransfers(db, [transfer(2), transfer(3), transfer(3, 0)])).toBe(3);
    expect(await insertTransfers(db, [transfer(2), transfer(1)])).toBe(1);
    const rows = await db.selectFrom("transfers").selectAll().orderBy("block_number").execute();
    expect(rows).toHaveLength(4);
    expect(rows[0]?.value).toBe((10n ** 30n + 1n).toString());
    const facts = await db
      .selectFrom("address_facts")
      .selectAll()
      .where("address", "=", a)
      .executeTakeFirstOrThrow();
    expect(String(facts.first_seen_block)).toBe("101");
    expect(facts.is_contract).toBe(false);
    await markContracts(db, 1, [a, a]);
    const marked = await db
      .selectFrom("address_facts")
      .select("is_contract")
      .where("address", "=", a)
      .executeTakeFirstOrThrow();
    expect(marked.is_contract).toBe(true);
  });

  it("count each address's transfers sent and received, once, and take back what is deleted", async () => {
    const db = database.db;
    const c = `0x${"c".repeat(40)}`;
    const counts = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom("address_facts")
            .select(["address", "transfers_out", "transfers_in"])
            .where("address", "in", [a, b, c])
            .execute()
        ).map((r) => [r.address.slice(0, 3), `${r.transfers_out}/${r.transfers_in}`]),
      );
    const self = { ...transfer(20), from: c, to: c };
    const toC = { ...transfer(21), to: c };
    await insertTransfers(db, [self, toC]);
    await insertTransfers(db, [self, toC]); // a replay counts nothing
    expect(await counts()).toMatchObject({ "0xa": "5/0", "0xb": "0/4", "0xc": "1/2" });
    expect(await transferCountMismatches(db)).toEqual([]);
    const gone = await deleteTransfersAbove(db, 1, 120n);
    expect(gone).toHaveLength(1);
    expect(await counts()).toMatchObject({ "0xa": "4/0", "0xc": "1/1" });
    expect(await transferCountMismatches(db)).toEqual([]);
  });

  it("upserts blocks and tokens without losing known metadata", async () => {
    const db = database.db;
    await insertBlocks(db, [
      { chainId: 1, number: 5n, hash: "0x05", parentHash: "0x04", timestamp: new Date(0) },
    ]);
    await insertBlocks(db, [
      { chainId: 1, number: 5n, hash: "0x5b", parentHash: "0x04", timestamp: new Date(0) },
    ]);
    expect((await db.selectFrom("blocks").select("hash").executeTakeFirstOrThrow()).hash).toBe("0x5b");
    await upsertTokens(db, [{ chainId: 1, address: a, symbol: "USDV", name: null, decimals: 6 }]);
    await upsertTokens(db, [{ chainId: 1, address: a, symbol: null, name: "Vigía Dollar", decimals: 18 }]);
    const token = await db.selectFrom("tokens").selectAll().executeTakeFirstOrThrow();
    expect(token).toMatchObject({ symbol: "USDV", name: "Vigía Dollar", decimals: 6 });
  });
});
