// Token metadata decoding: ABI strings, bytes32 strings, garbage, control characters, out-of-range decimals.
import { encodeAbiParameters, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { decodeDecimals, decodeText } from "./token-metadata.ts";

const abiString = (s: string) => encodeAbiParameters([{ type: "string" }], [s]);

describe("token metadata decoding", () => {
  it("reads ABI strings and bytes32 strings", () => {
    expect(decodeText(abiString("USDC"), 64)).toBe("USDC");
    expect(decodeText(abiString("Vigía Dólar"), 64)).toBe("Vigía Dólar");
    expect(decodeText(stringToHex("MKR", { size: 32 }), 64)).toBe("MKR");
  });

  it("gives null for nothing, empty text or undecodable data, and cleans what PostgreSQL cannot store", () => {
    expect(decodeText(undefined, 64)).toBeNull();
    expect(decodeText("0x", 64)).toBeNull();
    expect(decodeText(`0x${"00".repeat(32)}`, 64)).toBeNull();
    expect(decodeText("0x1234", 64)).toBeNull();
    expect(decodeText(abiString("A\u0000B\u0007C"), 64)).toBe("ABC");
    expect(decodeText(abiString("x".repeat(500)), 64)).toHaveLength(64);
  });

  it("reads decimals up to 255", () => {
    const word = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}`;
    expect(decodeDecimals(word(6n))).toBe(6);
    expect(decodeDecimals(word(255n))).toBe(255);
    expect(decodeDecimals(word(256n))).toBeNull();
    expect(decodeDecimals("0x")).toBeNull();
    expect(decodeDecimals(undefined)).toBeNull();
  });
});
