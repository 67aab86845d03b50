// TypeBox schemas of the risk routes (docs/api.md, "Risk analysis").
import { type Static, Type } from "@sinclair/typebox";
import { CoverageSchema } from "../ledger/index.ts";
import { StringEnum } from "../platform/http/schemas.ts";
import { PATTERNS, RISK_LEVELS, SEVERITIES } from "../risk/index.ts";
import { MaxDepthSchema } from "./depth.ts";

const Level = StringEnum(RISK_LEVELS, {
  description: "minimal 0-19, low 20-39, medium 40-59, high 60-79, critical 80-100",
});
const PatternName = StringEnum(PATTERNS);

export const ScanResultSchema = Type.Object({
  address: Type.String(),
  chainId: Type.String(),
  status: StringEnum(["completed", "skipped", "failed"]),
  analysisId: Type.String({ format: "uuid" }),
  riskScore: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "null when status is failed: a failure is never a score",
  }),
  riskLevel: Type.Union([Level, Type.Null()], { description: "null when status is failed" }),
  riskReason: Type.String({ description: "why this score, or why the address failed" }),
  suspiciousActivity: Type.Boolean(),
  patterns: Type.Array(PatternName),
  transactionGraph: Type.Object({
    rootAddress: Type.String(),
    totalNodes: Type.Integer(),
    totalEdges: Type.Integer(),
    maxDepth: Type.Integer(),
  }),
  analysisEvidence: Type.Object({
    transactionsAnalyzed: Type.Integer(),
    uniqueAddressesFound: Type.Integer(),
    analysisDuration: Type.Number({ description: "milliseconds" }),
  }),
  modelVersion: Type.Optional(Type.String({ description: "scoring model version" })),
  truncated: Type.Optional(Type.Boolean({ description: "a graph budget cut the expansion short" })),
  error: Type.Optional(Type.String({ description: "why the address failed" })),
  errorCode: Type.Optional(
    Type.Literal("no_data", {
      description:
        "no_data: the analysis found nothing, and the data it rests on is not current (see coverage): no all-clear is given",
    }),
  ),
  coverage: Type.Optional(
    Type.Composite([CoverageSchema], {
      description:
        "what the verdict rests on; absent only for an unknown chain or an address that is not one",
    }),
  ),
});

export const ScanBody = Type.Object({
  addresses: Type.Array(
    Type.Object({
      address: Type.String({ minLength: 10, maxLength: 200 }),
      chainId: Type.String({ minLength: 1, maxLength: 40, description: 'decimal chain id, e.g. "1"' }),
    }),
    { minItems: 1, maxItems: 50 },
  ),
  maxDepth: MaxDepthSchema,
  skipExisting: Type.Optional(Type.Boolean({ default: true })),
});

export const ScanResponse = Type.Object({
  summary: Type.Object({
    total: Type.Integer(),
    completed: Type.Integer(),
    skipped: Type.Integer(),
    failed: Type.Integer(),
    duration: Type.Number({ description: "milliseconds" }),
  }),
  results: Type.Array(ScanResultSchema),
});

export const StoredQuery = Type.Object({
  addresses: Type.String({
    pattern: "^[0-9A-Za-z]{10,100}(,[0-9A-Za-z]{10,100}){0,99}$",
    maxLength: 10_100,
    description: "comma-separated addresses, at most 100",
  }),
  chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })),
});

/** The summary of an address's latest stored result: its newest completed analysis of any kind. */
export const StoredScanSchema = Type.Object({
  analysisId: Type.String({ format: "uuid" }),
  address: Type.String(),
  chainId: Type.String(),
  riskScore: Type.Integer(),
  riskLevel: Level,
  riskReason: Type.String(),
  suspiciousActivity: Type.Boolean(),
  patternsDetected: Type.Integer(),
  patterns: Type.Array(PatternName),
  transactionsAnalyzed: Type.Integer(),
  completedAt: Type.String({ format: "date-time" }),
  maxDepth: Type.Integer(),
  source: StringEnum(["scan", "job", "investigation"], {
    description:
      "beyond the contract: the kind of analysis the result comes from: a scan (POST .../scan-risk), a risk job (POST /risk, or the first scan of a registered address), an investigation",
  }),
  fromDate: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description:
      "beyond the contract: a risk job's date window (null: from the beginning, and for the others)",
  }),
  toDate: Type.Union([Type.String({ format: "date-time" }), Type.Null()], {
    description: "beyond the contract: a risk job's date window (null: up to now, and for the others)",
  }),
});

export const StoredResponse = Type.Object({
  total: Type.Integer(),
  missing: Type.Integer({ description: "addresses with no stored result and no analysis on its way" }),
  pending: Type.Integer({
    description:
      "beyond the contract: addresses with no stored result yet whose analysis is queued or running (a registered address's first scan, a risk job, an investigation): poll again",
  }),
  results: Type.Array(StoredScanSchema),
  missingAddresses: Type.Array(Type.String()),
  pendingAddresses: Type.Array(Type.String(), { description: "beyond the contract: the pending addresses" }),
});

export const QuickQuery = Type.Object({
  address: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "the chain's address: EVM 0x + 40 hex in any case; Tron base58check (T…) or hex; Bitcoin as its network writes it (bech32 in either case)",
  }),
  chainId: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647, default: 1 })),
});

export const QuickResponse = Type.Object({
  risk: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()], {
    description: "null when the verdict is withheld (errorCode no_data): the data it rests on is not current",
  }),
  reason: Type.String(),
  patterns: Type.Array(
    Type.Object({
      name: PatternName,
      severity: StringEnum(SEVERITIES),
      involvedWallets: Type.Array(Type.String()),
      involvedTxs: Type.Array(Type.String()),
      usdAmount: Type.Number(),
      message: Type.String(),
    }),
  ),
  level: Type.Union([Level, Type.Null()], { description: "null when the verdict is withheld" }),
  suspiciousActivity: Type.Boolean(),
  modelVersion: Type.String(),
  errorCode: Type.Optional(
    Type.Literal("no_data", {
      description:
        "the check found nothing and the data it rests on is not current (see coverage): no all-clear",
    }),
  ),
  coverage: Type.Optional(
    Type.Composite([CoverageSchema], { description: 'what the verdict rests on (docs/api.md, "Coverage")' }),
  ),
});

/** GET /risk/quick's answer. The risk core's quickCheck gives it; the type checks the two agree. */
export type QuickRiskResponse = Static<typeof QuickResponse>;

export const RiskJobBody = Type.Object({
  address: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "the chain's address: EVM 0x + 40 hex in any case; Tron base58check (T…) or hex; Bitcoin as its network writes it (bech32 in either case)",
  }),
  chainId: Type.Integer({ minimum: 1, maximum: 2147483647 }),
  fromDate: Type.Optional(Type.String({ maxLength: 40, description: "YYYY-MM-DD or ISO 8601 date-time" })),
  toDate: Type.Optional(Type.String({ maxLength: 40, description: "YYYY-MM-DD or ISO 8601 date-time" })),
});

export const RiskJobView = Type.Object({
  jobId: Type.String(),
  status: StringEnum(["queued", "running", "completed", "failed"]),
  result: Type.Optional(
    Type.Composite([
      ScanResultSchema,
      Type.Object({
        fromDate: Type.Union([Type.String(), Type.Null()]),
        toDate: Type.Union([Type.String(), Type.Null()]),
      }),
    ]),
  ),
  error: Type.Optional(Type.String()),
  createdAt: Type.String({ format: "date-time" }),
  updatedAt: Type.String({ format: "date-time" }),
});
export type RiskJobViewBody = Static<typeof RiskJobView>;
