// Admission of cheap, high-rate work (the quick check) under load: at most `maxInFlight` pieces run at once in the
// process and `maxInFlightPerTenant` of one tenant, and a piece that finds no place waits at most `maxWaitMs`,
// counted from when its request arrived (the event loop's lag included: a request read after a stall has waited
// unseen), before it is refused with Overloaded. A piece that finds a place runs, however late it came. A tenant's own burst waits behind its own cap and never takes the
// places others use.
//
// Past capacity the queue of a service without this grows without bound and every answer slows down (a check that
// took 15 ms took seconds); with it, the answers that are given stay fast and the refused ones are told to come back
// (503 with Retry-After), which is what a client that retries needs. A piece that could not get a place within the
// bound (those before it waiting, each place freeing once per mean duration of a piece) is refused at once rather
// than at the end of its wait: a refusal
// after a full wait holds the client's connection for nothing, and a client with a pool of connections then queues
// its next requests behind those (measured: answered checks 1.5 s late at twice the capacity, the service's own
// part of it 250 ms). The work itself is never cut back under load: on the embedded database a check is cheapest
// when many run together, their statements shared (src/ledger/layer-read.ts).
//
// Waiting pieces are served in arrival order, skipping those whose tenant is at its cap.
import { performance } from "node:perf_hooks";

export interface AdmissionOptions {
  /** pieces of work running at once in this process */
  maxInFlight: number;
  /** pieces of one tenant running at once */
  maxInFlightPerTenant: number;
  /** the longest a piece waits for a place, in ms, counted from its request's arrival */
  maxWaitMs: number;
  /**
   * How late the event loop runs, in ms (platform/loop-lag.ts): a request read after a stall has waited that long
   * already, unseen. Below LAG_FLOOR_MS it is a timer's jitter and counts for nothing.
   */
  lag?: () => number;
  /** ms, monotonic (tests pass their own) */
  now?: () => number;
}

const LAG_FLOOR_MS = 5;
/** How much each piece's duration moves the running mean of durations. */
const DURATION_WEIGHT = 0.1;

/**
 * Thrown by Admission.run for a piece refused for want of a place in time. Made without a stack trace: under
 * overload thousands are made a second, and capturing one cost more than the refusal it explains.
 */
export class Overloaded extends Error {
  readonly waitedMs: number;
  /** whole seconds after which a retry has a fair chance */
  readonly retryAfterSeconds: number;

  constructor(waitedMs: number, retryAfterSeconds: number) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(`no place within ${Math.round(waitedMs)} ms`);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = "Overloaded";
    this.waitedMs = waitedMs;
    this.retryAfterSeconds = retryAfterSeconds;
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
  readonly #now: () => number;
  readonly #running = new Map<string | number, number>();
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #refused = 0;
  #waited = 0;
  /** the running mean of the pieces' durations, in ms (undefined before one has finished) */
  #duration: number | undefined;
  /** told of each refusal (the service counts and logs them) */
  onRefused: ((tenant: string | number, waitedMs: number) => void) | undefined;

  constructor(options: AdmissionOptions) {
    if (!(options.maxInFlight >= 1 && options.maxInFlightPerTenant >= 1 && options.maxWaitMs >= 0))
      throw new RangeError("maxInFlight and maxInFlightPerTenant must be ≥ 1, maxWaitMs ≥ 0");
    this.#o = options;
    this.#now = options.now ?? (() => performance.now());
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
   * towards maxWaitMs when it must wait). Throws Overloaded when no place frees in time; `work`'s own errors pass
   * through.
   */
  async run<T>(tenant: string | number, work: () => Promise<T>, waitedMs = 0): Promise<T> {
    if (this.#hasPlace(tenant)) this.#take(tenant);
    else {
      // A piece that must wait has waited already for as long as the loop ran late (it was read after the stall).
      const lag = this.#o.lag?.() ?? 0;
      await this.#wait(tenant, waitedMs + (lag >= LAG_FLOOR_MS ? lag : 0)); // resolves with the place taken
    }
    const started = this.#now();
    try {
      return await work();
    } finally {
      const took = this.#now() - started;
      this.#duration =
        this.#duration === undefined ? took : this.#duration + DURATION_WEIGHT * (took - this.#duration);
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
    if (left <= 0 || this.#expectedWait(tenant) > left) return Promise.reject(this.#refuse(tenant, waitedMs));
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

  /**
   * About how long a new waiter of `tenant` would wait: the places that bind it (its tenant's, when that one is at its
   * cap; else the process's) each free one piece per mean duration, and those waiting before it go first. Before
   * any piece has finished there is nothing to judge by: 0 (it waits).
   */
  #expectedWait(tenant: string | number): number {
    if (this.#duration === undefined) return 0;
    const atOwnCap = (this.#running.get(tenant) ?? 0) >= this.#o.maxInFlightPerTenant;
    const ahead = atOwnCap ? this.#queue.filter((w) => w.tenant === tenant).length : this.#queue.length;
    const places = atOwnCap ? this.#o.maxInFlightPerTenant : this.#o.maxInFlight;
    return ((ahead + 1) * this.#duration) / places;
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

/**
 * Tells of each refusal of `admission` (`refused`, a count) and, at most once every `everyMs`, warns in the log with
 * how many were refused since the last warning (`message(n)`): under overload a warning per refusal would flood the
 * log it is meant to be read in.
 */
export function tellRefusals(
  admission: Admission,
  tell: { refused(): void; log: { warn(obj: object, msg: string): void } },
  context: object,
  message: (refused: number) => string,
  now: () => number = Date.now,
  everyMs = 10_000,
): void {
  let unlogged = 0;
  let loggedAt = Number.NEGATIVE_INFINITY;
  admission.onRefused = () => {
    tell.refused();
    unlogged++;
    if (now() - loggedAt < everyMs) return;
    tell.log.warn({ refused: unlogged, ...context }, message(unlogged));
    unlogged = 0;
    loggedAt = now();
  };
}
