// Request rate and latency by route: one histogram, labelled by method, route pattern (never the raw URL, so
// addresses and ids in paths do not become label values) and status class. Its `_count` is the request counter.
import type { FastifyInstance } from "fastify";
import { Histogram, METRIC_PREFIX, type Registry } from "./registry.ts";

/** Seconds: quick reads near the bottom, scans and reports near the top. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function instrumentHttp(app: FastifyInstance, registry: Registry): void {
  const duration = new Histogram({
    name: `${METRIC_PREFIX}http_request_duration_seconds`,
    help: "HTTP requests by method, route pattern and status class, and how long they took",
    labelNames: ["method", "route", "status"] as const,
    buckets: BUCKETS,
    registers: [registry],
  });
  app.addHook("onResponse", async (request, reply) => {
    // A path no route matched is counted under one label, whatever was asked.
    const route = request.routeOptions.url ?? "unmatched";
    duration.observe(
      { method: request.method, route, status: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });
}
