// Configuration of a Vigía process, read once from the environment. Everything else receives a Config value;
// nothing below main.ts reads process.env.
//
// CONFIG_VARIABLES is the one list of the variables, their defaults and meanings; docs/operations.md
// ("Configuration") shows the same table, and a test keeps the two and loadConfig in step. loadConfig checks every
// value and reports every invalid one at once (ConfigError), so a start fails with the whole list, not the first.
import path from "node:path";
import { parsePreviousSecret } from "./crypto/secrets.ts";
import { MIN_SECRET_BYTES, secretBytes } from "./crypto/server-secret.ts";
import { AddressAllowList } from "./metrics/access.ts";

export interface Config {
  /** `postgres://...` when running on PostgreSQL; undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** Connections each process keeps to PostgreSQL at most. */
  dbPoolSize: number;
  /** The PostgreSQL schema of the job queue's tables (pg-boss). */
  jobsSchema: string;
  dataDir: string;
  host: string;
  port: number;
  publicUrl: string;
  /** VIGIA_SECRET when given; on the embedded database it is generated into the data dir otherwise. */
  secret: string | undefined;
  /** Secrets that sealed stored values before a rotation (VIGIA_SECRET_PREVIOUS), still accepted. */
  previousSecrets: string[];
  chainsFile: string | undefined;
  /**
   * VIGIA_PUBLIC_EXPLORERS: a chain without `explorer_api_url` fetches address histories from its `blockscout_url`
   * (the built-in chains name Blockscout's public instances). Off, only an explicit `explorer_api_url` is asked.
   */
  publicExplorers: boolean;
  /**
   * VIGIA_ALLOW_PRIVATE_OUTBOUND: integrators' URLs may reach loopback and private addresses (never link-local or
   * metadata ones); only where the operator says so, the demo devnet included (docs/decisions/0029-one-way-out.md).
   */
  allowPrivateOutbound: boolean;
  rateLimitPerMinute: number;
  /** The largest share (0-1) of a list's entries an import may remove without `--allow-shrink`. */
  listMaxShrink: number;
  /** Hours between the workers' refreshes of each list, by kind (0: never). */
  listRefreshHours: PerKind;
  /** Where the workers fetch a list instead of its official URL, by kind. */
  listUrls: Record<string, string>;
  /** The age (hours) past which a list is reported stale, by kind. */
  listMaxAgeHours: PerKind;
  /** Failed authentications (401, 403) per client address and minute before its requests are refused. */
  authFailuresPerMinute: number;
  /** Requests per key and minute to each heavy route (analyses, reports). */
  heavyRateLimitPerMinute: number;
  /** Risk jobs a project may have queued or running at once. */
  maxActiveJobsPerProject: number;
  /** Layered analyses (investigations) a project may have queued or running at once. */
  maxActiveAnalysesPerProject: number;
  /** Quick checks running at once in this process, of one project, and the longest one waits for a place (ms). */
  quickMaxInFlight: number;
  quickMaxInFlightPerProject: number;
  quickMaxWaitMs: number;
  screeningMaxInFlight: number;
  screeningMaxInFlightPerProject: number;
  screeningMaxWaitMs: number;
  /** Addresses a project may monitor at once (409 beyond). */
  maxMonitoredAddressesPerProject: number;
  /** Investigations a project may have open (not closed) at once (409 beyond). */
  maxOpenInvestigationsPerProject: number;
  /** Notifications a project may have waiting for delivery; past it, its transfers wait and redeliveries get 429. */
  maxPendingNotificationsPerProject: number;
  /** Redeliveries a project may ask for per minute (429 beyond). */
  redeliveriesPerMinute: number;
  /** Users whose transfers one worker process checks at once. */
  checksPerProcess: number;
  /** Users of one project whose transfers are checked at once, by all workers together. */
  checksPerProject: number;
  /** Profile reads of one project at once, per process. */
  profileReadsPerProject: number;
  /** Webhook deliveries one worker process makes at once. */
  deliveriesPerProcess: number;
  /** Webhook deliveries to one project at once, by all workers together. */
  deliveriesPerProject: number;
  /** How long an analysis run inside a request (scans, standard investigations) may take, in ms. */
  requestDeadlineMs: number;
  /** Blocks an index may be behind its node's head and its verdicts still rest on current data. */
  coverageMaxLagBlocks: number;
  /** Seconds an indexer may go without reading its node's head and its verdicts still rest on current data. */
  coverageMaxSilenceSeconds: number;
  /** How long each process reuses a chain's holding for the coverage of verdicts, in ms (0: never). */
  coverageTtlMs: number;
  /**
   * VIGIA_READY_MAX_LAG_BLOCKS: when set, /readyz also fails while a followed chain is more blocks than this behind
   * its node's head, silent past coverageMaxSilenceSeconds, or stopped because its node is not the chain the store
   * holds; unset, chains never make the process unready.
   */
  readyMaxLagBlocks: number | undefined;
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
  /** VIGIA_ALERT_LEVEL: the risk level from which an analysis of a monitored address raises an alert, for a project that sets none. */
  alertLevel: (typeof ALERT_LEVELS)[number];
  /** An OpenAI-compatible chat-completions endpoint for wallet reports; unset: the deterministic writer. */
  llm: { baseUrl: string; model: string; apiKey: string | undefined; timeoutMs: number } | undefined;
  /** How long a wallet report is served from the cache. */
  walletReportTtlSeconds: number;
  /** LLM generations of wallet reports per project and hour; beyond it the deterministic writer serves. */
  llmReportsPerHour: number;
  /** Wallet reports a project's viewer keys may refresh (recreate=true) per hour; beyond it, 429. */
  walletReportRefreshesPerHour: number;
  /** VIGIA_DEVNET: `true` runs the demo devnet even on PostgreSQL, `false` never; unset: only on the embedded default. */
  devnet: boolean | undefined;
  /** Addresses and networks that may read /metrics without a key (VIGIA_METRICS_ALLOW, comma-separated). */
  metricsAllow: string[];
  /** The port a `vigia worker` serves its probes and /metrics on; none when unset. */
  metricsPort: number | undefined;
  /**
   * VIGIA_TRUST_PROXY: the proxies whose X-Forwarded-For gives the client's address (fastify's `trustProxy`): a hop
   * count, or addresses and networks; unset: none, the connection's address is the client's.
   */
  trustProxy: number | string[] | undefined;
  /** A person's session ends after this long without a request, and this long after signing in at most (ms). */
  sessionIdleMs: number;
  sessionMaxMs: number;
  /** Failed sign-ins per e-mail (or known browser) and per client address in a window, before 429. */
  loginFailuresPerEmail: number;
  loginFailuresPerAddress: number;
  loginWindowMs: number;
  /** Sign-in through an OpenID Connect provider (VIGIA_OIDC_*); undefined when VIGIA_OIDC_ISSUER is unset. */
  oidc:
    | {
        issuer: string;
        clientId: string;
        clientSecret: string | undefined;
        redirectUrl: string;
        emailClaim: string;
        name: string;
      }
    | undefined;
}

