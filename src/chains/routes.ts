// GET /chains and GET /chains/{chainId} (docs/api.md, "Chains (viewer)").
import { Type } from "@sinclair/typebox";
import type { HttpApp } from "../platform/http/app.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import type { ChainStatsService } from "./chain-stats.ts";
import type { ChainRegistry } from "./registry.ts";

const NullableDecimal = Type.Union([Type.String(), Type.Null()]);

const ChainListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  explorer_url: Type.Union([Type.String(), Type.Null()]),
  currency_symbol: Type.String(),
  currency_decimals: Type.Integer(),
});

const ChainDetailSchema = Type.Object({
  name: Type.String(),
  chain_id: Type.Integer(),
  currency_symbol: Type.String(),
  market_cap: Type.Union([Type.String({ description: "USD" }), Type.Null()]),
  coin_price: Type.Union([Type.String({ description: "USD" }), Type.Null()]),
  coin_image: Type.Union([Type.String(), Type.Null()]),
  total_addresses: NullableDecimal,
  total_blocks: NullableDecimal,
  total_transactions: NullableDecimal,
  tvl: NullableDecimal,
  stats_updated_at: Type.Union([Type.String({ format: "date-time" }), Type.Null()]),
  stats_source: StringEnum(["blockscout", "index"]),
});

export function registerChainRoutes(app: HttpApp, registry: ChainRegistry, stats: ChainStatsService): void {
  const tags = ["Chains"];
  app.get(
    "/chains",
    {
      config: { access: "viewer" },
      schema: { tags, summary: "List enabled chains", response: { 200: Ok(Type.Array(ChainListItem)) } },
    },
    async () =>
      ok(
        registry.enabled().map((c) => ({
          id: c.id,
          name: c.name,
          explorer_url: c.explorer_url,
          currency_symbol: c.currency_symbol,
          currency_decimals: c.currency_decimals,
        })),
      ),
  );

  app.get(
    "/chains/:chainId",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Chain detail with market data and network statistics",
        description:
          "Numbers are decimal strings. Figures the service has no source for are null. Market and network " +
          "figures come from the chain's Blockscout instance (cached) or from the service's own index.",
        params: Type.Object({ chainId: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1 }) }),
        response: { 200: Ok(ChainDetailSchema) },
      },
    },
    async (req) => {
      const chain = registry.get(req.params.chainId);
      if (!chain) throw registry.unknownChain(req.params.chainId);
      return ok(await stats.detail(chain));
    },
  );
}
