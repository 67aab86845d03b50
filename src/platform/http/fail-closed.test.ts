// A route that declares no access level is refused when it is registered, instead of being served as public.
import { describe, expect, it } from "vitest";
import { buildHttpApp, type HttpApp } from "./app.ts";

const build = (routes: (app: HttpApp) => void) =>
  buildHttpApp({
    logLevel: "silent",
    publicUrl: "http://127.0.0.1",
    rateLimitPerMinute: 100,
    authenticate: async () => undefined,
    readiness: {},
    routes,
  });

describe("route registration", () => {
  it("refuses a /v1 route without an access level", async () => {
    await expect(build((app) => app.get("/forgotten", async () => ({ ok: true })))).rejects.toThrow(
      "route GET /v1/forgotten declares no access level",
    );
  });

  it("accepts routes that say who may call them", async () => {
    const app = await build((v1) => {
      v1.get("/open", { config: { access: "public" } }, async () => ({ ok: true }));
      v1.get("/closed", { config: { access: "viewer" } }, async () => ({ ok: true }));
    });
    expect((await app.inject({ url: "/v1/open" })).statusCode).toBe(200);
    expect((await app.inject({ url: "/v1/closed" })).statusCode).toBe(401);
    await app.close();
  });
});
