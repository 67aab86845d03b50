// The one error the explorer adapter throws. `retryable` drives the HTTP client's retries; the message names the
// explorer host and what went wrong, never the API key (URLs in messages have `apikey` redacted).
export type ExplorerErrorKind =
  | "not_configured"
  | "invalid_request"
  | "http_status"
  | "rate_limited"
  | "timeout"
  | "network"
  | "redirect"
  | "too_large"
  | "invalid_json"
  | "invalid_response"
  | "explorer_error";

export class ExplorerError extends Error {
  override readonly name = "ExplorerError";

  constructor(
    readonly kind: ExplorerErrorKind,
    message: string,
    readonly retryable = false,
    readonly status?: number,
    /** How long a rate-limited client should wait (Retry-After), when the explorer said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A URL as it may appear in a message or a log: without its API key. */
export function redactUrl(url: URL): string {
  const copy = new URL(url);
  for (const key of [...copy.searchParams.keys()]) {
    if (/^(api_?key|key|token)$/i.test(key)) copy.searchParams.set(key, "***");
  }
  return `${copy.host}${copy.pathname}${copy.search}`;
}
