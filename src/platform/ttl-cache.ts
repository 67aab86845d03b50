// A small in-process cache of values loaded on demand and kept for a fixed time: for settings and reference
// tables read on every request (a project's jurisdictions, a currency's daily rates) that change rarely, where
// a change may take effect within the time to live. Concurrent loads of one key share one promise; a failed load
// is not kept. When full, it forgets the least recently used key (lru-cache), so a burst of one-off keys pushes
// out only the coldest entries, not the hot ones every request reads.
import { LRUCache } from "lru-cache";

export class TtlCache<K extends {}, V> {
  // The promise is what is kept: a second caller while the first load runs gets the same promise.
  readonly #entries: LRUCache<K, Promise<V>>;

  /**
   * `now`, for tests on a virtual clock: milliseconds, greater than 0 (lru-cache reads an entry stored at time 0
   * as one without a time to live). An entry is stale once more than `ttlMs` has passed since its load began.
   */
  constructor(
    private readonly load: (key: K) => Promise<V>,
    ttlMs: number,
    maxEntries = 10_000,
    now?: () => number,
  ) {
    this.#entries = new LRUCache<K, Promise<V>>({
      max: maxEntries,
      ttl: ttlMs,
      // Read the clock on every look-up rather than lru-cache's default of once a millisecond: a virtual clock
      // moves between two calls in the same millisecond, and the read costs nothing next to a load.
      ttlResolution: 0,
      ...(now ? { perf: { now } } : {}),
    });
  }

  get(key: K): Promise<V> {
    const kept = this.#entries.get(key);
    if (kept) return kept;
    const value = this.load(key);
    this.#entries.set(key, value);
    value.catch(() => {
      if (this.#entries.peek(key, { allowStale: true }) === value) this.#entries.delete(key);
    });
    return value;
  }

  /** Forgets a key (after a change this process made itself). */
  delete(key: K): void {
    this.#entries.delete(key);
  }
}
