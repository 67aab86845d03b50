// How late this process's event loop runs: a timer due every EVERY_MS records how much later than due it fired. A
// request read from its socket after the loop was stalled that long has waited about that long unseen (it sat in
// the socket's buffer), so admission counts it towards the request's wait (platform/admission.ts). On the embedded
// database every statement runs on this thread: a long statement stalls everything behind it.
import { performance } from "node:perf_hooks";

const EVERY_MS = 10;

export class LoopLag {
  #latest = 0;
  #last = 0;
  #timer: NodeJS.Timeout | undefined;

  /** Starts sampling (the timer does not keep the process alive). */
  start(): this {
    if (this.#timer) return this;
    this.#last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      this.#latest = Math.max(0, now - this.#last - EVERY_MS);
      this.#last = now;
    }, EVERY_MS);
    this.#timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** How late, in ms, the last sample fired: 0 on an idle loop, the length of the last stall after one. */
  get ms(): number {
    return this.#latest;
  }
}
