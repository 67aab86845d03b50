// GET /wallets/{wallet}/report (docs/api.md, "Wallet background report"): a markdown report on any address of a
// known family, from the facts the service holds. Thin: parse, authorise, call the verb. `recreate=true` is open to
// every role; a viewer key's refreshes are limited per project and hour (VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR),
// counted by the API's rate limiter (the same store as every rate limit: one count across a fleet on PostgreSQL).
// Headers say who wrote it and what its risk rests on: x-report-writer (llm or deterministic), x-report-model,
// x-report-facts-sha256, x-report-risk-source, x-report-analysis-id and x-report-analysis-at (which analysis, and
// when it completed: one made now when the stored one was older than the address's last transfer).
import { Type } from "@sinclair/typebox";
import {
  type ChainKind,
  type ParsedAddress,
  parseAddress,
  parseTronAddress,
  tronBase58,
} from "../chains/address/index.ts";
import { AppError, invalid, MESSAGES } from "../platform/errors.ts";
import type { HttpApp } from "../platform/http/app.ts";
import { principalOf, roleRank } from "../platform/http/auth.ts";
import { Ok, ok, StringEnum } from "../platform/http/schemas.ts";
import type { WalletReports } from "./report.ts";

const Params = Type.Object({ wallet: Type.String({ minLength: 1, maxLength: 200 }) });
const Query = Type.Object(
  {
    chainId: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 2147483647, description: "narrows an EVM address to one chain" }),
    ),
    lang: Type.Optional(StringEnum(["en", "es"], { default: "en" })),
    recreate: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "write it again now; a viewer key's refreshes are limited per project and hour (429 with Retry-After beyond)",
      }),
    ),
  },
  { additionalProperties: false },
);

const HOUR_MS = 3_600_000;

export interface NarrativeLimits {
  /** VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR: refreshes a project's viewer keys may ask for per hour */
  refreshesPerHour: number;
}

/** The 429 of a viewer's refresh past the project's limit: when the next one is possible, and what to do now. */
function refreshRefused(max: number, ttlSeconds: number): AppError {
  const wait = Math.max(1, ttlSeconds);
  const minutes = Math.ceil(wait / 60);
  const at = new Date(Date.now() + wait * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const what =
    max === 0
      ? "The project's viewer keys may not refresh wallet reports (VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR = 0)"
      : `The project's viewer keys refreshed ${max} wallet reports in the last hour, its limit ` +
        `(VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR = ${max}): the next refresh is possible at ${at}, in ` +
        `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return new AppError(
    "rate_limited",
    `${what}. Without recreate the cached report is served; a developer key may refresh it now.`,
    { retryAfter: wait },
  );
}

export function registerNarrativeRoutes(
  app: HttpApp,
  reports: WalletReports,
  /** The kind of an enabled chain, undefined for a chain the service does not know. */
  chainKind: (chainId: number) => ChainKind | undefined,
  limits: NarrativeLimits,
  /** The 404 of a chain the service does not know, naming those it does. */
  unknownChain: (chainId: number) => Error,
  /** The stored form of a Bitcoin address of another network than mainnet, on the chain named or any. */
  bitcoinOfNetwork: (raw: string, chainId: number | undefined) => string | undefined,
): void {
  // One count per project, whichever of its viewer keys asks.
  const viewerRefresh = app.createRateLimit({
    max: limits.refreshesPerHour,
    timeWindow: HOUR_MS,
    keyGenerator: (req) => `wallet-report-refresh:${principalOf(req).projectId}`,
  });

  app.get(
    "/wallets/:wallet/report",
    {
      config: { access: "viewer", heavy: true },
      schema: {
        tags: ["Wallet background report"],
        summary: "A written background report on a wallet",
        description:
          "Markdown, from the facts the service holds: labels and sanctions, what the risk rests on (the project's " +
          "latest scan, risk job or investigation of the address, else a quick check made for the report), what " +
          "to do at its level, activity, counterparties, the evidence (the transfers along each exposure path and " +
          "of each pattern), and the limits of the data. EVM, Bitcoin, Solana, Tron and Stellar addresses. Cached " +
          "per project, address, chain and language (24 h by default) until a newer analysis of the address " +
          "completes; `recreate=true` writes it again (a viewer key: limited per project and hour).",
        params: Params,
        querystring: Query,
        response: { 200: Ok(Type.String({ description: "markdown" })) },
      },
    },
    async (req, reply) => {
      const { chainId, lang = "en", recreate = false } = req.query;
      const otherNetwork = (raw: string): ParsedAddress | undefined => {
        const address = bitcoinOfNetwork(raw, chainId);
        return address === undefined ? undefined : { family: "bitcoin", address };
      };
      const kind = chainId === undefined ? undefined : chainKind(chainId);
      if (chainId !== undefined && kind === undefined) throw unknownChain(chainId);
      const written: ParsedAddress | undefined =
        parseAddress(req.params.wallet) ?? otherNetwork(req.params.wallet);
      // A hex address on a Tron chain is that chain's: the report names it as Tron writes it.
      const asTron =
        kind === "tron" && written?.family === "evm" ? parseTronAddress(written.address) : undefined;
      const parsed: ParsedAddress | undefined =
        asTron && "address" in asTron ? { family: "tron", address: tronBase58(asTron.address) } : written;
      if (!parsed)
        throw invalid(MESSAGES.invalidPath, [
          {
            path: "/wallet",
            message: "must be an EVM, Bitcoin, Solana, Tron or Stellar address with a valid checksum",
          },
        ]);
      if (kind !== undefined && parsed.family !== kind)
        throw invalid(MESSAGES.invalidQuery, [
          {
            path: "/chainId",
            message: `is a${kind === "evm" ? "n EVM" : kind === "tron" ? " Tron" : " Bitcoin"} chain: the wallet is a${parsed.family === "evm" ? "n EVM" : ` ${parsed.family}`} address`,
          },
        ]);
      const principal = principalOf(req);
      if (recreate && roleRank(principal.role) < roleRank("developer")) {
        const count = await viewerRefresh(req);
        if (!count.isAllowed && count.isExceeded) throw refreshRefused(count.max, count.ttlInSeconds);
      }
      const report = await reports.get({
        projectId: principal.projectId,
        parsed,
        chainId,
        lang,
        recreate,
        refreshRole: principal.role,
      });
      reply
        .header("x-report-writer", report.writer)
        .header("x-report-model", report.model ?? "none")
        .header("x-report-language", report.lang)
        .header("x-report-facts-sha256", report.factsSha256)
        .header("x-report-cached", String(report.cached))
        .header("x-report-risk-source", report.riskSource)
        .header("x-report-analysis-id", report.analysisId ?? "none")
        .header("x-report-analysis-at", report.analysisAt?.toISOString() ?? "none");
      return ok(report.markdown);
    },
  );
}
