// Configuration of a Vigía process, read once from the environment (README.md, "Configuration").
// Everything else receives a Config value; nothing below main.ts reads process.env.
import path from "node:path";

export interface Config {
  /** `postgres://...` when running on PostgreSQL; undefined for the embedded database. */
  databaseUrl: string | undefined;
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string;
  /** VIGIA_SECRET when given; on the embedded database it is generated into the data dir otherwise. */
  secret: string | undefined;
  chainsFile: string | undefined;
  allowPrivateOutbound: boolean;
  rateLimitPerMinute: number;
  /** Failed authentications (401, 403) per client address and minute before its requests are refused. */
  authFailuresPerMinute: number;
  /** Requests per key and minute to each heavy route (analyses, reports). */
  heavyRateLimitPerMinute: number;
  /** Risk jobs a project may have queued or running at once. */
  maxActiveJobsPerProject: number;
  /** Layered analyses (investigations) a project may have queued or running at once. */
  maxActiveAnalysesPerProject: number;
  /** How long an analysis run inside a request (scans, standard investigations) may take, in ms. */
  requestDeadlineMs: number;
  /** The longest a database statement may run, in ms (PostgreSQL; PGlite cannot interrupt a statement). */
  statementTimeoutMs: number;
  /** Days a finished analysis (scan, risk job, layered analysis without an investigation) is kept. */
  analysisRetentionDays: number;
  logLevel: string;
  /** Seconds a chain's market/stats snapshot is considered fresh. */
  chainStatsTtlSeconds: number;
  /** Upper bound on how long a route waits for an upstream before serving the last snapshot. */
  upstreamTimeoutMs: number;
  /**
   * Where report files are kept: `filesystem` (under the data dir) or `database` (a table, for fleets). Default:
   * the filesystem on the embedded database, the database on PostgreSQL.
   */
  fileStore: "filesystem" | "database" | undefined;
  /** An OpenAI-compatible chat-completions endpoint for wallet reports; unset: the deterministic writer. */
  llm: { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number } | undefined;
  /** How long a wallet report is served from the cache. */
  walletReportTtlSeconds: number;
  /** LLM generations of wallet reports per project and hour; beyond it the deterministic writer serves. */
  llmReportsPerHour: number;
  /** VIGIA_DEVNET: `true` runs the demo devnet even on PostgreSQL, `false` never; unset: only on the embedded default. */
  devnet: boolean | undefined;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

function positiveIntFrom(value: string | undefined, fallback: number, name: string): number {
  const n = intFrom(value, fallback, name);
  if (n === 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}

function fileStoreFrom(value: string | undefined): Config["fileStore"] {
  if (value === undefined || value === "") return undefined;
  if (value !== "filesystem" && value !== "database")
    throw new Error(`VIGIA_FILE_STORE must be "filesystem" or "database", got "${value}"`);
  return value;
}

function llmFrom(env: NodeJS.ProcessEnv): Config["llm"] {
  const baseUrl = env.VIGIA_LLM_BASE_URL;
  if (!baseUrl) return undefined;
  if (!/^https?:\/\/\S+$/.test(baseUrl))
    throw new Error(`VIGIA_LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  const model = env.VIGIA_LLM_MODEL;
  if (!model) throw new Error("VIGIA_LLM_MODEL is required with VIGIA_LLM_BASE_URL");
  return {
    baseUrl,
    model,
    apiKey: env.VIGIA_LLM_API_KEY || undefined,
    timeoutMs: intFrom(env.VIGIA_LLM_TIMEOUT_MS, 20_000, "VIGIA_LLM_TIMEOUT_MS"),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || "127.0.0.1";
  const port = intFrom(env.PORT, 8080, "PORT");
  const dataDir = path.resolve(env.VIGIA_DATA_DIR || "./data");
  return {
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    host,
    port,
    publicUrl: (env.VIGIA_PUBLIC_URL || `http://${host}:${port}`).replace(/\/+$/, ""),
    secret: env.VIGIA_SECRET || undefined,
    chainsFile: env.VIGIA_CHAINS || undefined,
    allowPrivateOutbound:
      env.VIGIA_ALLOW_PRIVATE_OUTBOUND === "true" || env.VIGIA_ALLOW_PRIVATE_OUTBOUND === "1",
    rateLimitPerMinute: intFrom(env.VIGIA_RATE_LIMIT_PER_MINUTE, 6000, "VIGIA_RATE_LIMIT_PER_MINUTE"),
    authFailuresPerMinute: intFrom(env.VIGIA_AUTH_FAILURES_PER_MINUTE, 60, "VIGIA_AUTH_FAILURES_PER_MINUTE"),
    heavyRateLimitPerMinute: intFrom(
      env.VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE,
      600,
      "VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE",
    ),
    maxActiveJobsPerProject: intFrom(
      env.VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT,
      20,
      "VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT",
    ),
    maxActiveAnalysesPerProject: intFrom(
      env.VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT,
      10,
      "VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT",
    ),
    requestDeadlineMs: positiveIntFrom(env.VIGIA_REQUEST_DEADLINE_MS, 30_000, "VIGIA_REQUEST_DEADLINE_MS"),
    statementTimeoutMs: positiveIntFrom(env.VIGIA_STATEMENT_TIMEOUT_MS, 60_000, "VIGIA_STATEMENT_TIMEOUT_MS"),
    analysisRetentionDays: positiveIntFrom(
      env.VIGIA_ANALYSIS_RETENTION_DAYS,
      90,
      "VIGIA_ANALYSIS_RETENTION_DAYS",
    ),
    logLevel: env.VIGIA_LOG_LEVEL || env.LOG_LEVEL || "info",
    chainStatsTtlSeconds: intFrom(env.VIGIA_CHAIN_STATS_TTL_SECONDS, 300, "VIGIA_CHAIN_STATS_TTL_SECONDS"),
    upstreamTimeoutMs: intFrom(env.VIGIA_UPSTREAM_TIMEOUT_MS, 1500, "VIGIA_UPSTREAM_TIMEOUT_MS"),
    fileStore: fileStoreFrom(env.VIGIA_FILE_STORE),
    llm: llmFrom(env),
    walletReportTtlSeconds: intFrom(
      env.VIGIA_WALLET_REPORT_TTL_SECONDS,
      86_400,
      "VIGIA_WALLET_REPORT_TTL_SECONDS",
    ),
    llmReportsPerHour: intFrom(env.VIGIA_LLM_REPORTS_PER_HOUR, 100, "VIGIA_LLM_REPORTS_PER_HOUR"),
    devnet: env.VIGIA_DEVNET === "true" ? true : env.VIGIA_DEVNET === "false" ? false : undefined,
  };
}
