// Limits failed authentication per client address: every 401 counts against the address in a one-minute window,
// and past the limit its requests are refused (429) before any key is looked up, except keys already known valid
// (auth.ts), so guessing keys costs the guesser, not the database nor the customers behind the same address. Fixed
// windows in memory, per process; the map is bounded (the oldest windows go first), so a flood of addresses cannot
// grow it without end.
//
// A key known valid is only one this process has looked up: after a restart none is, and every customer behind an
// address a guesser (or a client with a stale key) has limited would wait out the window with a valid key. So a
// limited address may still have a few keys looked up, each once per window (`probe`): a valid key among them is
// admitted and known from then on. The probes are bounded per address and window, so a flood of distinct guesses
// causes at most `maxPerWindow + PROBES_PER_WINDOW` lookups a window, as before plus a constant; a flood of more
// distinct well-formed guesses than that still takes every probe, and a new valid key then waits as before.
import crypto from "node:crypto";

/** How many distinct keys a limited address may still have looked up in a window. */
export const PROBES_PER_WINDOW = 10;

interface Window {
  start: number;
  failures: number;
  /** digests of the keys looked up while the address was limited, this window */
  probes?: Set<string>;
}

export class FailureLimiter {
  readonly #windows = new Map<string, Window>();

  constructor(
    readonly maxPerWindow: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly maxAddresses = 100_000,
    private readonly probesPerWindow = PROBES_PER_WINDOW,
  ) {}

  /** Seconds until the address may try again, or 0 when it is not blocked. */
  blockedFor(address: string): number {
    const w = this.#windows.get(address);
    if (!w) return 0;
    const elapsed = this.now() - w.start;
    if (elapsed >= this.windowMs) {
      this.#windows.delete(address);
      return 0;
    }
    return w.failures >= this.maxPerWindow ? Math.max(1, Math.ceil((this.windowMs - elapsed) / 1000)) : 0;
  }

  /**
   * Whether a limited address may have this key looked up: once per key and window, and only while the window's
   * probes last. The key is kept as a short digest, never as itself.
   */
  probe(address: string, key: string): boolean {
    const w = this.#windows.get(address);
    if (!w) return true;
    const digest = crypto.createHash("sha256").update(key).digest("base64url").slice(0, 16);
    w.probes ??= new Set();
    if (w.probes.has(digest) || w.probes.size >= this.probesPerWindow) return false;
    w.probes.add(digest);
    return true;
  }

  /** Counts one failed authentication of the address. */
  fail(address: string): void {
    const now = this.now();
    let w = this.#windows.get(address);
    if (!w || now - w.start >= this.windowMs) {
      this.#windows.delete(address);
      if (this.#windows.size >= this.maxAddresses) {
        const oldest = this.#windows.keys().next().value;
        if (oldest !== undefined) this.#windows.delete(oldest);
      }
      w = { start: now, failures: 0 };
      this.#windows.set(address, w);
    }
    w.failures++;
  }
}
