// Which explorer a chain's history comes from, and the adapter's tunables with their defaults.
// Histories are opt-in: only a chain that sets `explorer_api_url` (of `explorer_api_kind`) has them. Its
// `blockscout_url` (network statistics) is not used for histories: asking a public explorer for an address tells
// it which wallets the service is looking at (docs/decisions/0012-explorer-history.md).
import type { ChainConfig } from "../registry.ts";
import type { HostRateLimiters } from "./rate-limiter.ts";

export type ExplorerKind = "blockscout" | "etherscan";

export interface ExplorerSource {
  kind: ExplorerKind;
  /** Blockscout: the instance root (…/api/v2 is appended). Etherscan: the `…/api` endpoint, query kept. */
  baseUrl: URL;
  apiKey: string | null;
  ratePerSecond: number;
}

export const DEFAULT_RATE_PER_SECOND = 5;

export function explorerSource(chain: ChainConfig): ExplorerSource | undefined {
  const url = chain.explorer_api_url;
  if (!url) return undefined;
  return {
    kind: chain.explorer_api_kind ?? "blockscout",
    baseUrl: new URL(url),
    apiKey: chain.explorer_api_key ?? null,
    ratePerSecond: chain.explorer_rate_limit_per_second ?? DEFAULT_RATE_PER_SECOND,
  };
}

export interface ExplorerOptions {
  /** A fetched history answers later requests without calling the explorer for this long. */
  freshnessMs: number;
  /** A stale open-ended history is refreshed from this long before its last fetch, not from the start. */
  refreshOverlapMs: number;
  /** Caps per list (transactions, token transfers): beyond them the result is `truncated`. */
  maxPages: number;
  maxTransfers: number;
  /** Items per page requested from Etherscan-compatible APIs (Blockscout v2 pages are the server's size). */
  pageSize: number;
  /** Etherscan-compatible APIs refuse page × offset beyond this; the list then continues by block. */
  resultWindow: number;
  requestTimeoutMs: number;
  maxResponseBytes: number;
  /** Retries of a request after a 5xx, a timeout or a network error, with exponential backoff and jitter. */
  maxRetries: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Waits after 429 (or Etherscan's "rate limit reached") before the request fails. */
  maxRateLimitRetries: number;
  /** A Retry-After longer than this fails the request at once instead of waiting. */
  maxRetryAfterMs: number;
  /** Requests a host's token bucket lets through at once. */
  burst: number;
  now: () => number;
  /** Token buckets per explorer host; shared by every adapter of the process unless given. */
  rateLimiters?: HostRateLimiters;
}

export const DEFAULT_OPTIONS: ExplorerOptions = {
  freshnessMs: 60 * 60_000,
  refreshOverlapMs: 60 * 60_000,
  maxPages: 20,
  maxTransfers: 10_000,
  pageSize: 1000,
  resultWindow: 10_000,
  requestTimeoutMs: 15_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 10_000,
  maxRateLimitRetries: 5,
  maxRetryAfterMs: 60_000,
  burst: 1,
  now: Date.now,
};