/** One environment variable: its name, its default as the documentation says it, and what it does. */
/** A number for every kind of list, with exceptions by kind (`24,un=12`). */
export interface PerKind {
  fallback: number;
  byKind: Record<string, number>;
}

/** The value of `kind` in a per-kind setting. */
export function ofKind(setting: PerKind, kind: string): number {
  return setting.byKind[kind] ?? setting.fallback;
}

export interface ConfigVariable {
  name: string;
  default: string;
  meaning: string;
}

/**
 * A numeric variable's default, from the table below: the workers' constructors take theirs from here too, so that
 * a default is written once.
 */
export function configDefault(name: string): number {
  const found = CONFIG_VARIABLES.find((v) => v.name === name);
  const n = Number(found?.default);
  if (!found || !Number.isFinite(n)) throw new Error(`${name} has no numeric default`);
  return n;
}

/** A text variable's default, from the table below. */
function textDefault(name: string): string {
  const found = CONFIG_VARIABLES.find((v) => v.name === name)?.default;
  if (found === undefined) throw new Error(`${name} has no default`);
  return found;
}

/** A variable's default among `values`, from the table below. */
function choiceDefault<T extends string>(name: string, values: readonly T[]): T {
  const found = CONFIG_VARIABLES.find((v) => v.name === name)?.default;
  if (!values.includes(found as T)) throw new Error(`${name} has no default among ${values.join(", ")}`);
  return found as T;
}

const ALERT_LEVELS = ["low", "medium", "high", "critical"] as const;

