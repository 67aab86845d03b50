// How busy the PostgreSQL connection pool of this process is: its connections open, idle, and the queries
// waiting for one. A pool that is often full with waiting queries is the first sign the database or the pool's
// size bounds the service.
import type pg from "pg";
import { Gauge, METRIC_PREFIX, type Registry } from "./registry.ts";

export function poolMetrics(registry: Registry, pool: pg.Pool): void {
  new Gauge({
    name: `${METRIC_PREFIX}db_pool_connections`,
    help: "Connections of this process's database pool: open (total), idle, and queries waiting for one",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      this.set({ state: "total" }, pool.totalCount);
      this.set({ state: "idle" }, pool.idleCount);
      this.set({ state: "waiting" }, pool.waitingCount);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}db_pool_max_connections`,
    help: "The most connections this process's database pool opens",
    registers: [registry],
    collect() {
      this.set(pool.options.max ?? 10);
    },
  });
}
