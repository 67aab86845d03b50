// Chains of labels: EVM addresses lowercased on 0 (every EVM chain) or a named chain, Tron's decoded (checksum
// checked) into the 0x form on Tron mainnet, others kept as written.
import { describe, expect, it } from "vitest";
import { TRON_MAINNET_ID } from "../../chains/registry.ts";
import { NON_EVM_CHAIN_IDS, placeAddress, resolveChainName, resolveCurrency } from "./chains.ts";

const A = "0x8589427373D6D84E98730D7795D8f6f8731FDA16";
const a = A.toLowerCase();

describe("label chains", () => {
  it("puts TagPack / OFAC currency codes on chains", () => {
    expect(resolveCurrency("ETH", ` ${A} `)).toEqual({ chainId: 0, address: a });
    expect(resolveCurrency("BEP20", A)).toEqual({ chainId: 56, address: a });
    expect(resolveCurrency("matic", A)).toEqual({ chainId: 137, address: a });
    // Bitcoin's on its mainnet ledger id (docs/decisions/0052-bitcoin-chains.md), checked by its codec.
    expect(resolveCurrency("BTC", "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h")).toEqual({
      chainId: 177_005_167,
      address: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
    });
    expect(resolveCurrency("XBT", "3LYJfcfHPXYJreMsASk2jkn69LWEYKzexb")).toMatchObject({
      chainId: 177_005_167,
    });
    expect(resolveCurrency("TRX", "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi")).toEqual({
      chainId: TRON_MAINNET_ID,
      address: "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e",
    });
    expect(resolveCurrency("BNB", "bnb136ns6lfw4zs5hg4n85vdthaad7hq5m4gtkgf23")).toMatchObject({
      chainId: -1_000_714,
    });
    expect(resolveCurrency("USDT", "TX5GV4DyfxNB3rPkzZJhmqZ1efVmL4rEqG")).toEqual({
      chainId: TRON_MAINNET_ID,
      address: "0xe7800b61479695ec74e4b219f409f67bd1055a27",
    });
    // USDT on the Omni layer: a Bitcoin address.
    expect(resolveCurrency("USDT", "16iWn2J1McqjToYLHSsAyS6En3QA8YQ91H")).toMatchObject({
      chainId: 177_005_167,
    });
    expect(resolveCurrency("USDC", A)).toEqual({ chainId: 0, address: a });
  });

  it("skips chains it keeps no labels for and rejects malformed EVM addresses", () => {
    expect(resolveCurrency("ALGO", "UGYKOYFAEB6373DVH6ME6BFVHNG6BMWTYU6VZBMFFI2YQ72QACBSZLNYZ4")).toEqual({
      skip: "unsupported currency ALGO",
    });
    expect(resolveCurrency("AVAX", "X-avax1ju2khnvkex4u30rt5jm5x8jd3jdfhvawg7ed9x")).toHaveProperty("skip");
    expect(resolveCurrency("USDC", "T6MXHXMGXURKJ7AD5NCB4IYPLWX")).toHaveProperty("skip");
    expect(resolveCurrency("ETH", "0x1234")).toEqual({ error: '"0x1234" is not an EVM address' });
    expect(resolveCurrency("ETH", "1.4390191554254E+48")).toHaveProperty("error");
  });

  it("reads the chain names of the normalized CSV files", () => {
    expect(resolveChainName("ethereum", A)).toEqual({ chainId: 1, address: a });
    expect(resolveChainName("arbitrum", A)).toEqual({ chainId: 42161, address: a });
    expect(resolveChainName("bitcoin_cash", "qpusmp64rajses77x95g9ah825mtyyv74smwwkxhx3")).toMatchObject({
      chainId: NON_EVM_CHAIN_IDS.bitcoin_cash,
    });
    expect(resolveChainName("usdt(unspecified chain)", A)).toEqual({ chainId: 0, address: a });
    expect(resolveChainName("cardano-x", "addr1")).toEqual({ skip: 'unsupported chain "cardano-x"' });
    expect(resolveChainName("ethereum", "genesis")).toHaveProperty("error");
    expect(resolveChainName("tron", "has space")).toHaveProperty("error");
  });

  it("decodes Tron addresses with their checksum, case-sensitively, into the stored 0x form", () => {
    const stored = { chainId: TRON_MAINNET_ID, address: "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e" };
    expect(resolveChainName("tron", "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi")).toEqual(stored);
    expect(resolveChainName("tron", "41D1C4BB7B2F39ABA5707711719B2236B5B605AF2E")).toEqual(stored);
    expect(resolveCurrency("TRX", "0xd1c4bb7b2f39aba5707711719b2236b5b605af2e")).toEqual(stored);
    // The former pseudo chain's id is read as Tron mainnet.
    expect(placeAddress(-1_000_195, "TV6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi")).toEqual(stored);
    expect(placeAddress(TRON_MAINNET_ID, "Tv6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi")).toEqual({
      error: '"Tv6MuMXfmLbBqPZvBHdwFsDnQeVfnmiuSi" has a wrong base58check checksum: a character is mistyped',
    });
    expect(resolveCurrency("TRX", "tv6mumxfmlbbqpzvbhdwfsdnqevfnmiusi")).toEqual({
      error:
        '"tv6mumxfmlbbqpzvbhdwfsdnqevfnmiusi" is a lowercased Tron address: base58 is case-sensitive, the original case is needed',
    });
    // A lowercased USDT address can't be told from any other chain's: skipped, as before.
    expect(resolveCurrency("USDT", "tv6mumxfmlbbqpzvbhdwfsdnqevfnmiusi")).toHaveProperty("skip");
    expect(NON_EVM_CHAIN_IDS.tron).toBe(-1_000_195);
  });
});
