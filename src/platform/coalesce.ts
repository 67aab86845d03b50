// Coalesces concurrent lookups of single keys into batched loads, as DataLoader does, but without a timer: while
// `inFlight` loads are running, new keys wait, and the next load takes every waiting key at once (up to
// `maxBatch`). An idle caller is served at once, so nothing waits that would not have waited anyway; under load,
// one statement serves many callers. Worth it where a statement's fixed cost dominates (the embedded database
// runs one statement at a time, each with ~0.3 ms of overhead however little it reads).
//
// A load that runs on this thread (the embedded database) blocks it until done: no other caller can arrive while
// it runs, so "wait while a load is in flight" never batches anything. With `gatherTurn`, a load starts at the end
// of the event loop's turn instead (setImmediate): the callers of that turn (under load, every request read from
// the sockets in one poll) share it, and an idle caller waits only for the rest of its turn.
export interface CoalescerOptions {
  /** loads running at once; further keys wait and are batched */
  inFlight: number;
  /** keys per load at most */
  maxBatch: number;
  /** start loads at the end of the event loop's turn, so that the callers of one turn share a load */
  gatherTurn?: boolean;
  /** called when the last load ends with no key waiting (to drop a coalescer kept per kind of request) */
  onIdle?: () => void;
}

interface Waiting<V> {
  resolve: (value: V) => void;
  reject: (error: unknown) => void;
}

export class Coalescer<K, V> {
  readonly #load: (keys: K[]) => Promise<Map<K, V>>;
  readonly #missing: (key: K) => V;
  readonly #options: CoalescerOptions;
  /** keys waiting for a load, each with its callers (the same key asked twice is loaded once) */
  readonly #queue = new Map<K, Waiting<V>[]>();
  #running = 0;
  /** a start is scheduled for the end of this turn (gatherTurn) */
  #scheduled = false;

  /**
   * `load` returns the value of each key it found; `missing` gives the value of a key it did not return. A load
   * that fails fails each of its callers.
   */
  constructor(load: (keys: K[]) => Promise<Map<K, V>>, missing: (key: K) => V, options: CoalescerOptions) {
    if (!(options.inFlight >= 1 && options.maxBatch >= 1))
      throw new RangeError("inFlight and maxBatch must be ≥ 1");
    this.#load = load;
    this.#missing = missing;
    this.#options = options;
  }

  get(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const waiting = this.#queue.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.#queue.set(key, [{ resolve, reject }]);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (!this.#options.gatherTurn) {
      this.#next();
      return;
    }
    if (this.#scheduled || this.#queue.size === 0) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#next();
    });
  }

  #next(): void {
    while (this.#running < this.#options.inFlight && this.#queue.size > 0) {
      const batch: [K, Waiting<V>[]][] = [];
      for (const entry of this.#queue) {
        batch.push(entry);
        if (batch.length === this.#options.maxBatch) break;
      }
      for (const [key] of batch) this.#queue.delete(key);
      this.#running++;
      void this.#run(batch);
    }
  }

  async #run(batch: [K, Waiting<V>[]][]): Promise<void> {
    try {
      const found = await this.#load(batch.map(([key]) => key));
      for (const [key, callers] of batch) {
        const value = found.has(key) ? (found.get(key) as V) : this.#missing(key);
        for (const caller of callers) caller.resolve(value);
      }
    } catch (error) {
      for (const [, callers] of batch) for (const caller of callers) caller.reject(error);
    } finally {
      this.#running--;
      this.#schedule();
      if (this.#running === 0 && this.#queue.size === 0) this.#options.onIdle?.();
    }
  }
}
