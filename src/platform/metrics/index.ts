// Prometheus metrics of a process (docs/operations.md, "Metrics"): the registry, the HTTP and pool
// instrumentation, and who may read them.
//
//   createRegistry()                 a registry with the process's default metrics (prefix vigia_)
//   instrumentHttp(app, registry)    request rate and latency by route
//   poolMetrics(registry, pool)      the PostgreSQL pool's connections
//   AddressAllowList                 VIGIA_METRICS_ALLOW: who reads /metrics without a key
export { AddressAllowList } from "./access.ts";
export { instrumentHttp } from "./http-metrics.ts";
export { poolMetrics } from "./pool-metrics.ts";
export { Counter, createRegistry, Gauge, Histogram, METRIC_PREFIX, Registry, render } from "./registry.ts";
