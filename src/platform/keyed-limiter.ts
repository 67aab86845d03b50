// At most `limit` calls at once per key (a project), the others waiting their turn in order: one tenant's slow
// calls then hold only that tenant's own slots. A waiter waits as long as the calls ahead of it take, so the calls
// themselves must be bounded (every outbound call has a total timeout).
export class KeyedLimiter<K> {
  readonly #running = new Map<K, number>();
  readonly #waiting = new Map<K, (() => void)[]>();

  constructor(private readonly limit: number) {
    if (!(limit >= 1)) throw new Error("a limiter needs at least one slot");
  }

  /** How many calls of `key` run now. */
  running(key: K): number {
    return this.#running.get(key) ?? 0;
  }

  async run<T>(key: K, fn: () => Promise<T>): Promise<T> {
    if (this.running(key) >= this.limit) {
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(key) ?? [];
        queue.push(resolve);
        this.#waiting.set(key, queue);
      });
    } else {
      this.#running.set(key, this.running(key) + 1);
    }
    try {
      return await fn();
    } finally {
      // The slot passes to the next waiter as it is, or is given back.
      const next = this.#waiting.get(key)?.shift();
      if (this.#waiting.get(key)?.length === 0) this.#waiting.delete(key);
      if (next) next();
      else if (this.running(key) <= 1) this.#running.delete(key);
      else this.#running.set(key, this.running(key) - 1);
    }
  }
}
