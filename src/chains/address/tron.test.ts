// Tron's address codec: real mainnet addresses (the USDT contract, exchange wallets of the committed TagPacks)
// decode to their hex and back; every written form of one address gives the same stored form; one flipped
// character is a checksum error that says so.
import { describe, expect, it } from "vitest";
import { EVM_CODEC, presentInText, TRON_CODEC } from "./codec.ts";
import { parseTronAddress, tronBase58 } from "./tron.ts";

const USDT = {
  base58: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
  hex: "0xa614f803b6fd780986a42c78ec9c7f77e6ded13c",
};
// Binance's and other exchanges' Tron wallets, as labelled in GraphSense's public TagPacks.
const MAINNET = [
  "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi",
  "TNaRAoLUyYEV2uF7GUrzSjRQTU8v5ZJ5VR",
  "TRYL7PKCG4b4xRCM554Q5J6o8f1UjUmfnY",
];

describe("Tron addresses", () => {
  it("decodes the USDT contract to the hex Tron's JSON-RPC answers, and back", () => {
    expect(parseTronAddress(USDT.base58)).toEqual({ address: USDT.hex });
    expect(tronBase58(USDT.hex)).toBe(USDT.base58);
  });

  it("takes the hex forms too: 41-prefixed (Tron's HTTP API), 0x (its JSON-RPC), any case", () => {
    for (const form of [
      `41${USDT.hex.slice(2)}`,
      `0x41${USDT.hex.slice(2)}`,
      USDT.hex,
      USDT.hex.toUpperCase().replace("0X", "0x"),
      ` ${USDT.base58} `,
    ]) {
      expect(parseTronAddress(form)).toEqual({ address: USDT.hex });
    }
  });

  it("round-trips real mainnet addresses", () => {
    for (const address of MAINNET) {
      const parsed = parseTronAddress(address);
      expect(parsed).toHaveProperty("address");
      expect(tronBase58((parsed as { address: string }).address)).toBe(address);
    }
  });

  it("names a wrong checksum when one character is flipped, and is case-sensitive", () => {
    const flipped = `${USDT.base58.slice(0, 10)}${USDT.base58[10] === "a" ? "b" : "a"}${USDT.base58.slice(11)}`;
    expect(parseTronAddress(flipped)).toEqual({ error: expect.stringContaining("checksum") });
    expect(parseTronAddress(USDT.base58.toLowerCase().replace(/^t/, "T"))).toHaveProperty("error");
  });

  it("refuses what is no Tron address: a Bitcoin address, garbage, an EVM address too short", () => {
    for (const value of ["1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", "T123", "0x1234", ""]) {
      expect(parseTronAddress(value)).toHaveProperty("error");
    }
  });
});

describe("codecs", () => {
  it("EVM writes the stored form; Tron writes base58, also inside text, and leaves hashes alone", () => {
    const hash = `0x${"ab".repeat(32)}`;
    expect(EVM_CODEC.present(USDT.hex)).toBe(USDT.hex);
    expect(TRON_CODEC.present(USDT.hex)).toBe(USDT.base58);
    expect(presentInText(TRON_CODEC, `sent to ${USDT.hex} in ${hash}.`)).toBe(
      `sent to ${USDT.base58} in ${hash}.`,
    );
    expect(presentInText(EVM_CODEC, `sent to ${USDT.hex}`)).toBe(`sent to ${USDT.hex}`);
    expect(TRON_CODEC.present("native")).toBe("native");
  });

  it("parses per kind, with the reason when it fails", () => {
    expect(EVM_CODEC.parse(USDT.base58)).toHaveProperty("error");
    expect(TRON_CODEC.parse(USDT.base58)).toEqual({ address: USDT.hex });
  });
});