/** Every variable Vigía reads, in the order docs/operations.md lists them. */
export const CONFIG_VARIABLES: readonly ConfigVariable[] = [
  {
    name: "DATABASE_URL",
    default: "unset",
    meaning: "`postgres://…` runs on PostgreSQL; unset, on the embedded PGlite in `VIGIA_DATA_DIR`",
  },
  {
    name: "VIGIA_DB_POOL_SIZE",
    default: "10",
    meaning: "connections each process opens to PostgreSQL at most",
  },
  {
    name: "VIGIA_JOBS_SCHEMA",
    default: "pgboss",
    meaning:
      "the PostgreSQL schema of the job queue's tables (pg-boss); two deployments sharing one database need one each",
  },
  {
    name: "VIGIA_DATA_DIR",
    default: "./data",
    meaning: "the embedded database, its generated secret, report files (filesystem store)",
  },
  { name: "HOST", default: "127.0.0.1", meaning: "the address the API listens on" },
  { name: "PORT", default: "8080", meaning: "the port the API listens on (0: any free port)" },
  {
    name: "VIGIA_PUBLIC_URL",
    default: "http://HOST:PORT",
    meaning: "the absolute base URL clients reach the API at; signed report URLs are built on it",
  },
  {
    name: "VIGIA_SECRET",
    default: "generated",
    meaning:
      "at least 32 random bytes: encrypts stored secrets, keys the API-key lookup, signs URLs. Generated into the data dir on the embedded database; required with PostgreSQL",
  },
  {
    name: "VIGIA_SECRET_PREVIOUS",
    default: "unset",
    meaning:
      'secrets in use before a rotation, comma-separated, each `secret@<ISO time of the rotation>`: accepted for stored values and keys; for signed URLs up to 30 days past that time ("Rotating the secret")',
  },
  {
    name: "VIGIA_CHAINS",
    default: "unset",
    meaning: 'a JSON file listing the chains (replaces the built-in list; "Chains")',
  },
  {
    name: "VIGIA_PUBLIC_EXPLORERS",
    default: "true",
    meaning:
      "a chain without `explorer_api_url` fetches address histories from its `blockscout_url` (built-in chains: public instances, which learn the addresses); `false` or `off`: only explicit explorers",
  },
  {
    name: "VIGIA_DEVNET",
    default: "unset",
    meaning:
      "`true` runs the demo devnet with `serve` even on PostgreSQL, `false` never; unset, it runs on the embedded default when `VIGIA_CHAINS` is unset",
  },
  {
    name: "VIGIA_RATE_LIMIT_PER_MINUTE",
    default: "6000",
    meaning: "requests per API key and minute, across every API process",
  },
  {
    name: "VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE",
    default: "600",
    meaning:
      "requests per key and minute to each heavy route (scans, risk jobs, investigations, screening batches, wallet and compliance reports)",
  },
  {
    name: "VIGIA_AUTH_FAILURES_PER_MINUTE",
    default: "60",
    meaning:
      "failed authentications (401 only) per client address and minute, per API process; past it, 429 before any key is looked up, except keys this process already knows valid and up to 10 new keys a minute, each looked up once",
  },
  {
    name: "VIGIA_TRUST_PROXY",
    default: "unset",
    meaning:
      "the proxies whose `X-Forwarded-For` names the client (limits and logs then use it): a hop count (`1` for one balancer) or addresses and networks (CIDR), comma-separated; unset: none",
  },
  {
    name: "VIGIA_SESSION_IDLE_MINUTES",
    default: "30",
    meaning: "a person's session ends after this many minutes without a request (sign in again)",
  },
  {
    name: "VIGIA_SESSION_MAX_HOURS",
    default: "12",
    meaning: "a person's session ends this many hours after signing in, however active",
  },
  {
    name: "VIGIA_LOGIN_FAILURES_PER_EMAIL",
    default: "5",
    meaning:
      "failed sign-ins of one e-mail in the window (`VIGIA_LOGIN_WINDOW_MINUTES`) before 429; a browser that signed in to the account before has its own count instead",
  },
  {
    name: "VIGIA_LOGIN_FAILURES_PER_ADDRESS",
    default: "20",
    meaning: "failed sign-ins from one client address in the window before 429, whatever the e-mail",
  },
  {
    name: "VIGIA_LOGIN_WINDOW_MINUTES",
    default: "15",
    meaning:
      "the window failed sign-ins are counted in; a limited e-mail or address may try again when it ends",
  },
  {
    name: "VIGIA_OIDC_ISSUER",
    default: "unset",
    meaning:
      'the OpenID Connect provider\'s issuer URL (HTTPS; HTTP only on this machine): set, people may sign in through it ("Signing in with an identity provider")',
  },
  {
    name: "VIGIA_OIDC_CLIENT_ID",
    default: "unset",
    meaning: "this service's client id at the provider; required with `VIGIA_OIDC_ISSUER`",
  },
  {
    name: "VIGIA_OIDC_CLIENT_SECRET",
    default: "unset",
    meaning: "the client's secret at the provider (unset: a public client, PKCE only)",
  },
  {
    name: "VIGIA_OIDC_REDIRECT_URL",
    default: "VIGIA_PUBLIC_URL/auth/oidc/callback",
    meaning: "the callback URL registered at the provider",
  },
  {
    name: "VIGIA_OIDC_EMAIL_CLAIM",
    default: "email",
    meaning:
      "the claim holding the person's e-mail; with `email`, the provider must also say `email_verified: true`",
  },
  {
    name: "VIGIA_OIDC_NAME",
    default: "OpenID Connect",
    meaning: "the provider's name on the sign-in page's button",
  },
  {
    name: "VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT",
    default: "20",
    meaning: "risk jobs a project may have queued or running; beyond it, 429",
  },
  {
    name: "VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT",
    default: "10",
    meaning: "layered analyses (investigations) a project may have queued or running; beyond it, 429",
  },
  {
    name: "VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT",
    default: "100000",
    meaning: "addresses a project may monitor at once; beyond it, registering one answers 409",
  },
  {
    name: "VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT",
    default: "1000",
    meaning: "investigations a project may have open (not closed); beyond it, creating one answers 409",
  },
  {
    name: "VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT",
    default: "10000",
    meaning:
      "notifications a project may have waiting for delivery; past it, its monitored transfers wait to be checked and redeliveries answer 429",
  },
  {
    name: "VIGIA_REDELIVERIES_PER_MINUTE",
    default: "60",
    meaning: "notification redeliveries a project may ask for per minute; beyond it, 429",
  },
  {
    name: "VIGIA_CHECKS_PER_PROCESS",
    default: "8",
    meaning: "users whose monitored transfers one worker process checks at once",
  },
  {
    name: "VIGIA_CHECKS_PER_PROJECT",
    default: "2",
    meaning:
      "users of one project whose transfers are checked at once, by all workers together: a project whose integrator is slow delays only itself",
  },
  {
    name: "VIGIA_PROFILE_READS_PER_PROJECT",
    default: "2",
    meaning: "user profile reads from one project's integrator at once, per process",
  },
  {
    name: "VIGIA_DELIVERIES_PER_PROCESS",
    default: "64",
    meaning: "webhook deliveries one worker process makes at once",
  },
  {
    name: "VIGIA_DELIVERIES_PER_PROJECT",
    default: "8",
    meaning: "webhook deliveries to one project's integrator at once, by all workers together",
  },
  {
    name: "VIGIA_QUICK_MAX_IN_FLIGHT",
    default: "64",
    meaning:
      "quick checks (`GET /risk/quick`) one API process runs at once; beyond, a check waits for a place (`VIGIA_QUICK_MAX_WAIT_MS`)",
  },
  {
    name: "VIGIA_QUICK_MAX_IN_FLIGHT_PER_PROJECT",
    default: "32",
    meaning:
      "quick checks of one project one API process runs at once, so that one project's burst leaves places to the others",
  },
  {
    name: "VIGIA_QUICK_MAX_WAIT_MS",
    default: "100",
    meaning:
      "longest a quick check waits for a place, from its request's arrival; beyond, or when at the rate checks finish it would wait longer, 503 with `Retry-After: 1` (load shedding: the checks answered stay fast)",
  },
  {
    name: "VIGIA_SCREENING_MAX_IN_FLIGHT",
    default: "2",
    meaning:
      "batches of `POST /screening/persons` one API process screens at once (each gives the thread back every few ms); beyond, a batch waits for a place (`VIGIA_SCREENING_MAX_WAIT_MS`)",
  },
  {
    name: "VIGIA_SCREENING_MAX_IN_FLIGHT_PER_PROJECT",
    default: "1",
    meaning:
      "batches of one project one API process screens at once: a project's burst waits behind itself, and another project's requests wait a slice at most",
  },
  {
    name: "VIGIA_SCREENING_MAX_WAIT_MS",
    default: "30000",
    meaning:
      "longest a screening batch waits for its place; beyond, or when at the rate batches finish it would wait longer, 503 with `Retry-After: 5`",
  },
  {
    name: "VIGIA_REQUEST_DEADLINE_MS",
    default: "30000",
    meaning: "longest a scan or a standard investigation computes inside its request",
  },
  {
    name: "VIGIA_COVERAGE_MAX_LAG_BLOCKS",
    default: "50",
    meaning:
      "blocks an index may be behind its node's head and still be current: beyond, a verdict that finds nothing is withheld (`no_data`)",
  },
  {
    name: "VIGIA_COVERAGE_MAX_SILENCE_SECONDS",
    default: "300",
    meaning:
      "seconds an indexer may go without reading its node's head and still be current: beyond, a verdict that finds nothing is withheld (`no_data`)",
  },
  {
    name: "VIGIA_COVERAGE_TTL_MS",
    default: "1000",
    meaning:
      "how long each process reuses a chain's holding (its indexer's checkpoint and head, the first and last times of its data) for the coverage of verdicts, in ms: a verdict's coverage may be that much behind the indexer (0: read for every verdict)",
  },
  {
    name: "VIGIA_READY_MAX_LAG_BLOCKS",
    default: "unset",
    meaning:
      "set, `/readyz` also fails (503 naming the chains) while a followed chain is more blocks than this behind its node's head, silent past `VIGIA_COVERAGE_MAX_SILENCE_SECONDS`, or stopped because its node is not the chain the store holds; unset, chains never make a process unready",
  },
  {
    name: "VIGIA_STATEMENT_TIMEOUT_MS",
    default: "60000",
    meaning: "longest a database statement of the service runs on PostgreSQL (PGlite cannot interrupt one)",
  },
  { name: "VIGIA_ANALYSIS_RETENTION_DAYS", default: "90", meaning: "days a finished analysis is kept" },
  {
    name: "VIGIA_CHAIN_STATS_TTL_SECONDS",
    default: "300",
    meaning: "how long a chain's market and network figures are fresh",
  },
  {
    name: "VIGIA_UPSTREAM_TIMEOUT_MS",
    default: "1500",
    meaning: "longest a chain route waits for its market source before serving the last snapshot",
  },
  {
    name: "VIGIA_ALLOW_PRIVATE_OUTBOUND",
    default: "false",
    meaning:
      "`true` lets calls to integrators reach loopback and private addresses (a receiver on this machine, as in docs/quickstart.md; tests; on-premise); never link-local or metadata addresses. Unset, refused, where the devnet runs too (docs/quickstart.md starts it with `true`)",
  },
  {
    name: "VIGIA_ALERT_LEVEL",
    default: "high",
    meaning:
      "the risk level (`low`, `medium`, `high`, `critical`) from which an analysis of a monitored address raises an alert, for a project whose `alert_level` is unset",
  },
  {
    name: "VIGIA_FILE_STORE",
    default: "by database",
    meaning:
      "where report files live: `filesystem` (`<data dir>/files`, the embedded default) or `database` (the PostgreSQL default)",
  },
  {
    name: "VIGIA_LLM_BASE_URL",
    default: "unset",
    meaning:
      "an OpenAI-compatible chat-completions endpoint that writes wallet reports; unset, the deterministic writer",
  },
  {
    name: "VIGIA_LLM_MODEL",
    default: "unset",
    meaning: "the model to ask; required with `VIGIA_LLM_BASE_URL`",
  },
  {
    name: "VIGIA_LLM_API_KEY",
    default: "unset",
    meaning: "the bearer token of the LLM endpoint, if it needs one",
  },
  {
    name: "VIGIA_LLM_TIMEOUT_MS",
    default: "20000",
    meaning: "longest wait for the LLM before the deterministic report is served",
  },
  {
    name: "VIGIA_LLM_REPORTS_PER_HOUR",
    default: "100",
    meaning:
      "LLM calls for wallet reports per project and hour, each reserved before it is made (under concurrency too); a failed call counts",
  },
  {
    name: "VIGIA_WALLET_REPORT_TTL_SECONDS",
    default: "86400",
    meaning: "how long a wallet report is served from the cache",
  },
  {
    name: "VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR",
    default: "30",
    meaning:
      "wallet reports a project's viewer keys may refresh (`recreate=true`) per hour, across every API process; beyond it, 429 (0: viewers may not refresh)",
  },
  {
    name: "VIGIA_LIST_MAX_SHRINK_PERCENT",
    default: "10",
    meaning:
      "the largest share of a list's entries (or of the sanctioned addresses) an import or refresh may remove; more is refused with the counts unless `--allow-shrink` (a truncated download must not wipe screening)",
  },
  {
    name: "VIGIA_LIST_REFRESH_HOURS",
    default: "24",
    meaning:
      "hours between the workers' refreshes of each public list (`ofac-sdn`, `un`, `sat-69b`, `sanctions`: OFAC's digital currency addresses; `ftm` once `VIGIA_LIST_URLS` names it), one value or per kind (`24,un=12,sat-69b=0`); 0: never",
  },
  {
    name: "VIGIA_LIST_URLS",
    default: "unset",
    meaning:
      "where the workers fetch a list instead of its official URL, per kind, comma-separated (`ofac-sdn=https://mirror.example/SDN.XML,ftm=https://…`); plain http only for a mirror of your own",
  },
  {
    name: "VIGIA_LIST_MAX_AGE_HOURS",
    default: "48,mx-lpb=744",
    meaning:
      "the age past which a list is reported stale (`/readyz`'s details, `GET /screening/lists`, the `VigiaListStale` alert), one value or per kind; the UIF's LPB, loaded by hand, 31 days",
  },
  {
    name: "VIGIA_METRICS_ALLOW",
    default: "unset",
    meaning: "addresses and networks (CIDR), comma-separated, that may read `/metrics` without a key",
  },
  {
    name: "VIGIA_METRICS_PORT",
    default: "unset",
    meaning:
      "the port a `vigia worker` serves `/healthz`, `/readyz` and `/metrics` on (0: any free port, printed at start)",
  },
  {
    name: "VIGIA_LOG_LEVEL",
    default: "info",
    meaning:
      "`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent` (`LOG_LEVEL` is read when it is unset)",
  },
];

