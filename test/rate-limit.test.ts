// Per-key rate limiting: past the limit a key gets 429 `rate_limited` with Retry-After, in the error envelope;
// another key and the health probes are not affected.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedRateCounter } from "../src/platform/http/shared-rate-store.ts";
import { startService } from "../src/service.ts";
import { onPostgres } from "./support/database.ts";
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

describe.skipIf(!onPostgres)("rate limiting across a fleet (PostgreSQL)", () => {
  it("counts a key once across two API processes: together they allow its limit, not twice it", async () => {
    const second = await startService(svc.config, {
      http: true,
      workers: false,
      ...(svc.schema ? { schema: svc.schema } : {}),
    });
    try {
      const key = svc.project.keys.developer;
      // The first test spent one request of this key's budget.
      const sendTo = (app: typeof svc.app) =>
        app!.inject({ method: "GET", url: "/v1/chains", headers: auth(key) });
      const statuses: number[] = [];
      for (let i = 0; i < 2 * LIMIT; i++)
        statuses.push((await sendTo(i % 2 === 0 ? svc.app : second.app)).statusCode);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(LIMIT);
      expect(statuses.filter((s) => s !== 429).length).toBeLessThanOrEqual(LIMIT);
    } finally {
      await second.close();
    }
  });

  it("gives each of many increments in one turn its own place in the count", async () => {
    const pool = svc.database.pool as pg.Pool;
    const counter = new SharedRateCounter(pool);
    const places = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) =>
          new Promise<number>((resolve, reject) =>
            counter.incr(i % 2 === 0 ? "test:a" : "test:b", 60_000, (error, hit) =>
              error || !hit ? reject(error) : resolve(hit.current),
            ),
          ),
      ),
    );
    const even = places.filter((_, i) => i % 2 === 0);
    const odd = places.filter((_, i) => i % 2 === 1);
    expect(even).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(odd).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
