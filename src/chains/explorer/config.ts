// Which explorer a chain's history comes from, and the adapter's tunables with their defaults.
// A chain's `explorer_api_url` (of `explorer_api_kind`) names its explorer; `null` there means none. Without the
// key, its `blockscout_url` (the built-in chains name Blockscout's public instances) serves histories too, unless
// public explorers are off (VIGIA_PUBLIC_EXPLORERS=false). Asking an explorer about an address tells it which
// wallets the service is looking at: docs/decisions/0025-public-explorers-by-default.md says why the default is on.
// Tron-kind chains read histories from TronGrid (trongrid.ts): an explorer_api_url of no stated kind is TronGrid's,
// and without one, public explorers on, the public https://api.trongrid.io. Bitcoin chains read histories from an
// Esplora API (esplora.ts) only where their config names one: no public instance is asked by default.
import type { ReadCoalescing } from "../../ledger/index.ts";
import type { OutboundClient } from "../../platform/outbound/index.ts";
import type { ChainConfig } from "../registry.ts";
import type { HostRateLimiters } from "./rate-limiter.ts";

export type ExplorerKind = "blockscout" | "etherscan" | "trongrid" | "esplora";

export interface ExplorerSource {
  kind: ExplorerKind;
  /** Blockscout: the instance root (…/api/v2 is appended). Etherscan: the `…/api` endpoint, query kept. */
  baseUrl: URL;
  apiKey: string | null;
  ratePerSecond: number;
  /**
   * What named it: the chain config's explorer_api_url, its blockscout_url (the statistics' Blockscout), or the
   * public TronGrid every Tron-kind chain defaults to.
   */
  origin: "explorer_api_url" | "blockscout_url" | "tron_default";
}

export const DEFAULT_RATE_PER_SECOND = 5;
/** TronGrid's public endpoint: Tron chains' histories when public explorers are on. */
export const TRONGRID_URL = "https://api.trongrid.io";

/**
 * The explorer a chain's histories come from, or undefined when it has none: its `explorer_api_url` when the
 * config sets one (null: none, whatever else it sets); otherwise, with `publicExplorers`, its `blockscout_url`.
 */
export function explorerSource(chain: ChainConfig, publicExplorers: boolean): ExplorerSource | undefined {
  const explicit = chain.explorer_api_url;
  const rate = chain.explorer_rate_limit_per_second ?? DEFAULT_RATE_PER_SECOND;
  const tron = chain.kind === "tron";
  if (explicit !== undefined) {
    if (explicit === null) return undefined;
    return {
      kind:
        chain.explorer_api_kind ?? (tron ? "trongrid" : chain.kind === "bitcoin" ? "esplora" : "blockscout"),
      baseUrl: new URL(explicit),
      apiKey: chain.explorer_api_key ?? null,
      ratePerSecond: rate,
      origin: "explorer_api_url",
    };
  }
  if (tron) {
    if (!publicExplorers) return undefined;
    return {
      kind: "trongrid",
      baseUrl: new URL(TRONGRID_URL),
      apiKey: chain.explorer_api_kind === "trongrid" ? (chain.explorer_api_key ?? null) : null,
      ratePerSecond: rate,
      origin: "tron_default",
    };
  }
  if (!publicExplorers || !chain.blockscout_url) return undefined;
  return {
    kind: "blockscout",
    baseUrl: new URL(chain.blockscout_url),
    // A key meant for an Etherscan-compatible API is not sent to the Blockscout instance.
    apiKey: chain.explorer_api_kind === "etherscan" ? null : (chain.explorer_api_key ?? null),
    ratePerSecond: rate,
    origin: "blockscout_url",
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
  /**
   * Whether a chain without `explorer_api_url` reads histories from its `blockscout_url`. The service sets it from
   * VIGIA_PUBLIC_EXPLORERS (on unless turned off, src/platform/config.ts); an adapter built without it asks only
   * the explorers chains name explicitly.
   */
  publicExplorers: boolean;
  /**
   * The safe outbound client every explorer request goes through (its address policy: loopback and private
   * addresses only with VIGIA_ALLOW_PRIVATE_OUTBOUND). The service gives its own; without one, the default policy.
   */
  outbound?: OutboundClient;
  /**
   * Reads of the fetch records shared by the analyses of the moment (the service's): a quick check of an explorer
   * chain reads its address's record, hundreds of times a second. Without one, a statement per read.
   */
  coalescing?: ReadCoalescing;
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
  publicExplorers: false,
};
