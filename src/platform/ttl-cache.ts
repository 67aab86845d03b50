// A small in-process cache of values loaded on demand and kept for a fixed time: for settings and reference
// tables read on every request (a project's jurisdictions, a currency's daily rates) that change rarely, where
// a change may take effect within the time to live. Concurrent loads of one key share one promise; a failed load
// is not kept.

export class TtlCache<K, V> {
  readonly #entries = new Map<K, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly load: (key: K) => Promise<V>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: K): Promise<V> {
    const at = this.now();
    const entry = this.#entries.get(key);
    if (entry && entry.expires > at) return entry.value;
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    const value = this.load(key);
    this.#entries.set(key, { value, expires: at + this.ttlMs });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    return value;
  }

  /** Forgets a key (after a change this process made itself). */
  delete(key: K): void {
    this.#entries.delete(key);
  }
}
