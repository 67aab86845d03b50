// Per-key rate limiting: past the limit a key gets 429 `rate_limited` with Retry-After, in the error envelope;
// another key and the health probes are not affected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "./support/service.ts";

const LIMIT = 5;
const HEAVY = 2;
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_RATE_LIMIT_PER_MINUTE: String(LIMIT), VIGIA_HEAVY_RATE_LIMIT_PER_MINUTE: String(HEAVY) },
  });
});
afterAll(async () => {
  await svc?.stop();
});

const get = (url: string, key?: string) =>
  svc.app!.inject({ method: "GET", url, headers: key ? auth(key) : {} });

describe("rate limiting", () => {
  it("answers 429 with Retry-After once a key passes its limit, and only for that key", async () => {
    for (let i = 0; i < LIMIT; i++)
      expect((await get("/v1/chains", svc.project.keys.viewer)).statusCode).toBe(200);
    const limited = await get("/v1/chains", svc.project.keys.viewer);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: "rate_limited" });
    expect(limited.json().message).toMatch(/5 requests per minute/);
    const retryAfter = Number(limited.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await get("/v1/chains", svc.project.keys.developer)).statusCode).toBe(200);
    for (let i = 0; i < LIMIT + 2; i++) expect((await get("/healthz")).statusCode).toBe(200);
  });

  it("limits a heavy route on its own, lower limit, without touching the cheap routes' budget", async () => {
    const key = svc.project.keys.admin;
    const report = () => get(`/v1/wallets/0x${"ab".repeat(20)}/report`, key);
    for (let i = 0; i < HEAVY; i++) expect((await report()).statusCode).toBe(200);
    const limited = await report();
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/2 requests per minute/);
    expect((await get("/v1/chains", key)).statusCode).toBe(200);
  });
});
