// Limits failed authentication per client address: every 401 counts against the address in a one-minute window,
// and past the limit its requests are refused (429) before any key is looked up, except keys already known valid
// (auth.ts), so guessing keys costs the guesser, not the database nor the customers behind the same address. Fixed windows in memory, per process; the map is bounded (the oldest windows go
// first), so a flood of addresses cannot grow it without end.
export class FailureLimiter {
  readonly #windows = new Map<string, { start: number; failures: number }>();

  constructor(
    readonly maxPerWindow: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly maxAddresses = 100_000,
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
