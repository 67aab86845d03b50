// A pay-to-pubkey script's key read as its P2PKH address, as bitcoin-etl gives it: the coinbase of mainnet block
// 50,001 (test/fixtures/bitcoin-etl) pays 1PkqKGbNLDdDJGveCcNUMV9CEFH77ADrPQ.
import { describe, expect, it } from "vitest";
import { p2pkAddress } from "./p2pk.ts";

const COINBASE_50001 =
  "4104c1b5671c8975087cc796d6ea73d2407591528b5c669106f9b6ab6ef6e373a57553e14866aaeffc44a9f58e5ee0c7faa7add7474f0a2c55a22cb40b949fdc933cac";

describe("pay-to-pubkey addresses", () => {
  it("are the P2PKH address of the key, as bitcoin-etl gives them", () => {
    expect(p2pkAddress(COINBASE_50001, "mainnet")).toBe("1PkqKGbNLDdDJGveCcNUMV9CEFH77ADrPQ");
    expect(p2pkAddress(COINBASE_50001.toUpperCase(), "regtest")?.[0]).toMatch(/[mn]/);
  });

  it("are none for any other script", () => {
    expect(p2pkAddress("76a914b5cd7aaed869cd5ccb45868e8666e7e934a2373688ac", "mainnet")).toBeNull();
    expect(p2pkAddress(COINBASE_50001.slice(0, -2), "mainnet")).toBeNull();
    expect(p2pkAddress(`21${"05".repeat(33)}ac`, "mainnet")).toBeNull(); // not a key's first byte
    expect(p2pkAddress("zz", "mainnet")).toBeNull();
  });
});
