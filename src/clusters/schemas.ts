// The clusters route's query and answer (docs/api.md, "Address clusters").
import { type Static, Type } from "@sinclair/typebox";
import { StringEnum } from "../platform/http/schemas.ts";

export const ClusterParams = Type.Object({
  address: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "a Bitcoin address as its network writes it (base58 P2PKH/P2SH; bech32 or bech32m in either case)",
  }),
});

export const ClusterQuery = Type.Object({
  chainId: Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description: "a Bitcoin chain of the chain list (177005167 is mainnet's id)",
  }),
});

const ExcludedCoinJoin = Type.Object({
  txid: Type.String(),
  kind: StringEnum(["wasabi-1", "wabisabi", "whirlpool", "whirlpool-tx0", "joinmarket", "stonewall"]),
  confidence: StringEnum(["high", "medium"]),
  reason: Type.String({ description: "what matched, in words a person can check against the transaction" }),
});

export const ClusterResponse = Type.Object({
  chainId: Type.Integer(),
  address: Type.String({ description: "the address as the service stores it" }),
  id: Type.String({ description: "`c:` and the cluster's first address seen; stable as the cluster grows" }),
  size: Type.Integer({ minimum: 1, description: "addresses in the cluster" }),
  addresses: Type.Array(Type.String(), { description: "its first addresses seen (at most 20)" }),
  joinedBy: Type.Array(Type.String(), {
    description: "transactions whose common inputs joined its addresses (the first 20)",
  }),
  coinjoinsExcluded: Type.Array(ExcludedCoinJoin, {
    description: "CoinJoins its addresses took part in, whose inputs were not merged (the first 20)",
  }),
  serviceScale: Type.Boolean({
    description:
      "it reached the service-scale size (10,000 addresses): a service nobody labelled, not expanded further; " +
      "merges into it are refused",
  }),
  updatedAt: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "when a transaction last changed it; null for an address alone in its cluster",
  }),
});
export type ClusterResponse = Static<typeof ClusterResponse>;
