// GET /metrics: the process's Prometheus metrics, for an address of VIGIA_METRICS_ALLOW without a key, or for
// anyone presenting an admin key of any project (the figures are the fleet's, never a project's data). Others get
// 401 from the auth hook, counted against their address like any failed authentication, or 403 (a valid key of
// another role, not counted).
import { type AddressAllowList, type Registry, render } from "../metrics/index.ts";
import type { HttpApp } from "./app.ts";

export interface MetricsRouteOptions {
  registry: Registry;
  allow: AddressAllowList;
}

export function registerMetricsRoute(app: HttpApp, options: MetricsRouteOptions): void {
  app.get(
    "/metrics",
    {
      config: { access: "admin", trustedAddress: (ip) => options.allow.allows(ip), rateLimit: false },
      schema: { hide: true },
    },
    async (_request, reply) => {
      const { contentType, body } = await render(options.registry);
      return reply.header("content-type", contentType).header("cache-control", "no-store").send(body);
    },
  );
}
