// GET /wallets/{wallet}/status and /wallets/{wallet}/balance (docs/api.md, "Addresses and monitoring"): any wallet,
// monitored or not. Status: `dirty` when the wallet carries a risky label of its own (sanctioned, illicit,
// blocklisted, mixer) or the quick check rates it high or critical; `unknown` when the quick check withheld its
// verdict (the service holds no current data of the wallet: never `clean` then); else `clean`; with its label names, its five
// newest transfers and the five contracts it dealt with most recently. Balance: its assets as the chain's node
// reports them (balances.ts), valued in USD.
import { Type } from "@sinclair/typebox";
import { type AnalysisContext, quickRisk } from "../analysis/index.ts";
import { CoverageSchema, labelsOf, latestTransfers, recentContracts } from "../ledger/index.ts";
import { AppError, invalid, MESSAGES } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf } from "../platform/http/auth.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import { readBalances } from "./balances.ts";
import { AssetSchema, WalletParams, WalletQuery } from "./schemas.ts";

const RISKY_OWN_CATEGORIES = ["sanctioned", "illicit", "blocklisted", "mixer"];

const Tx = Type.Object({
  txHash: Type.String(),
  timestamp: Type.String({ format: "date-time" }),
  direction: StringEnum(["in", "out"]),
  counterparty: Type.String(),
  token: Type.String(),
  value: Type.String({ description: "in the token's smallest unit" }),
});
const Dapp = Type.Object({
  address: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  lastSeen: Type.String({ format: "date-time" }),
});

export function registerWalletRoutes(app: HttpApp, ctx: AnalysisContext): void {
  const tags = ["Addresses and monitoring"];
  /** The wallet in the path, on the chain of the query (as that chain writes its addresses). */
  const walletOf = (raw: string, chainId: number) => {
    const parsed = ctx.registry.parseAddress(chainId, raw);
    if ("error" in parsed) throw invalid(MESSAGES.invalidPath, [{ path: "/wallet", message: parsed.error }]);
    return parsed.address;
  };
  const chainOf = (id: number | undefined) => {
    const chain = ctx.registry.get(id ?? 1);
    if (!chain) throw ctx.registry.unknownChain(id ?? 1);
    return chain;
  };

  app.get(
    "/wallets/:wallet/status",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "Whether a wallet is clean or dirty, with its tags, latest transfers and contracts",
        params: WalletParams,
        querystring: WalletQuery,
        response: {
          200: Ok(
            Type.Object({
              status: StringEnum(["clean", "dirty", "unknown"], {
                description:
                  "unknown: the service holds no current data of the wallet on this chain (see coverage)",
              }),
              coverage: Type.Optional(CoverageSchema),
              tags: Type.Array(Type.String()),
              lastTxs: Type.Array(Tx),
              lastDapps: Type.Array(Dapp),
            }),
          ),
        },
      },
    },
    async (req) => {
      const chain = chainOf(req.query.chainId);
      const wallet = walletOf(req.params.wallet, chain.id);
      const labels = await labelsOf(ctx.db, chain.id, wallet);
      const risk = await quickRisk(ctx, principalOf(req).projectId, wallet, chain.id);
      const dirty =
        labels.some((l) => RISKY_OWN_CATEGORIES.includes(l.category)) ||
        risk.level === "high" ||
        risk.level === "critical";
      const txs = await latestTransfers(ctx.db, chain.id, wallet, 5);
      const dapps = await recentContracts(ctx.db, chain.id, wallet, { scan: 200, limit: 5 });
      return ok({
        status: dirty ? ("dirty" as const) : risk.level === null ? ("unknown" as const) : ("clean" as const),
        ...(risk.coverage ? { coverage: risk.coverage } : {}),
        tags: [...new Set(labels.map((l) => l.label))],
        lastTxs: txs.map((t) => ({
          txHash: t.tx_hash,
          timestamp: new Date(t.block_time).toISOString(),
          direction: t.from_address === wallet ? ("out" as const) : ("in" as const),
          counterparty: t.from_address === wallet ? t.to_address : t.from_address,
          token: t.token,
          value: t.value,
        })),
        lastDapps: dapps.map((d) => ({
          address: d.address,
          label: d.label,
          lastSeen: new Date(d.last_seen).toISOString(),
        })),
      });
    },
  );

  app.get(
    "/wallets/:wallet/balance",
    {
      config: { access: "viewer" },
      schema: {
        tags,
        summary: "A wallet's balances, from the chain's node, valued in USD",
        description: "Needs the chain's `rpc_url` (operations); a chain without one answers 503.",
        params: WalletParams,
        querystring: WalletQuery,
        response: {
          200: Ok(
            Type.Object({
              total_balance: Type.Number({ description: "USD" }),
              assets: Type.Array(AssetSchema),
            }),
          ),
        },
      },
    },
    async (req) => {
      const chain = chainOf(req.query.chainId);
      const wallet = walletOf(req.params.wallet, chain.id);
      // A Bitcoin Core node keeps no balance per address (it has no address index): its balances are not read.
      if (chain.kind === "bitcoin")
        throw invalid(MESSAGES.invalidQuery, [
          {
            path: "/chainId",
            message: `chain ${chain.id} is a Bitcoin chain: its balances are not read (a Bitcoin Core node keeps no balance per address); the wallet's status and reports read its transfers`,
          },
        ]);
      if (!chain.rpc_url)
        throw new AppError("unavailable", `Chain ${chain.id} has no node configured to read balances from`);
      let assets: Awaited<ReturnType<typeof readBalances>>;
      try {
        assets = await readBalances(ctx.db, chain, wallet);
      } catch {
        throw new AppError("unavailable", `The node of chain ${chain.id} did not answer`, { retryAfter: 5 });
      }
      const list = assets ?? [];
      const total = list.reduce((sum, a) => sum + (a.usd ?? 0), 0);
      return ok({ total_balance: Math.round(total * 100) / 100, assets: list });
    },
  );
}
