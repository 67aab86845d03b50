// A token bucket per explorer host: `ratePerSecond` tokens a second, at most `burst` saved up. Waiters are served
// in order. A 429's Retry-After pauses the whole host, so no other request to it goes out before then.
import { performance } from "node:perf_hooks";

/** Where the bucket reads the time and waits; tests pass a virtual clock so spacing is exact under any load. */
export interface BucketClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const realClock: BucketClock = { now: () => performance.now(), sleep };

export class TokenBucket {
  #tokens: number;
  #refilledAt: number;
  #pausedUntil = 0;
  #queue: Promise<void> = Promise.resolve();

  constructor(
    public ratePerSecond: number,
    readonly burst = 1,
    private readonly clock: BucketClock = realClock,
  ) {
    this.#tokens = burst;
    this.#refilledAt = clock.now();
  }

  /** Resolves when the caller may send one request. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(() => this.#wait(signal));
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** No request leaves before `ms` from now (a Retry-After). */
  pause(ms: number): void {
    this.#pausedUntil = Math.max(this.#pausedUntil, this.clock.now() + ms);
  }

  async #wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      if (now < this.#pausedUntil) {
        await this.clock.sleep(this.#pausedUntil - now, signal);
        continue;
      }
      this.#tokens = Math.min(
        this.burst,
        this.#tokens + ((now - this.#refilledAt) / 1000) * this.ratePerSecond,
      );
      this.#refilledAt = now;
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return;
      }
      await this.clock.sleep(Math.ceil(((1 - this.#tokens) / this.ratePerSecond) * 1000), signal);
    }
  }
}

/** One bucket per host (host:port). Chains sharing a host share its bucket, at the lowest rate configured. */
export class HostRateLimiters {
  readonly #buckets = new Map<string, TokenBucket>();

  for(host: string, ratePerSecond: number, burst = 1): TokenBucket {
    const bucket = this.#buckets.get(host);
    if (bucket) {
      bucket.ratePerSecond = Math.min(bucket.ratePerSecond, ratePerSecond);
      return bucket;
    }
    const created = new TokenBucket(ratePerSecond, burst);
    this.#buckets.set(host, created);
    return created;
  }
}

export const processRateLimiters = new HostRateLimiters();
