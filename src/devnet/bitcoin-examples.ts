// The Bitcoin examples of the OpenAPI document. The devnet scenario has no Bitcoin chain, so these are written by
// hand: a mainnet cluster of three addresses (the first BIP-173's example address), joined by two transactions, one
// of whose addresses took part in a WabiSabi round, as GET /clusters/{address} answers it once a Bitcoin chain is in
// the chain list and its transactions are imported.
const CHAIN_ID = 177_005_167;
const ADDRESS = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";

export const BITCOIN_EXAMPLE = {
  chainId: CHAIN_ID,
  address: ADDRESS,
  cluster: {
    chainId: CHAIN_ID,
    address: ADDRESS,
    id: `c:${ADDRESS}`,
    size: 3,
    addresses: [ADDRESS, "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"],
    joinedBy: [
      "5f1c8e2a9d4b7c6e3a0f1d2c4b6a8e9f0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a",
      "a3b1c9d7e5f3a1b9c7d5e3f1a9b7c5d3e1f9a7b5c3d1e9f7a5b3c1d9e7f5a3b1",
    ],
    coinjoinsExcluded: [
      {
        txid: "e4c2a0b8d6f4e2c0a8b6d4f2e0c8a6b4d2f0e8c6a4b2d0f8e6c4a2b0d8f6e4c2",
        kind: "wabisabi" as const,
        confidence: "high" as const,
        reason:
          "52 inputs and 131 outputs, 118 of them in WabiSabi's standard denominations, inputs and outputs ordered " +
          "largest first as its coordinator signs them",
      },
    ],
    serviceScale: false,
    updatedAt: "2024-02-01T12:00:00.000Z",
  },
};
