// GET a JSON document from an explorer: through the host's token bucket and the safe outbound client (its address
// policy: src/platform/outbound), with a per-request timeout, a response size limit, no redirects, retries with exponential backoff on 5xx / timeouts / network errors, and waits on 429
// as long as its Retry-After says (or the backoff, without one).
import { OutboundClient, OutboundError, type OutboundResponse } from "../../platform/outbound/index.ts";
import type { ExplorerOptions } from "./config.ts";
import { ExplorerError, redactUrl } from "./errors.ts";
import { sleep, type TokenBucket } from "./rate-limiter.ts";

export type HttpOptions = Pick<
  ExplorerOptions,
  | "requestTimeoutMs"
  | "maxResponseBytes"
  | "maxRetries"
  | "backoffBaseMs"
  | "backoffMaxMs"
  | "maxRateLimitRetries"
  | "maxRetryAfterMs"
  | "outbound"
>;

export interface JsonResponse {
  status: number;
  body: unknown;
}

export interface GetJsonOptions {
  signal?: AbortSignal | undefined;
  /** Non-2xx statuses whose JSON body the caller handles itself (Blockscout's 404 for an unknown address). */
  acceptStatuses?: number[];
  /** Inspects a 2xx body; may throw an ExplorerError (kind rate_limited, retryable) to wait and ask again. */
  check?: (body: unknown) => void;
  /** Request headers beside `accept` (TronGrid's key travels in TRON-PRO-API-KEY). */
  headers?: Record<string, string>;
  /** Statuses that mean "slow down" as 429 does (TronGrid throttles with 403 and 503 too). */
  throttleStatuses?: number[];
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Exponential backoff with ±20% jitter: base, 2×base, 4×base, … up to the max. */
export function backoffMs(
  attempt: number,
  opts: Pick<HttpOptions, "backoffBaseMs" | "backoffMaxMs">,
): number {
  const base = Math.min(opts.backoffMaxMs, opts.backoffBaseMs * 2 ** (attempt - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export async function getJson(
  url: URL,
  bucket: TokenBucket,
  opts: HttpOptions,
  { signal, acceptStatuses = [], check, headers = {}, throttleStatuses = [] }: GetJsonOptions = {},
): Promise<JsonResponse> {
  let failures = 0;
  let rateLimits = 0;
  for (;;) {
    await bucket.take(signal);
    let error: ExplorerError;
    try {
      const response = await once(url, opts, acceptStatuses, signal, headers, throttleStatuses);
      if (response.status < 300) check?.(response.body);
      return response;
    } catch (caught) {
      if (signal?.aborted) throw signal.reason;
      if (!(caught instanceof ExplorerError) || !caught.retryable) throw caught;
      error = caught;
    }
    if (error.kind === "rate_limited") {
      rateLimits += 1;
      if (rateLimits > opts.maxRateLimitRetries) {
        throw new ExplorerError(
          "rate_limited",
          `${error.message}; gave up after ${rateLimits} tries`,
          false,
          error.status,
        );
      }
      const wait = error.retryAfterMs ?? backoffMs(rateLimits, opts);
      if (wait > opts.maxRetryAfterMs) {
        throw new ExplorerError(
          "rate_limited",
          `${error.message}; asked to wait ${Math.ceil(wait / 1000)} s, more than the ${Math.ceil(opts.maxRetryAfterMs / 1000)} s allowed`,
          false,
          error.status,
        );
      }
      bucket.pause(wait);
      continue;
    }
    failures += 1;
    if (failures > opts.maxRetries) {
      throw new ExplorerError(
        error.kind,
        `${error.message} (gave up after ${failures} attempts)`,
        false,
        error.status,
      );
    }
    await sleep(backoffMs(failures, opts), signal);
  }
}

/** One request, no retries. Throws a retryable ExplorerError for what a retry may cure. */
async function once(
  url: URL,
  opts: HttpOptions,
  acceptStatuses: number[],
  signal: AbortSignal | undefined,
  headers: Record<string, string>,
  throttleStatuses: number[],
): Promise<JsonResponse> {
  const where = redactUrl(url);
  const timeout = AbortSignal.timeout(opts.requestTimeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const failed = (error: unknown): never => {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ExplorerError) throw error;
    if (timeout.aborted) {
      throw new ExplorerError(
        "timeout",
        `explorer ${where}: no complete answer within ${opts.requestTimeoutMs} ms`,
        true,
      );
    }
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new ExplorerError("network", `explorer ${where}: ${cause}`, true);
  };

  let response: OutboundResponse;
  try {
    response = await outbound(opts).request({
      method: "GET",
      url: url.toString(),
      headers: { ...headers, accept: "application/json" },
      timeoutMs: opts.requestTimeoutMs,
      maxResponseBytes: opts.maxResponseBytes,
      signal: combined,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) return failed(error);
    if (signal?.aborted) throw signal.reason;
    if (error.kind === "too_large")
      throw new ExplorerError(
        "too_large",
        `explorer ${where}: answer larger than ${opts.maxResponseBytes} bytes`,
      );
    if (error.kind === "timeout" || error.kind === "connect_timeout")
      throw new ExplorerError(
        "timeout",
        `explorer ${where}: no complete answer within ${opts.requestTimeoutMs} ms`,
        true,
      );
    // refused by the address policy, or not a URL it calls: no retry cures it
    if (error.kind === "refused" || error.kind === "invalid_url")
      throw new ExplorerError("network", `explorer ${where}: ${error.message}`, false);
    throw new ExplorerError("network", `explorer ${where}: ${error.message}`, true);
  }
  const { status } = response;
  const location = response.headers.location;
  if (status >= 300 && status < 400) {
    throw new ExplorerError(
      "redirect",
      `explorer ${where}: answered HTTP ${status} (to ${location ?? "?"}); redirects are not followed, configure the final URL`,
      false,
      status,
    );
  }
  if (status === 429 || throttleStatuses.includes(status)) {
    const retryAfter = response.headers["retry-after"];
    const wait = parseRetryAfter(Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null));
    throw new ExplorerError("rate_limited", `explorer ${where}: HTTP ${status}`, true, status, wait);
  }
  const text = response.body.toString("utf8");
  if (status >= 500)
    throw new ExplorerError("http_status", `explorer ${where}: HTTP ${status}`, true, status);
  const ok = status >= 200 && status < 300;
  if (!ok && !acceptStatuses.includes(status)) {
    throw new ExplorerError(
      "http_status",
      `explorer ${where}: HTTP ${status}${snippet(text)}`,
      false,
      status,
    );
  }
  try {
    return { status, body: JSON.parse(text) };
  } catch (error) {
    if (!ok)
      throw new ExplorerError(
        "http_status",
        `explorer ${where}: HTTP ${status}${snippet(text)}`,
        false,
        status,
      );
    throw new ExplorerError(
      "invalid_json",
      `explorer ${where}: invalid JSON in a ${text.length}-character answer (${(error as Error).message})`,
      false,
      status,
    );
  }
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim().slice(0, 120);
  return flat ? `: ${flat}` : "";
}

/** The outbound client explorer calls go through: the one the service gives, or one with the default policy. */
function outbound(opts: HttpOptions): OutboundClient {
  return opts.outbound ?? defaultOutbound;
}
const defaultOutbound = new OutboundClient();
