// A store for @fastify/rate-limit kept in PostgreSQL, so that every API process of a fleet counts against the same
// limit: N processes allow a key its limit once, not N times (docs/operations.md, "Rate limits in a fleet").
//
// Fixed windows aligned on the epoch (a key's window is floor(now / timeWindow)): one row per key and window in
// the unlogged table `rate_limit_hits` (migrations/0018). The increments of the requests that arrive in the same
// event-loop turn go to the database in one statement, so a busy process sends a few statements a second whatever
// its request rate; each request learns its own place in the count. Windows older than the one before are deleted
// now and then by whichever process counts.
import type pg from "pg";

/** What @fastify/rate-limit's store callback receives. */
interface Hit {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, hit?: Hit) => void;

interface Pending {
  key: string;
  window: number;
  timeWindow: number;
  callback: Callback;
}

/** How often old windows are deleted, at most (per process). */
const PRUNE_EVERY_MS = 60_000;

const COUNT = `
  INSERT INTO rate_limit_hits AS r (key, window_start, hits)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[])
  ON CONFLICT (key, window_start) DO UPDATE SET hits = r.hits + excluded.hits
  RETURNING key, window_start::text AS window_start, hits`;

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
    const window = Math.floor(this.now() / timeWindow) * timeWindow;
    this.#pending.push({ key, window, timeWindow, callback });
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => void this.#flush());
    }
  }

  async #flush(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    this.#scheduled = false;
    // One row per key and window, with how many of this batch's requests it counts.
    const rows = new Map<string, { key: string; window: number; hits: number }>();
    for (const p of batch) {
      const id = `${p.window}:${p.key}`;
      const row = rows.get(id);
      if (row) row.hits++;
      else rows.set(id, { key: p.key, window: p.window, hits: 1 });
    }
    const list = [...rows.values()];
    try {
      const result = await this.pool.query<{ key: string; window_start: string; hits: number }>(COUNT, [
        list.map((r) => r.key),
        list.map((r) => r.window),
        list.map((r) => r.hits),
      ]);
      // The total after this batch; the batch's requests take the places before it, in arrival order.
      const next = new Map<string, number>();
      for (const r of result.rows) {
        const sent = rows.get(`${r.window_start}:${r.key}`)?.hits ?? 0;
        next.set(`${r.window_start}:${r.key}`, r.hits - sent + 1);
      }
      const now = this.now();
      for (const p of batch) {
        const id = `${p.window}:${p.key}`;
        const current = next.get(id) ?? 1;
        next.set(id, current + 1);
        p.callback(null, { current, ttl: Math.max(1, p.window + p.timeWindow - now) });
      }
    } catch (error) {
      for (const p of batch) p.callback(error as Error);
    }
    void this.#prune();
  }

  /** Deletes windows that ended before the previous minute; errors are ignored (the next prune retries). */
  async #prune(): Promise<void> {
    const now = this.now();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    // Windows of any length up to an hour: a row whose window began over an hour and a minute ago is over.
    await this.pool
      .query("DELETE FROM rate_limit_hits WHERE window_start < $1", [now - 3_660_000])
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
