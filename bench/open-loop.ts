// An open-loop load generator for "latency at a given rate": requests go out on a fixed schedule (request k is
// due at start + k / rate), whatever the service answers meanwhile, and each is timed from when it was due, so a
// service that falls behind shows its queueing as latency (no coordinated omission).
//
// Why not autocannon's `overallRate`: its clients send back to back until each has made its share of the second's
// requests, then wait for the next second (autocannon/lib/httpClient.js, `reqsMadeThisSecond`). At 500/s over 50
// connections the service gets 50 concurrent requests at the start of every second and nothing once they are
// served: it measures how fast a burst of 50 drains, not the latency at 500 checks/s.
import http from "node:http";
import { performance } from "node:perf_hooks";

export interface OpenLoopOptions {
  /** base URL, e.g. http://127.0.0.1:1234 */
  base: string;
  /** the path of request k */
  path: (k: number) => string;
  headers: Record<string, string>;
  /** requests per second */
  rate: number;
  seconds: number;
  /** keep-alive sockets at most; requests beyond wait in the agent's queue (and their wait counts) */
  sockets: number;
}

export interface OpenLoopResult {
  /** ms from when each completed request was due to its last byte */
  latencies: number[];
  sent: number;
  non2xx: number;
  errors: number;
  /** completed requests per second of the run (until the last answer) */
  rate: number;
}

export async function openLoop(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.sockets });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let pending = 0;
  let sent = 0;
  const start = performance.now();
  let allDone: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  const settle = () => {
    pending--;
    if (sent === total && pending === 0) allDone();
  };

  const send = (k: number) => {
    const due = start + k * interval;
    pending++;
    const request = http.get(`${opts.base}${opts.path(k)}`, { agent, headers: opts.headers }, (response) => {
      if ((response.statusCode ?? 0) < 200 || (response.statusCode ?? 0) >= 300) non2xx++;
      response.resume();
      response.on("end", () => {
        latencies.push(performance.now() - due);
        settle();
      });
      response.on("error", () => {
        errors++;
        settle();
      });
    });
    request.on("error", () => {
      errors++;
      settle();
    });
  };

  // Timers fire late by a millisecond or more: each tick sends every request due by then.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * interval <= now) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  if (pending > 0) await done;
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return { latencies, sent, non2xx, errors, rate: latencies.length / elapsed };
}
