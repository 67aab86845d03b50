// Bitcoin addresses against the BIPs' own test vectors (BIP-350's segwit list, which supersedes BIP-173's for
// versions 1 and up, with each valid address's scriptPubKey), the base58check forms (the genesis block's P2PKH, a
// P2SH, testnet's versions), and the reasons given for what is refused.
import { sha256 } from "@noble/hashes/sha256";
import { createBase58check } from "@scure/base";
import { describe, expect, it } from "vitest";
import { decodeSegwit, parseBitcoinAddress } from "./bitcoin.ts";

/** BIP-350, "Test vectors for v0-v16 native segregated witness addresses": address and scriptPubKey. */
const BIP350_VALID: [string, string][] = [
  ["BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", "0014751e76e8199196d454941c45d1b3a323f1433bd6"],
  [
    "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
    "00201863143c14c5166804bd19203356da136c985678cd4d27a1b8c6329604903262",
  ],
  [
    "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
    "5128751e76e8199196d454941c45d1b3a323f1433bd6751e76e8199196d454941c45d1b3a323f1433bd6",
  ],
  ["BC1SW50QGDZ25J", "6002751e"],
  ["bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", "5210751e76e8199196d454941c45d1b3a323"],
  [
    "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
    "0020000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
    "5120000000c4a5cad46221b2a187905e5266362b99d5e91c6ce24d165dab93e86433",
  ],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
    "512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
  ],
];

/** BIP-350's invalid segwit addresses, each with the reason the BIP gives and the one given here. */
const BIP350_INVALID: [string, string, RegExp][] = [
  [
    "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
    "invalid human-readable part",
    /prefix tc1, which is not Bitcoin's/,
  ],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd",
    "bech32 instead of bech32m",
    /version 1 address with a bech32 checksum/,
  ],
  [
    "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf",
    "bech32 instead of bech32m",
    /version 2 address with a bech32 checksum/,
  ],
  [
    "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL",
    "bech32 instead of bech32m",
    /version 16 address with a bech32 checksum/,
  ],
  [
    "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
    "bech32m instead of bech32",
    /version 0 address with a bech32m checksum/,
  ],
  [
    "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47",
    "bech32m instead of bech32",
    /version 0 address with a bech32m checksum/,
  ],
  [
    "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4",
    "invalid character in checksum",
    /checksum/,
  ],
  [
    "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R",
    "invalid witness version",
    /witness version 17/,
  ],
  ["bc1pw5dgrnzv", "invalid program length (1 byte)", /program of 1 bytes/],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav",
    "invalid program length (41 bytes)",
    /program of 41 bytes/,
  ],
  [
    "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
    "invalid program length for v0",
    /version 0 witness program of 16 bytes/,
  ],
  [
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq",
    "mixed case",
    /mixes upper and lower case/,
  ],
  [
    "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf",
    "zero padding of more than 4 bits",
    /padding/,
  ],
  [
    "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j",
    "non-zero padding in 8-to-5 conversion",
    /padding/,
  ],
  ["bc1gmk9yu", "empty data section", /no witness version/],
];

const base58check = createBase58check(sha256);
const fromHex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

describe("Bitcoin addresses", () => {
  it.each(BIP350_VALID)("decodes %s as BIP-350 says", (address, script) => {
    const decoded = decodeSegwit(address);
    expect("error" in decoded ? decoded.error : decoded.script).toBe(script);
  });

  it.each(BIP350_INVALID)("refuses %s (BIP-350: %s)", (address, _reason, ours) => {
    const decoded = decodeSegwit(address);
    const network = address.toLowerCase().startsWith("tb") ? "testnet" : "mainnet";
    const parsed = parseBitcoinAddress(address, network);
    expect("error" in parsed ? parsed.error : "accepted").toMatch(ours);
    // The BIP's decoder refuses them all too, except the unknown prefix, which is a valid segwit address elsewhere.
    if (!address.startsWith("tc1")) expect("error" in decoded).toBe(true);
  });

  it("takes P2WPKH, P2WSH and P2TR on their network, stored in lower case", () => {
    expect(parseBitcoinAddress("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4")).toEqual({
      address: {
        network: "mainnet",
        type: "p2wpkh",
        address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
        script: "0014751e76e8199196d454941c45d1b3a323f1433bd6",
      },
    });
    expect(
      parseBitcoinAddress("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "testnet"),
    ).toMatchObject({ address: { network: "testnet", type: "p2wsh" } });
    expect(
      parseBitcoinAddress("bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"),
    ).toMatchObject({ address: { type: "p2tr", script: expect.stringMatching(/^5120/) } });
  });

  it("refuses what no wallet spends, and another network's address, saying which", () => {
    expect(parseBitcoinAddress("BC1SW50QGDZ25J")).toEqual({
      error: expect.stringMatching(/segwit version 16 address, which no Bitcoin rule defines yet/),
    });
    expect(
      parseBitcoinAddress("bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y"),
    ).toEqual({ error: expect.stringMatching(/version 1 address of 40 bytes \(taproot's are 32/) });
    expect(
      parseBitcoinAddress("tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7", "mainnet"),
    ).toEqual({ error: "is a Bitcoin testnet address (tb1...), not a mainnet one" });
    expect(parseBitcoinAddress("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "regtest")).toEqual({
      error: "is a Bitcoin mainnet address (bc1...), not a regtest one",
    });
  });

  it("takes base58check P2PKH and P2SH, with their output scripts", () => {
    // The genesis block's coinbase pays 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa.
    expect(parseBitcoinAddress("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa")).toEqual({
      address: {
        network: "mainnet",
        type: "p2pkh",
        address: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
        script: "76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac",
      },
    });
    expect(parseBitcoinAddress(" 3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy ")).toMatchObject({
      address: {
        type: "p2sh",
        address: "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
        script: expect.stringMatching(/^a914[0-9a-f]{40}87$/),
      },
    });
    // Testnet's versions 0x6f and 0xc4, on testnet and regtest alike.
    const hash = "751e76e8199196d454941c45d1b3a323f1433bd6";
    const testP2pkh = base58check.encode(fromHex(`6f${hash}`));
    const testP2sh = base58check.encode(fromHex(`c4${hash}`));
    expect(parseBitcoinAddress(testP2pkh, "testnet")).toMatchObject({
      address: { type: "p2pkh", script: `76a914${hash}88ac` },
    });
    expect(parseBitcoinAddress(testP2sh, "regtest")).toMatchObject({
      address: { network: "regtest", type: "p2sh", script: `a914${hash}87` },
    });
    expect(parseBitcoinAddress(testP2pkh, "mainnet")).toEqual({
      error: "is a Bitcoin testnet address, not a mainnet one",
    });
  });

  it("names what is wrong with a base58 string", () => {
    // One character changed.
    expect(parseBitcoinAddress("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb")).toEqual({
      error: expect.stringMatching(/fails its base58check checksum/),
    });
    expect(parseBitcoinAddress("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0")).toEqual({
      error: expect.stringMatching(/base58 has no 0, O, I or l/),
    });
    // A Tron address: base58check, but 0x41 and 21 bytes.
    expect(parseBitcoinAddress("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7")).toEqual({
      error: "has version byte 0x41, which is not a Bitcoin address's",
    });
    expect(parseBitcoinAddress(base58check.encode(fromHex("00aabb")))).toEqual({
      error: "holds 2 bytes after its version (a Bitcoin address holds a 20-byte hash)",
    });
    expect(parseBitcoinAddress("   ")).toEqual({ error: "is empty" });
  });
});
