// The store's shared writers of token metadata and contract marks (src/chains/store): they fill what the store lacks
// and leave alone what it already holds, without locking it. Every page of every explorer history names the same few
// tokens and contracts; when each write locked those rows until its transaction ended, concurrent quick checks of
// new addresses on PostgreSQL waited for each other, seconds each. PGlite, or PostgreSQL with DATABASE_URL (the
// test of locks needs two connections: PostgreSQL only).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markContracts, upsertTokens } from "../../src/chains/store/index.ts";
import { onPostgres } from "../support/database.ts";
import { openTestDatabase } from "../support/db-only.ts";

const token = `0x${"70".repeat(20)}`;
const contract = `0x${"c0".repeat(20)}`;
let db: Awaited<ReturnType<typeof openTestDatabase>>;

beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

const tokenRow = () =>
  db.db
    .selectFrom("tokens")
    .select(["symbol", "name", "decimals"])
    .where("address", "=", token)
    .executeTakeFirst();
const isContract = async () =>
  (
    await db.db
      .selectFrom("address_facts")
      .select("is_contract")
      .where("address", "=", contract)
      .executeTakeFirst()
  )?.is_contract;

describe("token metadata and contract marks", () => {
  it("fill what the store lacks, and keep what it holds", async () => {
    await upsertTokens(db.db, [{ chainId: 1, address: token, symbol: "USDV", name: null, decimals: null }]);
    expect(await tokenRow()).toEqual({ symbol: "USDV", name: null, decimals: null });
    await upsertTokens(db.db, [
      { chainId: 1, address: token, symbol: "OTHER", name: "Vigia Dollar", decimals: 6 },
    ]);
    expect(await tokenRow()).toEqual({ symbol: "USDV", name: "Vigia Dollar", decimals: 6 });
    await upsertTokens(db.db, [{ chainId: 1, address: token, symbol: "OTHER", name: "Other", decimals: 18 }]);
    expect(await tokenRow()).toEqual({ symbol: "USDV", name: "Vigia Dollar", decimals: 6 });

    await markContracts(db.db, 1, [contract, contract]);
    expect(await isContract()).toBe(true);
    await markContracts(db.db, 1, [contract]);
    expect(await isContract()).toBe(true);
  });

  it.skipIf(!onPostgres)(
    "do not wait for another transaction that wrote the same complete rows",
    async () => {
      const pool = db.pool;
      if (!pool) throw new Error("no pool on PostgreSQL");
      const held = await pool.connect();
      try {
        // Another writer's transaction, still open, that wrote the token and the contract mark.
        await held.query("BEGIN");
        await held.query("UPDATE tokens SET symbol = symbol WHERE address = $1", [token]);
        await held.query("UPDATE address_facts SET is_contract = true WHERE address = $1", [contract]);
        const started = Date.now();
        await Promise.race([
          Promise.all([
            upsertTokens(db.db, [
              { chainId: 1, address: token, symbol: "USDV", name: "Vigia Dollar", decimals: 6 },
            ]),
            markContracts(db.db, 1, [contract]),
          ]),
          new Promise((_, reject) =>
            setTimeout(() => reject(new Error("waited for the other transaction")), 3_000),
          ),
        ]);
        expect(Date.now() - started).toBeLessThan(3_000);
      } finally {
        await held.query("ROLLBACK");
        held.release();
      }
    },
  );
});
