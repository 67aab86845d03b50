// Load generators for "latency at a given rate" and "the most a service answers".
//
// openLoop: requests go out on a fixed schedule (request k is due at start + k / rate), whatever the service answers
// meanwhile, and each is timed from when it was due, so a service that falls behind shows its queueing as latency
// (no coordinated omission). Why not autocannon's `overallRate`: its clients send back to back until each has made
// its share of the second's requests, then wait for the next second (autocannon/lib/httpClient.js,
// `reqsMadeThisSecond`). At 500/s over 50 connections the service gets 50 concurrent requests at the start of every
// second and nothing once they are served: it measures how fast a burst of 50 drains, not the latency at 500/s.
//
// closedLoop: `concurrency` requests in flight, each sent as soon as one is answered: the service's throughput.
//
// Every request is bounded (`timeoutMs`, then counted as an error), so a run ends however the service behaves.
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
  /** sockets at most; requests beyond wait in the agent's queue (and their wait counts) */
  sockets: number;
  /** false: a new connection for every request (as a client without a connection pool); default true */
  keepAlive?: boolean;
  /** a request not answered by then is abandoned and counted as an error; default 30,000 ms */
  timeoutMs?: number;
}

export interface LoadResult {
  /** ms from when each completed request was due (open loop) or sent (closed loop) to its last byte */
  latencies: number[];
  /** the same, of the 2xx answers only */
  okLatencies: number[];
  sent: number;
  non2xx: number;
  /** answers by status */
  statuses: Record<number, number>;
  /** connections refused or reset, and requests past their timeout */
  errors: number;
  /** completed requests per second of the run (until the last answer) */
  rate: number;
}

interface Collector {
  result: LoadResult;
  /** sends one request, timed from `from`; resolves when it is settled */
  send(path: string, from: number): Promise<void>;
  close(): void;
}

function collector(
  base: string,
  headers: Record<string, string>,
  o: { sockets: number; keepAlive: boolean; timeoutMs: number },
): Collector {
  const agent = new http.Agent({ keepAlive: o.keepAlive, maxSockets: o.sockets });
  const result: LoadResult = {
    latencies: [],
    okLatencies: [],
    sent: 0,
    non2xx: 0,
    statuses: {},
    errors: 0,
    rate: 0,
  };
  const send = (path: string, from: number) =>
    new Promise<void>((resolve) => {
      result.sent++;
      let settled = false;
      const settle = (ok: boolean, status?: number) => {
        if (settled) return;
        settled = true;
        if (!ok) result.errors++;
        else {
          const latency = performance.now() - from;
          result.latencies.push(latency);
          if (status !== undefined && status >= 200 && status < 300) result.okLatencies.push(latency);
          else result.non2xx++;
          result.statuses[status ?? 0] = (result.statuses[status ?? 0] ?? 0) + 1;
        }
        resolve();
      };
      const request = http.get(`${base}${path}`, { agent, headers }, (response) => {
        response.resume();
        response.on("end", () => settle(true, response.statusCode));
        response.on("error", () => settle(false));
      });
      request.setTimeout(o.timeoutMs, () => {
        request.destroy();
        settle(false);
      });
      request.on("error", () => settle(false));
    });
  return { result, send, close: () => agent.destroy() };
}

export async function openLoop(opts: OpenLoopOptions): Promise<LoadResult> {
  const c = collector(opts.base, opts.headers, {
    sockets: opts.sockets,
    keepAlive: opts.keepAlive ?? true,
    timeoutMs: opts.timeoutMs ?? 30_000,
  });
  const total = Math.round(opts.rate * opts.seconds);
  const interval = 1000 / opts.rate;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  // Timers fire late by a millisecond or more: each tick sends every request due by then.
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; next < total && start + next * interval <= now; next++)
        pending.push(c.send(opts.path(next), start + next * interval));
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  c.result.rate = c.result.latencies.length / ((performance.now() - start) / 1000);
  c.close();
  return c.result;
}

/** `concurrency` requests in flight for `seconds`, over `concurrency` keep-alive sockets. */
export async function closedLoop(opts: {
  base: string;
  path: (k: number) => string;
  headers: Record<string, string>;
  concurrency: number;
  seconds: number;
  timeoutMs?: number;
}): Promise<LoadResult> {
  const c = collector(opts.base, opts.headers, {
    sockets: opts.concurrency,
    keepAlive: true,
    timeoutMs: opts.timeoutMs ?? 30_000,
  });
  const start = performance.now();
  const end = start + opts.seconds * 1000;
  let k = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) await c.send(opts.path(k++), performance.now());
    }),
  );
  c.result.rate = c.result.latencies.length / ((performance.now() - start) / 1000);
  c.close();
  return c.result;
}
