// A store for @fastify/rate-limit kept in PostgreSQL, so that every API process of a fleet counts against the same
// limit: N processes allow a key its limit once, not N times (docs/operations.md, "Rate limits in a fleet").
//
// A key's window starts at its first request and lasts the route's time window, as in the plugin's own memory store;
// the next request after it starts a new one. One row per key in the unlogged table `rate_limit_hits`
// (migrations/0018), timed by the database's clock so that every process agrees. The increments of the requests
// that arrive in the same event-loop turn go to the database in one statement, so a busy process sends a few
// statements a second whatever its request rate; each request learns its own place in the count. Keys idle for an
// hour are deleted now and then by whichever process counts.
import type pg from "pg";

/** What @fastify/rate-limit's store callback receives. */
interface Hit {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, hit?: Hit) => void;

interface Pending {
  key: string;
  timeWindow: number;
  callback: Callback;
}

/** How often idle keys are deleted, at most (per process). */
const PRUNE_EVERY_MS = 60_000;

/** The database's clock, in epoch milliseconds. */
const NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

const COUNT = `
  WITH batch AS (
    SELECT key, hits, window_ms, ${NOW_MS} AS now_ms FROM unnest($1::text[], $2::int[], $3::bigint[]) AS b(key, hits, window_ms)
  )
  INSERT INTO rate_limit_hits AS r (key, window_start, window_ms, hits)
  SELECT key, now_ms, window_ms, hits FROM batch
  ON CONFLICT (key) DO UPDATE SET
    window_start = CASE WHEN r.window_start + r.window_ms <= excluded.window_start THEN excluded.window_start ELSE r.window_start END,
    window_ms = CASE WHEN r.window_start + r.window_ms <= excluded.window_start THEN excluded.window_ms ELSE r.window_ms END,
    hits = CASE WHEN r.window_start + r.window_ms <= excluded.window_start THEN excluded.hits ELSE r.hits + excluded.hits END
  RETURNING key, hits, (window_start + window_ms - ${NOW_MS})::float8 AS ttl`;

/** The counting shared by every route's store: one batch per event-loop turn. */
export class SharedRateCounter {
  #pending: Pending[] = [];
  #scheduled = false;
  #prunedAt = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  incr(key: string, timeWindow: number, callback: Callback): void {
    this.#pending.push({ key, timeWindow, callback });
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => void this.#flush());
    }
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#scheduled = false;
    // One row per key, with how many of this batch's requests it counts.
    const rows = new Map<string, { key: string; hits: number; windowMs: number }>();
    for (const p of batch) {
      const row = rows.get(p.key);
      if (row) row.hits++;
      else rows.set(p.key, { key: p.key, hits: 1, windowMs: p.timeWindow });
    }
    const list = [...rows.values()];
    try {
      const result = await this.pool.query<{ key: string; hits: number; ttl: number }>(COUNT, [
        list.map((r) => r.key),
        list.map((r) => r.hits),
        list.map((r) => r.windowMs),
      ]);
      // The total after this batch; the batch's requests take the places before it, in arrival order.
      const next = new Map<string, { place: number; ttl: number }>();
      for (const r of result.rows) {
        const sent = rows.get(r.key)?.hits ?? 0;
        next.set(r.key, { place: r.hits - sent + 1, ttl: Math.max(1, Math.round(r.ttl)) });
      }
      for (const p of batch) {
        const at = next.get(p.key) ?? { place: 1, ttl: p.timeWindow };
        p.callback(null, { current: at.place, ttl: at.ttl });
        at.place++;
      }
    } catch (error) {
      for (const p of batch) p.callback(error as Error);
    }
    void this.#prune();
  }

  /** Deletes keys whose window ended over an hour ago; errors are ignored (the next prune retries). */
  async #prune(): Promise<void> {
    const now = this.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await this.pool
      .query(`DELETE FROM rate_limit_hits WHERE window_start + window_ms < ${NOW_MS} - 3600000`)
      .catch(() => {});
  }
}

/**
 * The store class @fastify/rate-limit constructs (`store` option): every route's child counts in the same table,
 * under its own prefix, as the plugin's Redis store does.
 */
export function sharedRateStore(counter: SharedRateCounter) {
  return class SharedRateStore {
    constructor(
      _params?: unknown,
      private readonly prefix = "",
    ) {}

    // The plugin passes the route's window as a third argument (its published types leave it out).
    incr(key: string, callback: Callback, timeWindow = 60_000): void {
      counter.incr(`${this.prefix}${key}`, timeWindow, callback);
    }

    // The plugin's types say a route's options; at run time they carry the route as `routeInfo`.
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
      return new SharedRateStore(undefined, `${String(route.method ?? "")}${String(route.url ?? "")}-`);
    }
  };
}
