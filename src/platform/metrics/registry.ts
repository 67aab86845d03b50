// The Prometheus registry of one process (prom-client): the process's own figures (CPU, memory, event-loop lag,
// under `vigia_process_*` / `vigia_nodejs_*`) and whatever the features register on it. Each process of a fleet
// serves its own: Prometheus scrapes every one and sums or takes the maximum across them
// (docs/operations.md, "Metrics").
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export { Counter, Gauge, Histogram, Registry };

export const METRIC_PREFIX = "vigia_";

export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}

/** The exposition text and its content type, for a scrape. */
export async function render(registry: Registry): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
