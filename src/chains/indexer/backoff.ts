// Waiting between attempts: exponential backoff with jitter, and a sleep that a stop cuts short.

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { initialMs: 250, maxMs: 30_000 };

/** The wait before attempt `failures + 1`: doubling from `initialMs`, capped, with ±25 % jitter. */
export function backoffDelay(failures: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponential = policy.initialMs * 2 ** Math.min(Math.max(failures - 1, 0), 30);
  const capped = Math.min(exponential, policy.maxMs);
  return Math.round(capped * (0.75 + Math.random() * 0.5));
}

/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