/** Every invalid value of a configuration, each with its variable's name. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration: ${problems.join("; ")}`);
  }
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** Reads variables, noting every problem instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  text(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value === "" ? undefined : value;
  }

  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.text(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      const range =
        max === Number.MAX_SAFE_INTEGER
          ? `an integer of at least ${min}`
          : `an integer from ${min} to ${max}`;
      this.problems.push(`${name} must be ${range}, got "${raw}"`);
      return fallback;
    }
    return n;
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const raw = this.text(name);
    if (raw === undefined) return undefined;
    if (!values.includes(raw as T)) {
      this.problems.push(`${name} must be ${values.map((v) => `"${v}"`).join(" or ")}, got "${raw}"`);
      return undefined;
    }
    return raw as T;
  }

  url(name: string, schemes: readonly string[]): string | undefined {
    const raw = this.text(name);
    if (raw === undefined) return undefined;
    try {
      const url = new URL(raw);
      if (schemes.includes(url.protocol.replace(/:$/, ""))) return raw;
    } catch {}
    this.problems.push(`${name} must be a ${schemes.join(" or ")} URL, got "${redactUrl(raw)}"`);
    return undefined;
  }

  /** `24,un=12,sat-69b=0`: a number for every kind, with exceptions; hours, 0 or more. */
  perKind(name: string, fallback: string): PerKind {
    const parse = (text: string): PerKind | string => {
      const setting: PerKind = { fallback: Number.NaN, byKind: {} };
      for (const item of text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)) {
        const [kind, value] = item.includes("=")
          ? item.split("=", 2).map((s) => s.trim())
          : [undefined, item];
        if (!/^\d+$/.test(value ?? "")) return `"${item}" is no number of hours (0 or more)`;
        if (kind === undefined) setting.fallback = Number(value);
        else if (!/^[a-z0-9-]+$/.test(kind)) return `"${kind}" is no kind of list`;
        else setting.byKind[kind] = Number(value);
      }
      if (Number.isNaN(setting.fallback))
        return "give one value for every kind (`24`), then any exceptions (`24,un=12`)";
      return setting;
    };
    const given = this.text(name);
    const parsed = parse(given ?? fallback);
    if (typeof parsed === "string") {
      this.problems.push(`${name}: ${parsed}`);
      return parse(fallback) as PerKind;
    }
    return parsed;
  }

  /** `kind=url,kind=url`: an http(s) URL by kind of list. */
  kindUrls(name: string): Record<string, string> {
    const urls: Record<string, string> = {};
    for (const item of this.list(name, (item) => {
      const at = item.indexOf("=");
      if (at < 1) return `"${item}" is not kind=URL`;
      try {
        const url = new URL(item.slice(at + 1));
        return ["http:", "https:"].includes(url.protocol) ? undefined : `"${item}" is not an http(s) URL`;
      } catch {
        return `"${item}" is not kind=URL`;
      }
    })) {
      const at = item.indexOf("=");
      if (at >= 1) urls[item.slice(0, at).trim()] = item.slice(at + 1).trim();
    }
    return urls;
  }

  list(name: string, check: (item: string) => string | undefined): string[] {
    const items = (this.text(name) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    for (const item of items) {
      const problem = check(item);
      if (problem) this.problems.push(`${name}: ${problem}`);
    }
    return items;
  }
}

