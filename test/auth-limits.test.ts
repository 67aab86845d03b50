// Failed authentication is limited per client address, before any key is looked up: 1,000 requests with random
// well-formed keys from one address get 401 up to the limit and 429 (with Retry-After) after it, while a valid key
// from another address keeps working; unknown keys are cached apart from real ones; and the per-key rate limit
// counts a key by its id, however its header is spelled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/keys/key-format.ts";
import { auth, startTestService, type TestService } from "./support/service.ts";

const FAILURES = 50;
const RATE = 20;
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    env: { VIGIA_AUTH_FAILURES_PER_MINUTE: String(FAILURES), VIGIA_RATE_LIMIT_PER_MINUTE: String(RATE) },
  });
});
afterAll(async () => {
  await svc?.stop();
});

const from = (remoteAddress: string, key: string, spacing = " ") =>
  svc.app!.inject({ url: "/v1/chains", remoteAddress, headers: { "x-api-key": `ApiKey${spacing}${key}` } });

describe("failed authentication", () => {
  it("limits one address after the documented count; another address's valid key keeps working", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      statuses.push((await from("10.0.0.1", generateApiKey())).statusCode);
      if (i % 100 === 0) expect((await from("10.0.0.2", svc.project.keys.viewer)).statusCode).toBe(200);
    }
    expect(statuses.slice(0, FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(FAILURES).every((s) => s === 429)).toBe(true);
    const limited = await from("10.0.0.1", generateApiKey());
    expect(limited.json()).toMatchObject({ success: false, error: "rate_limited" });
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    // Only the guesses before the limit were looked up, and cached apart from the real keys.
    expect(svc.authenticator.cached.unknown).toBe(FAILURES);
    expect(svc.authenticator.cached.known).toBeGreaterThanOrEqual(1);
  });

  it("counts 403s too: a valid key of another project, again and again", async () => {
    for (let i = 0; i < FAILURES; i++) {
      const res = await svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/keys`,
        remoteAddress: "10.0.0.3",
        headers: auth(svc.other.keys.admin),
      });
      expect(res.statusCode).toBe(403);
    }
    const res = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/keys`,
      remoteAddress: "10.0.0.3",
      headers: auth(svc.other.keys.admin),
    });
    expect(res.statusCode).toBe(429);
  });
});

describe("the per-key rate limit", () => {
  it("counts a key by its id: extra spaces in the header do not open a fresh bucket", async () => {
    const key = svc.project.keys.developer;
    for (let i = 0; i < RATE; i++)
      expect((await from("10.0.0.4", key, i % 2 ? " " : "   ")).statusCode).toBe(200);
    expect((await from("10.0.0.5", key, "     ")).statusCode).toBe(429);
  });
});
