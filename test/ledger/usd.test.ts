// The ledger's one USD value (src/ledger/usd.ts): in JavaScript for rows read, in SQL for sums the database
// makes, and the two agree to the cent on the same transfers, on the database under test.
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USD_OF_TRANSFER, usdValue } from "../../src/ledger/index.ts";
import { openTestDatabase } from "../support/db-only.ts";

describe("usdValue", () => {
  it("is the amount in whole tokens times the price, to the cent", () => {
    expect(usdValue("1500000000000000000", 18, "2000")).toBe(3000);
    expect(usdValue(1_234_567n, 6, "1.0001")).toBe(1.23);
    expect(usdValue("1", 18, "3000")).toBe(0);
  });

  it("leaves unpriced and undecimalled tokens unvalued, not 0", () => {
    expect(usdValue("1000", 18, null)).toBeNull();
    expect(usdValue("1000", null, "1")).toBeNull();
  });

  it("keeps large amounts exact to the cent", () => {
    // 123,456,789.123456 USDC at 1.00: beyond 2^53 units
    expect(usdValue("123456789123456", 6, "1")).toBe(123456789.12);
    // 10 million ETH in wei at 3,210.55
    expect(usdValue(10_000_000n * 10n ** 18n, 18, "3210.55")).toBe(32105500000);
  });
});

describe("USD_OF_TRANSFER agrees with usdValue", () => {
  let db: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.drop());

  const cases: [string, number | null, string | null][] = [
    ["1500000000000000000", null, "2000"], // native: 18 decimals
    ["1234567", 6, "1.0001"],
    ["123456789123456", 6, "1"],
    ["987654321987654321987", 18, "0.0731"],
    ["5", 0, "12.345"],
    ["1000", 18, null],
  ];

  it.each(cases)("%s with %s decimals at %s", async (value, decimals, price) => {
    const { rows } = await sql<{ usd: string | null }>`
      SELECT ${USD_OF_TRANSFER}::text AS usd FROM
        (SELECT ${value}::numeric AS value) t,
        (SELECT ${decimals}::int AS decimals, NULL::numeric AS pegged_usd) tk,
        (SELECT ${price}::numeric AS price_usd) p`.execute(db.db);
    const js = usdValue(value, decimals ?? 18, price);
    expect(rows[0]?.usd === null ? null : Number(rows[0]?.usd)).toBe(js);
  });
});
