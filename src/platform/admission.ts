// Admission of cheap, high-rate work (the quick check) under load: at most `maxInFlight` pieces run at once in the
// process and `maxInFlightPerTenant` of one tenant, and a piece that finds no place waits at most `maxWaitMs` (counted
// from when its request arrived) before it is refused with Overloaded. Past capacity the queue of a service without
// this grows without bound and every answer slows down (a check that took 15 ms took seconds); with it, the answers
// that are given stay fast and the refused ones are told to come back (503 with Retry-After), which is what a
// client that retries needs. A tenant's own burst waits behind its own cap and never takes the places others use.
//
// Waiting pieces are served in arrival order, skipping those whose tenant is at its cap.

export interface AdmissionOptions {
  /** pieces of work running at once in this process */
  maxInFlight: number;
  /** pieces of one tenant running at once */
  maxInFlightPerTenant: number;
  /** the longest a piece waits for a place, in ms, counted from its request's arrival */
  maxWaitMs: number;
}

/** Thrown by Admission.run for a piece that waited `maxWaitMs` without a place. */
export class Overloaded extends Error {
  constructor(
    readonly waitedMs: number,
    /** whole seconds after which a retry has a fair chance */
    readonly retryAfterSeconds: number,
  ) {
    super(`no place within ${Math.round(waitedMs)} ms`);
    this.name = "Overloaded";
  }
}

interface Waiter {
  tenant: string | number;
  start: () => void;
  timer: NodeJS.Timeout;
}

export interface AdmissionStats {
  inFlight: number;
  waiting: number;
  /** pieces refused since the start */
  refused: number;
  /** pieces that had to wait for a place since the start */
  waited: number;
}

export class Admission {
  readonly #o: AdmissionOptions;
  readonly #running = new Map<string | number, number>();
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #refused = 0;
  #waited = 0;
  /** told of each refusal (the service counts and logs them) */
  onRefused: ((tenant: string | number, waitedMs: number) => void) | undefined;

  constructor(options: AdmissionOptions) {
    if (!(options.maxInFlight >= 1 && options.maxInFlightPerTenant >= 1 && options.maxWaitMs >= 0))
      throw new RangeError("maxInFlight and maxInFlightPerTenant must be ≥ 1, maxWaitMs ≥ 0");
    this.#o = options;
  }

  stats(): AdmissionStats {
    return {
      inFlight: this.#inFlight,
      waiting: this.#queue.length,
      refused: this.#refused,
      waited: this.#waited,
    };
  }

  /**
   * Runs `work` once a place is free for `tenant`; `waitedMs` is how long its request has waited already (it counts
   * towards maxWaitMs). Throws Overloaded when no place frees in time; `work`'s own errors pass through.
   */
  async run<T>(tenant: string | number, work: () => Promise<T>, waitedMs = 0): Promise<T> {
    if (this.#hasPlace(tenant)) this.#take(tenant);
    else await this.#wait(tenant, waitedMs); // resolves with the place taken
    try {
      return await work();
    } finally {
      this.#release(tenant);
    }
  }

  #hasPlace(tenant: string | number): boolean {
    return (
      this.#inFlight < this.#o.maxInFlight && (this.#running.get(tenant) ?? 0) < this.#o.maxInFlightPerTenant
    );
  }

  #take(tenant: string | number): void {
    this.#inFlight++;
    this.#running.set(tenant, (this.#running.get(tenant) ?? 0) + 1);
  }

  #release(tenant: string | number): void {
    this.#inFlight--;
    const left = (this.#running.get(tenant) ?? 1) - 1;
    if (left === 0) this.#running.delete(tenant);
    else this.#running.set(tenant, left);
    this.#admitWaiting();
  }

  #wait(tenant: string | number, waitedMs: number): Promise<void> {
    const left = this.#o.maxWaitMs - waitedMs;
    if (left <= 0) return Promise.reject(this.#refuse(tenant, waitedMs));
    this.#waited++;
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        tenant,
        start: resolve,
        timer: setTimeout(() => {
          const at = this.#queue.indexOf(waiter);
          if (at >= 0) this.#queue.splice(at, 1);
          reject(this.#refuse(tenant, this.#o.maxWaitMs));
        }, left),
      };
      this.#queue.push(waiter);
    });
  }

  #refuse(tenant: string | number, waitedMs: number): Overloaded {
    this.#refused++;
    this.onRefused?.(tenant, waitedMs);
    return new Overloaded(waitedMs, 1);
  }

  /** Starts the waiting pieces, in arrival order, that now have a place. */
  #admitWaiting(): void {
    for (let i = 0; i < this.#queue.length && this.#inFlight < this.#o.maxInFlight; ) {
      const waiter = this.#queue[i] as Waiter;
      if ((this.#running.get(waiter.tenant) ?? 0) >= this.#o.maxInFlightPerTenant) {
        i++;
        continue;
      }
      this.#queue.splice(i, 1);
      clearTimeout(waiter.timer);
      // The place is taken now, before the waiter's continuation runs, so that no newcomer takes it meanwhile.
      this.#take(waiter.tenant);
      waiter.start();
    }
  }
}
