// GET /clusters/{address}?chainId=: the address cluster of a Bitcoin address, as the service keeps it from the
// transactions it holds (docs/api.md, "Address clusters"). Clusters are chain data, not a project's: any key reads
// them, as it reads a quick check.

import type { Kysely } from "kysely";
import { readAddressFacts, storedClusterOf } from "../ledger/index.ts";
import { AppError, invalid, MESSAGES } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { DB } from "../schema.ts";
import { ClusterParams, ClusterQuery, ClusterResponse } from "./schemas.ts";

/**
 * What the route needs of the chain list (src/chains' registry): the chain, its address codec and the error for an
 * unknown one. Named here so that the chains room, whose sources keep clusters, can depend on this room.
 */
export interface ClusterChains {
  get(id: number): { kind?: string | undefined; name: string } | undefined;
  parseAddress(id: number, raw: string): { address: string } | { error: string };
  unknownChain(id: number): AppError;
}

export function registerClusterRoutes(app: HttpApp, ctx: { db: Kysely<DB>; registry: ClusterChains }): void {
  app.get(
    "/clusters/:address",
    {
      config: { access: "viewer" },
      schema: {
        tags: ["Risk analysis"],
        summary: "The address cluster of a Bitcoin address",
        description:
          "The addresses its owner is taken to hold, by common inputs: the addresses a transaction spends from are " +
          "one owner's, except in a CoinJoin (Wasabi 1, WabiSabi, Whirlpool, JoinMarket: listed as excluded), a " +
          "Stonewall, a spend from a labelled exchange, or a merge past the service-scale size. Kept as " +
          "transactions are imported. An address no transaction merged is alone in its cluster (size 1).",
        params: ClusterParams,
        querystring: ClusterQuery,
        response: { 200: Ok(ClusterResponse) },
      },
    },
    async (req) => {
      const { chainId } = req.query;
      const chain = ctx.registry.get(chainId);
      if (!chain) throw ctx.registry.unknownChain(chainId);
      if (chain.kind !== "bitcoin") {
        throw new AppError(
          "invalid_request",
          `Chain ${chainId} (${chain.name}) is not a Bitcoin chain: clusters by common inputs are kept for Bitcoin ` +
            "chains only (an account chain's address is its owner's already)",
          { text: { id: "error.cluster_chain_kind", params: { chain: String(chainId), name: chain.name } } },
        );
      }
      const parsed = ctx.registry.parseAddress(chainId, req.params.address);
      if ("error" in parsed)
        throw invalid(MESSAGES.invalidPath, [{ path: "/address", message: parsed.error }]);
      const { address } = parsed;
      const stored = await storedClusterOf(ctx.db, chainId, address);
      if (stored) {
        return ok({
          chainId,
          address,
          id: stored.id,
          size: stored.size,
          addresses: stored.addresses,
          joinedBy: stored.joinedBy,
          coinjoinsExcluded: stored.coinjoinsExcluded as ClusterResponse["coinjoinsExcluded"],
          serviceScale: stored.serviceScale,
          updatedAt: stored.updatedAt.toISOString(),
        });
      }
      const facts = (await readAddressFacts(ctx.db, chainId, [address])).get(address);
      if (!facts?.known) {
        throw new AppError(
          "not_found",
          `No transaction the service holds on chain ${chainId} names ${address}: import the chain's ` +
            "transactions (vigia import btc-etl) to cluster its addresses",
          { text: { id: "error.cluster_address_unknown", params: { chain: String(chainId), address } } },
        );
      }
      return ok({
        chainId,
        address,
        id: `c:${address}`,
        size: 1,
        addresses: [address],
        joinedBy: [],
        coinjoinsExcluded: [],
        serviceScale: false,
        updatedAt: null,
      });
    },
  );
}
