// The Bitcoin examples of the OpenAPI document: the Bitcoin devnet's mixing case (src/worlds/bitcoin-demo.ts) as
// GET /clusters/{address} answers it once `vigia serve` has imported the devnet's world. Its user spent two coins
// together (one cluster of two addresses, joined by that payment) and took its coins into a WabiSabi round, which
// is excluded from the cluster. test/devnet/bitcoin-devnet.test.ts checks the running service answers exactly this
// (the time it was stored aside).
import { BITCOIN_DEVNET_CHAIN_ID } from "../chains/index.ts";

const ADDRESS = "bcrt1q332eesrxacqzh8tq7qy0kejmh364z9078j58qq";
const EARLIER = "bcrt1qcjau7au3zn0yk7w5slru53a5qd8cjxh6kdjgjq";

export const BITCOIN_EXAMPLE = {
  chainId: BITCOIN_DEVNET_CHAIN_ID,
  address: ADDRESS,
  cluster: {
    chainId: BITCOIN_DEVNET_CHAIN_ID,
    address: ADDRESS,
    id: `c:${EARLIER}`,
    size: 2,
    addresses: [EARLIER, ADDRESS],
    joinedBy: ["e807a5bda4c7fbb8d5cff5d909006af8afe8f44133ec9c8e82bcdd9e38e5e5b1"],
    coinjoinsExcluded: [
      {
        txid: "01180f0e6547ce0950d8b968b2d6752461ae7f4b84874554d9432e417d467c80",
        kind: "wabisabi" as const,
        confidence: "high" as const,
        reason:
          "30 inputs and 148 outputs, 148 of them in WabiSabi's standard denominations, inputs and outputs " +
          "ordered largest first as its coordinator signs them",
      },
    ],
    serviceScale: false,
    updatedAt: "2026-12-01T04:22:56.015Z",
  },
};
