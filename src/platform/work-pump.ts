// A background worker over claimed items (messages to deliver, users' transfers to check) that never waits for its
// slowest item: it claims as many items as it has free slots, runs each on its own, and claims again soon after a
// slot frees, or when woken (new work was handed in), or every `pollMs` while idle. A claim or an item that throws
// is told to `onError` (the owner logs and counts it: nothing fails in silence) and the pump goes on. `stop()`
// waits for the claim and the items in flight.
export interface WorkPumpOptions<T> {
  /** items run at once */
  slots: number;
  /** how often an idle pump looks for work */
  pollMs: number;
  /**
   * How long after an item finishes the pump claims again (default 5 ms): the items that finish meanwhile share
   * that claim. A claim is a transaction; claiming after every item, one at a time, made it most of the work.
   */
  settleMs?: number;
  /** claims up to `free` items */
  claim: (free: number) => Promise<T[]>;
  run: (item: T) => Promise<void>;
  onError: (step: "claim" | "run", error: unknown) => void;
}

export class WorkPump<T> {
  readonly #o: WorkPumpOptions<T>;
  readonly #running = new Set<Promise<void>>();
  #claiming: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #settling: NodeJS.Timeout | undefined;
  #stopped = true;

  constructor(options: WorkPumpOptions<T>) {
    this.#o = options;
  }

  /** Items running now. */
  get running(): number {
    return this.#running.size;
  }

  start(): void {
    this.#stopped = false;
    this.#timer = setInterval(() => this.wake(), this.#o.pollMs);
    this.wake();
  }

  /** Looks for work now (new work was handed in, or a slot freed). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    const free = this.#o.slots - this.#running.size;
    if (free <= 0) return;
    this.#claiming = this.#claim(free).finally(() => {
      this.#claiming = undefined;
      if (this.#again) {
        this.#again = false;
        this.wake();
      }
    });
  }

  async #claim(free: number): Promise<void> {
    let items: T[];
    try {
      items = await this.#o.claim(free);
    } catch (error) {
      this.#o.onError("claim", error);
      return;
    }
    for (const item of items) {
      const running: Promise<void> = this.#o
        .run(item)
        .catch((error) => this.#o.onError("run", error))
        .finally(() => {
          this.#running.delete(running);
          this.#settle();
        });
      this.#running.add(running);
    }
    // Every free slot found work: more may be waiting.
    if (items.length === free) this.#again = true;
  }

  /** Claims again shortly: the slots that free meanwhile are filled by one claim. */
  #settle(): void {
    if (this.#settling || this.#stopped) return;
    this.#settling = setTimeout(() => {
      this.#settling = undefined;
      this.wake();
    }, this.#o.settleMs ?? 5);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#settling);
    await this.#claiming;
    await Promise.all([...this.#running]);
  }
}
