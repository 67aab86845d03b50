// GET /metrics: the process's Prometheus metrics, for an address of VIGIA_METRICS_ALLOW without a key, or for
// anyone presenting an admin key of any project (the figures are the fleet's, never a project's data). Other
// callers get 401 or 403, counted against their address like any failed authentication.
import { AppError, MESSAGES } from "../errors.ts";
import { type AddressAllowList, type Registry, render } from "../metrics/index.ts";
import type { HttpApp } from "./app.ts";
import { type Authenticator, presentedKey } from "./auth.ts";
import type { FailureLimiter } from "./failure-limiter.ts";

export interface MetricsRouteOptions {
  registry: Registry;
  allow: AddressAllowList;
}

export function registerMetricsRoute(
  app: HttpApp,
  options: MetricsRouteOptions,
  authenticate: Authenticator,
  failures: FailureLimiter | undefined,
): void {
  app.get(
    "/metrics",
    { config: { access: "public", rateLimit: false }, schema: { hide: true } },
    async (request, reply) => {
      if (!options.allow.allows(request.ip)) {
        const wait = failures?.blockedFor(request.ip) ?? 0;
        if (wait > 0)
          throw new AppError("rate_limited", "Too many failed authentications from this address", {
            retryAfter: wait,
          });
        const key = presentedKey(request);
        const principal = key === undefined ? undefined : await authenticate(key);
        if (principal?.role !== "admin") {
          failures?.fail(request.ip);
          throw principal
            ? new AppError("forbidden", "Metrics need an admin key")
            : new AppError("unauthorized", MESSAGES.invalidKey);
        }
      }
      const { contentType, body } = await render(options.registry);
      return reply.header("content-type", contentType).header("cache-control", "no-store").send(body);
    },
  );
}
