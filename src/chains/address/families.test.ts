// Address families: for each, real addresses are recognised, one changed character breaks the checksum, and
// garbage of the family's shape is refused.
import { describe, expect, it } from "vitest";
import { parseAddress } from "./families.ts";

/** The address with one character replaced by another of its alphabet. */
function flip(address: string, at: number, alphabet: string): string {
  const c = address[at] as string;
  const other = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length] as string;
  return `${address.slice(0, at)}${other}${address.slice(at + 1)}`;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

const FAMILIES = [
  {
    family: "evm",
    valid: ["0x8589427373D6D84E98730D7795D8f6f8731FDA16", "0x0000000000000000000000000000000000000000"],
    broken: [],
    garbage: ["0x8589427373d6d84e98730d7795d8f6f8731fda1", "0xZZ89427373d6d84e98730d7795d8f6f8731fda16"],
  },
  {
    family: "bitcoin",
    // P2PKH (the genesis coinbase), P2SH (BIP13), segwit v0 (bech32) and taproot (bech32m, BIP86)
    valid: [
      "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
      "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy",
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297",
    ],
    broken: [
      flip("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", 10, BASE58),
      flip("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", 20, BASE58),
      flip("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", 12, BECH32),
      flip("bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297", 30, BECH32),
    ],
    garbage: [
      "bc1qAR0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      "tb1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      "1A1zP1eP",
    ],
  },
  {
    family: "tron",
    valid: ["TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", "TUCsTq7TofTCJRRoHk6RvhMoS2mJLm5Yzq"],
    broken: [flip("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", 15, BASE58)],
    garbage: ["T0000000000000000000000000000000000"],
  },
  {
    family: "solana",
    valid: ["So11111111111111111111111111111111111111112", "11111111111111111111111111111111"],
    // base58 has no checksum: a different 32-byte value is another valid key; a wrong length is not one.
    broken: ["So1111111111111111111111111111111111111111111"],
    garbage: ["So11111111111111111111111111111111111111110", "Il11111111111111111111111111111111111111112"],
  },
  {
    family: "stellar",
    valid: [
      "GAWPTHY6233GRWZZ7JXDMVXDUDCVQVVQ2SXCSTG3R3CNP5LQPDAHNBKL",
      "GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7",
    ],
    broken: [flip("GAWPTHY6233GRWZZ7JXDMVXDUDCVQVVQ2SXCSTG3R3CNP5LQPDAHNBKL", 20, BASE32)],
    garbage: [
      "GAWPTHY6233GRWZZ7JXDMVXDUDCVQVVQ2SXCSTG3R3CNP5LQPDAHNBK",
      "gawpthy6233grwzz7jxdmvxducvqvvq2sxcstg3r3cnp5lqpdahnbkl",
    ],
  },
] as const;

describe("address families", () => {
  for (const f of FAMILIES) {
    it(`${f.family}: valid addresses are recognised, broken checksums and garbage are not`, () => {
      for (const a of f.valid) expect(parseAddress(a)?.family, a).toBe(f.family);
      for (const a of f.broken) expect(parseAddress(a), a).toBeUndefined();
      for (const a of f.garbage) expect(parseAddress(a)?.family, a).not.toBe(f.family);
    });
  }

  it("stores EVM and bech32 addresses in lower case and the others as written", () => {
    expect(parseAddress("0x8589427373D6D84E98730D7795D8f6f8731FDA16")?.address).toBe(
      "0x8589427373d6d84e98730d7795d8f6f8731fda16",
    );
    expect(parseAddress("BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ")?.address).toBe(
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    );
    expect(parseAddress("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")?.address).toBe(
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
  });

  it("refuses anything else", () => {
    for (const junk of ["", " ", "hello", "0x", "x".repeat(101), "addr1qxyz", "cosmos1abc", "<script>"])
      expect(parseAddress(junk), junk).toBeUndefined();
  });
});