/** A URL as it may appear in an error: without its password. */
function redactUrl(raw: string): string {
  return raw.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
}

/** Why an entry of VIGIA_METRICS_ALLOW is no address or network, or undefined (the list that reads it says). */
function ipOrNetwork(item: string): string | undefined {
  try {
    new AddressAllowList([item]);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function oidcFrom(r: EnvReader, publicUrl: string): Config["oidc"] {
  const issuer = r.url("VIGIA_OIDC_ISSUER", ["https", "http"]);
  const clientId = r.text("VIGIA_OIDC_CLIENT_ID");
  const clientSecret = r.text("VIGIA_OIDC_CLIENT_SECRET");
  const redirectUrl =
    r.url("VIGIA_OIDC_REDIRECT_URL", ["https", "http"]) ??
    `${publicUrl.replace(/\/+$/, "")}/auth/oidc/callback`;
  const emailClaim = r.text("VIGIA_OIDC_EMAIL_CLAIM") ?? textDefault("VIGIA_OIDC_EMAIL_CLAIM");
  const name = r.text("VIGIA_OIDC_NAME") ?? textDefault("VIGIA_OIDC_NAME");
  if (!issuer) return undefined;
  const local = ["127.0.0.1", "localhost", "[::1]"].includes(new URL(issuer).hostname);
  if (new URL(issuer).protocol === "http:" && !local)
    r.problems.push(`VIGIA_OIDC_ISSUER must be an https URL (http only on this machine), got "${issuer}"`);
  if (!clientId) {
    r.problems.push("VIGIA_OIDC_CLIENT_ID is required with VIGIA_OIDC_ISSUER");
    return undefined;
  }
  return { issuer, clientId, clientSecret, redirectUrl, emailClaim, name };
}

function llmFrom(r: EnvReader): Config["llm"] {
  const baseUrl = r.url("VIGIA_LLM_BASE_URL", ["http", "https"]);
  const timeoutMs = r.int("VIGIA_LLM_TIMEOUT_MS", 20_000, 1);
  const model = r.text("VIGIA_LLM_MODEL");
  const apiKey = r.text("VIGIA_LLM_API_KEY");
  if (!baseUrl) return undefined;
  if (!model) {
    r.problems.push("VIGIA_LLM_MODEL is required with VIGIA_LLM_BASE_URL");
    return undefined;
  }
  return { baseUrl, model, apiKey, timeoutMs };
}

/** The configuration the environment describes; throws a ConfigError naming every invalid value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const r = new EnvReader(env);
  const host = r.text("HOST") ?? "127.0.0.1";
  const port = r.int("PORT", 8080, 0, 65_535);
  const dataDirText = r.text("VIGIA_DATA_DIR") ?? "./data";
  const dataDir = dataDirText === "memory://" ? dataDirText : path.resolve(dataDirText);
  const publicUrl = r.url("VIGIA_PUBLIC_URL", ["http", "https"]) ?? `http://${host}:${port}`;
  const logLevel = r.text("VIGIA_LOG_LEVEL") ?? r.text("LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel))
    r.problems.push(`VIGIA_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  const privateOutbound = r.oneOf("VIGIA_ALLOW_PRIVATE_OUTBOUND", ["true", "false", "1", "0"]);
  const devnet = r.oneOf("VIGIA_DEVNET", ["true", "false"]);
  const publicExplorers = r.oneOf("VIGIA_PUBLIC_EXPLORERS", ["true", "false", "on", "off"]);
  const metricsPort = r.text("VIGIA_METRICS_PORT") ? r.int("VIGIA_METRICS_PORT", 0, 0, 65_535) : undefined;
  const jobsSchema = r.text("VIGIA_JOBS_SCHEMA") ?? "pgboss";
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(jobsSchema))
    r.problems.push(
      `VIGIA_JOBS_SCHEMA must be a lowercase SQL name (letters, digits, _), got "${jobsSchema}"`,
    );
  const secret = r.text("VIGIA_SECRET");
  const weak = (what: string) => (value: string) =>
    secretBytes(value) < MIN_SECRET_BYTES
      ? `${what} must carry at least ${MIN_SECRET_BYTES} random bytes; make one with \`openssl rand -base64 32\``
      : undefined;
  const secretProblem = secret ? weak("VIGIA_SECRET")(secret) : undefined;
  if (secretProblem) r.problems.push(secretProblem);
  // Each entry `secret` or `secret@<ISO time of the rotation>` (parsePreviousSecret; "Rotating the secret").
  const previousSecrets = r.list("VIGIA_SECRET_PREVIOUS", (entry) => {
    try {
      return weak("each secret")(parsePreviousSecret(entry).secret);
    } catch (error) {
      return (error as Error).message;
    }
  });
  if (previousSecrets.length > 0 && !secret)
    r.problems.push("VIGIA_SECRET_PREVIOUS needs VIGIA_SECRET (the secret that replaces them)");

  const config: Config = {
    databaseUrl: r.url("DATABASE_URL", ["postgres", "postgresql"]),
    dbPoolSize: r.int("VIGIA_DB_POOL_SIZE", 10, 1, 1000),
    jobsSchema,
    dataDir,
    host,
    port,
    publicUrl: publicUrl.replace(/\/+$/, ""),
    secret,
    previousSecrets,
    chainsFile: r.text("VIGIA_CHAINS"),
    publicExplorers: publicExplorers === undefined || publicExplorers === "true" || publicExplorers === "on",
    allowPrivateOutbound: privateOutbound === "true" || privateOutbound === "1",
    rateLimitPerMinute: r.int("VIGIA_RATE_LIMIT_PER_MINUTE", 6000),
    authFailuresPerMinute: r.int("VIGIA_AUTH_FAILURES_PER_MINUTE", 60),
    heavyRateLimitPerMinute: r.int("VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE", 600),
    maxActiveJobsPerProject: r.int("VIGIA_MAX_ACTIVE_JOBS_PER_PROJECT", 20),
    maxActiveAnalysesPerProject: r.int("VIGIA_MAX_ACTIVE_ANALYSES_PER_PROJECT", 10),
    quickMaxInFlight: r.int("VIGIA_QUICK_MAX_IN_FLIGHT", 64, 1),
    quickMaxInFlightPerProject: r.int("VIGIA_QUICK_MAX_IN_FLIGHT_PER_PROJECT", 32, 1),
    quickMaxWaitMs: r.int("VIGIA_QUICK_MAX_WAIT_MS", 100, 0),
    screeningMaxInFlight: r.int("VIGIA_SCREENING_MAX_IN_FLIGHT", 2, 1),
    screeningMaxInFlightPerProject: r.int("VIGIA_SCREENING_MAX_IN_FLIGHT_PER_PROJECT", 1, 1),
    screeningMaxWaitMs: r.int("VIGIA_SCREENING_MAX_WAIT_MS", 30_000, 0),
    maxMonitoredAddressesPerProject: r.int(
      "VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT",
      configDefault("VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT"),
      1,
    ),
    maxOpenInvestigationsPerProject: r.int(
      "VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT",
      configDefault("VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT"),
      1,
    ),
    maxPendingNotificationsPerProject: r.int(
      "VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT",
      configDefault("VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT"),
      1,
    ),
    redeliveriesPerMinute: r.int(
      "VIGIA_REDELIVERIES_PER_MINUTE",
      configDefault("VIGIA_REDELIVERIES_PER_MINUTE"),
      1,
    ),
    checksPerProcess: r.int("VIGIA_CHECKS_PER_PROCESS", configDefault("VIGIA_CHECKS_PER_PROCESS"), 1, 1000),
    checksPerProject: r.int("VIGIA_CHECKS_PER_PROJECT", configDefault("VIGIA_CHECKS_PER_PROJECT"), 1, 1000),
    profileReadsPerProject: r.int(
      "VIGIA_PROFILE_READS_PER_PROJECT",
      configDefault("VIGIA_PROFILE_READS_PER_PROJECT"),
      1,
      1000,
    ),
    deliveriesPerProcess: r.int(
      "VIGIA_DELIVERIES_PER_PROCESS",
      configDefault("VIGIA_DELIVERIES_PER_PROCESS"),
      1,
      1000,
    ),
    deliveriesPerProject: r.int(
      "VIGIA_DELIVERIES_PER_PROJECT",
      configDefault("VIGIA_DELIVERIES_PER_PROJECT"),
      1,
      1000,
    ),
    requestDeadlineMs: r.int("VIGIA_REQUEST_DEADLINE_MS", 30_000, 1),
    coverageMaxLagBlocks: r.int("VIGIA_COVERAGE_MAX_LAG_BLOCKS", 50),
    coverageMaxSilenceSeconds: r.int("VIGIA_COVERAGE_MAX_SILENCE_SECONDS", 300, 1),
    coverageTtlMs: r.int("VIGIA_COVERAGE_TTL_MS", 1000, 0),
    readyMaxLagBlocks: r.text("VIGIA_READY_MAX_LAG_BLOCKS")
      ? r.int("VIGIA_READY_MAX_LAG_BLOCKS", 0, 0)
      : undefined,
    statementTimeoutMs: r.int("VIGIA_STATEMENT_TIMEOUT_MS", 60_000, 1),
    analysisRetentionDays: r.int("VIGIA_ANALYSIS_RETENTION_DAYS", 90, 1),
    logLevel,
    chainStatsTtlSeconds: r.int("VIGIA_CHAIN_STATS_TTL_SECONDS", 300),
    upstreamTimeoutMs: r.int("VIGIA_UPSTREAM_TIMEOUT_MS", 1500),
    fileStore: r.oneOf("VIGIA_FILE_STORE", ["filesystem", "database"]),
    alertLevel:
      r.oneOf("VIGIA_ALERT_LEVEL", ALERT_LEVELS) ?? choiceDefault("VIGIA_ALERT_LEVEL", ALERT_LEVELS),
    llm: llmFrom(r),
    walletReportTtlSeconds: r.int("VIGIA_WALLET_REPORT_TTL_SECONDS", 86_400),
    llmReportsPerHour: r.int("VIGIA_LLM_REPORTS_PER_HOUR", 100),
    walletReportRefreshesPerHour: r.int("VIGIA_WALLET_REPORT_REFRESHES_PER_HOUR", 30),
    devnet: devnet === "true" ? true : devnet === "false" ? false : undefined,
    listMaxShrink:
      r.int("VIGIA_LIST_MAX_SHRINK_PERCENT", configDefault("VIGIA_LIST_MAX_SHRINK_PERCENT"), 0, 100) / 100,
    listRefreshHours: r.perKind("VIGIA_LIST_REFRESH_HOURS", textDefault("VIGIA_LIST_REFRESH_HOURS")),
    listUrls: r.kindUrls("VIGIA_LIST_URLS"),
    listMaxAgeHours: r.perKind("VIGIA_LIST_MAX_AGE_HOURS", textDefault("VIGIA_LIST_MAX_AGE_HOURS")),
    metricsAllow: r.list("VIGIA_METRICS_ALLOW", ipOrNetwork),
    sessionIdleMs:
      r.int("VIGIA_SESSION_IDLE_MINUTES", configDefault("VIGIA_SESSION_IDLE_MINUTES"), 1) * 60_000,
    sessionMaxMs: r.int("VIGIA_SESSION_MAX_HOURS", configDefault("VIGIA_SESSION_MAX_HOURS"), 1) * 3_600_000,
    loginFailuresPerEmail: r.int(
      "VIGIA_LOGIN_FAILURES_PER_EMAIL",
      configDefault("VIGIA_LOGIN_FAILURES_PER_EMAIL"),
      1,
    ),
    loginFailuresPerAddress: r.int(
      "VIGIA_LOGIN_FAILURES_PER_ADDRESS",
      configDefault("VIGIA_LOGIN_FAILURES_PER_ADDRESS"),
      1,
    ),
    loginWindowMs:
      r.int("VIGIA_LOGIN_WINDOW_MINUTES", configDefault("VIGIA_LOGIN_WINDOW_MINUTES"), 1) * 60_000,
    oidc: oidcFrom(r, publicUrl),
    trustProxy: /^\s*\d+\s*$/.test(r.text("VIGIA_TRUST_PROXY") ?? "")
      ? r.int("VIGIA_TRUST_PROXY", 0, 1)
      : r.text("VIGIA_TRUST_PROXY")
        ? r.list("VIGIA_TRUST_PROXY", ipOrNetwork)
        : undefined,
    metricsPort,
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
