// Field checks: the stored forms and the reasons given for bad values.
import { describe, expect, it } from "vitest";
import * as f from "./fields.ts";

describe("fields", () => {
  it("reads Tron addresses and hashes as tronetl writes them, stored in the 0x form", () => {
    const tron = f.fieldsOfKind("tron");
    const stored = "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c";
    expect(tron.address("token_address", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toBe(stored);
    expect(tron.address("token_address", "41A614F803B6FD780986A42C78EC9C7F77E6DED13C")).toBe(stored);
    expect(tron.address("token_address", stored)).toBe(stored);
    expect(() => tron.address("from_address", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T")).toThrow(
      'from_address "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6T" has a wrong base58check checksum: a character is mistyped',
    );
    expect(() => tron.address("to_address", "")).toThrow("to_address is empty");
    expect(tron.optionalAddress("to_address", "")).toBeUndefined();
    expect(tron.hash("hash", "AB".repeat(32))).toBe(`0x${"ab".repeat(32)}`);
    expect(tron.hash("hash", `0x${"ab".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    expect(() => tron.hash("hash", "ab")).toThrow(
      'hash "ab" is not a hash (64 hex digits, with or without 0x)',
    );
    // EVM chains are as before: no base58, no bare hashes.
    const evm = f.fieldsOfKind("evm");
    expect(() => evm.address("from_address", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")).toThrow(
      "is not an EVM address",
    );
    expect(() => evm.hash("hash", "ab".repeat(32))).toThrow("is not a hash (0x and 64 hex digits)");
  });

  it("reads both ethereum-etl timestamp forms", () => {
    expect(f.timestamp("t", "1683029999")).toBe("2023-05-02T12:19:59.000Z");
    expect(f.timestamp("t", "2023-05-02 12:19:59 UTC")).toBe("2023-05-02T12:19:59.000Z");
    expect(f.timestamp("t", "2023-05-02T12:19:59Z")).toBe("2023-05-02T12:19:59.000Z");
    expect(f.timestamp("t", "2015-08-07 08:31:25.250 UTC")).toBe("2015-08-07T08:31:25.250Z");
    expect(() => f.timestamp("block_timestamp", "2023-02-30 00:00:00 UTC")).toThrow(
      'block_timestamp "2023-02-30 00:00:00 UTC" is not unix seconds nor YYYY-MM-DD HH:MM:SS UTC',
    );
    expect(() => f.timestamp("t", "yesterday")).toThrow(f.FieldError);
  });

  it("keeps amounts exact and refuses anything but a decimal integer", () => {
    expect(
      f.amount("value", "115792089237316195423570985008687907853269984665640564039457584007913129639935"),
    ).toBe("115792089237316195423570985008687907853269984665640564039457584007913129639935");
    expect(f.amount("value", "000")).toBe("0");
    expect(f.amount("value", "007")).toBe("7");
    for (const bad of ["-1", "1.5", "1e18", "0x10", "", " 1"])
      expect(() => f.amount("value", bad)).toThrow(f.FieldError);
  });

  it("lowercases addresses and hashes and says what is wrong", () => {
    expect(f.address("from_address", "0xAbCdEf0000000000000000000000000000000001")).toBe(
      "0xabcdef0000000000000000000000000000000001",
    );
    expect(() => f.address("from_address", "0xzz")).toThrow('from_address "0xzz" is not an EVM address');
    expect(() => f.address("to_address", "")).toThrow("to_address is empty");
    expect(() => f.hash("hash", `0x${"a".repeat(63)}`)).toThrow("is not a hash");
    expect(f.optionalAddress("to_address", "")).toBeUndefined();
  });

  it("checks integer ranges", () => {
    expect(f.bigintText("block_number", "0017")).toBe("17");
    expect(() => f.bigintText("block_number", "1".repeat(19))).toThrow(f.FieldError);
    expect(f.int32("log_index", "2147483647")).toBe(2147483647);
    expect(() => f.int32("log_index", "2147483648")).toThrow(f.FieldError);
    expect(f.decimals("18")).toBe(18);
    expect(f.decimals("1000000000000000000000")).toBeNull();
    expect(f.label("US\0DT")).toBe("USDT");
  });
});
