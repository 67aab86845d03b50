// GET /wallets/{wallet}/report (docs/api.md, "Wallet background report"): a markdown report on any address of a
// known family, from the facts the service holds. Thin: parse, authorise (recreate needs the developer role), call
// the verb. Headers say who wrote it: x-report-writer (llm or deterministic), x-report-model, x-report-facts-sha256.
import { Type } from "@sinclair/typebox";
import { parseAddress } from "../chains/address/index.ts";
import { AppError, invalid, MESSAGES, notFound } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf, roleRank } from "../platform/http/auth.ts";
import { Ok, ok } from "../platform/http/schemas.ts";
import type { WalletReports } from "./report.ts";

const Params = Type.Object({ wallet: Type.String({ minLength: 1, maxLength: 200 }) });
const Query = Type.Object(
  {
    chainId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: "narrows an EVM address to one chain" }),
    ),
    lang: Type.Optional(Type.Union([Type.Literal("en"), Type.Literal("es")], { default: "en" })),
    recreate: Type.Optional(Type.Boolean({ default: false, description: "regenerate it (developer role)" })),
  },
  { additionalProperties: false },
);

export function registerNarrativeRoutes(
  app: HttpApp,
  reports: WalletReports,
  chainExists: (chainId: number) => boolean,
): void {
  app.get(
    "/wallets/:wallet/report",
    {
      config: { access: "viewer", heavy: true },
      schema: {
        tags: ["Wallet background report"],
        summary: "A written background report on a wallet",
        description:
          "Markdown, from the facts the service holds: labels and sanctions, activity, counterparties, the project's " +
          "latest risk analysis, and the limits of the data. EVM, Bitcoin, Solana, Tron and Stellar addresses. " +
          "Cached per project, address, chain and language (24 h by default); `recreate=true` regenerates it.",
        params: Params,
        querystring: Query,
        response: { 200: Ok(Type.String({ description: "markdown" })) },
      },
    },
    async (req, reply) => {
      const parsed = parseAddress(req.params.wallet);
      if (!parsed)
        throw invalid(MESSAGES.invalidPath, [
          {
            path: "/wallet",
            message: "must be an EVM, Bitcoin, Solana, Tron or Stellar address with a valid checksum",
          },
        ]);
      const { chainId, lang = "en", recreate = false } = req.query;
      if (chainId !== undefined && parsed.family !== "evm")
        throw invalid(MESSAGES.invalidQuery, [
          { path: "/chainId", message: "applies to EVM addresses only" },
        ]);
      if (chainId !== undefined && !chainExists(chainId)) throw notFound("Chain");
      const principal = principalOf(req);
      if (recreate && roleRank(principal.role) < roleRank("developer"))
        throw new AppError("forbidden", "recreate=true needs the developer role");
      const report = await reports.get({ projectId: principal.projectId, parsed, chainId, lang, recreate });
      reply
        .header("x-report-writer", report.writer)
        .header("x-report-model", report.model ?? "none")
        .header("x-report-language", report.lang)
        .header("x-report-facts-sha256", report.factsSha256)
        .header("x-report-cached", String(report.cached));
      return ok(report.markdown);
    },
  );
}
