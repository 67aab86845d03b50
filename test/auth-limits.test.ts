// Failed authentication is limited per client address, before any key is looked up: 1,000 requests with random
// well-formed keys from one address get 401 up to the limit and 429 (with Retry-After) after it, while a valid key
// from another address keeps working, and 600 from one address while a valid key from that same address keeps
// working; after a restart (no key known yet), valid keys of clients behind a limited address are admitted after one
// lookup each (a few per window, none spent on a key that can't be real: lookups stay bounded by the limit plus those
// probes, however many distinct keys a flood sends); a valid key's 403s never count; behind a trusted proxy (VIGIA_TRUST_PROXY) two clients are limited apart,
// and without one they share the limit; unknown keys are cached apart from real ones; and the per-key rate limit
// counts a key by its id, however its header is spelled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "../src/keys/key-format.ts";
import { PROBES_PER_WINDOW } from "../src/platform/http/failure-limiter.ts";
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
    // Only the guesses before the limit, and the limited window's few probes, were looked up, and cached apart
    // from the real keys.
    expect(svc.authenticator.cached.unknown).toBe(FAILURES + PROBES_PER_WINDOW);
    expect(svc.authenticator.cached.known).toBeGreaterThanOrEqual(1);
  });

  it("spares a key known valid: 600 guesses from one address get 429 while its valid key keeps working", async () => {
    const address = "10.0.0.6";
    const valid = svc.other.keys.admin;
    expect((await from(address, valid)).statusCode).toBe(200);
    const lookupsBefore = svc.authenticator.cached.unknown;
    const statuses: number[] = [];
    for (let i = 0; i < 600; i++) {
      statuses.push((await from(address, generateApiKey())).statusCode);
      if (i % 50 === 0) expect((await from(address, valid)).statusCode).toBe(200);
    }
    expect(statuses.slice(0, FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(FAILURES).every((s) => s === 429)).toBe(true);
    expect((await from(address, valid)).statusCode).toBe(200);
    // The limit still bounds lookups: only the guesses before it and the window's probes were looked up.
    expect(svc.authenticator.cached.unknown - lookupsBefore).toBeLessThanOrEqual(
      FAILURES + PROBES_PER_WINDOW,
    );
    // The flood's distinct guesses took every probe of this window: a key the process has never seen valid waits.
    expect((await from(address, svc.project.keys.admin)).statusCode).toBe(429);
  });

  it("never counts a valid key's 403s: a key of another project, again and again", async () => {
    const request = () =>
      svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/keys`,
        remoteAddress: "10.0.0.3",
        headers: auth(svc.other.keys.admin),
      });
    for (let i = 0; i < FAILURES * 3; i++) expect((await request()).statusCode).toBe(403);
    // Nor a role below the route's (a viewer asking for keys), from the same address.
    for (let i = 0; i < FAILURES * 2; i++) {
      const res = await svc.app!.inject({
        url: `/v1/projects/${svc.project.id}/keys`,
        remoteAddress: "10.0.0.3",
        headers: auth(svc.project.keys.viewer),
      });
      expect(res.statusCode).toBe(403);
    }
    expect((await from("10.0.0.3", generateApiKey())).statusCode).toBe(401);
  });

  it("without a trusted proxy, X-Forwarded-For is ignored: clients behind one address share its limit", async () => {
    const via = (client: string) =>
      svc.app!.inject({
        url: "/v1/chains",
        remoteAddress: "10.0.0.7",
        headers: { "x-api-key": `ApiKey ${generateApiKey()}`, "x-forwarded-for": client },
      });
    for (let i = 0; i < FAILURES; i++) expect((await via("203.0.113.1")).statusCode).toBe(401);
    expect((await via("203.0.113.2")).statusCode).toBe(429);
  });
});

describe("after a restart, behind an address a flood of bad keys has limited", () => {
  let restarted: TestService;
  beforeAll(async () => {
    restarted = await startTestService({ env: { VIGIA_AUTH_FAILURES_PER_MINUTE: String(FAILURES) } });
  });
  afterAll(async () => {
    await restarted?.stop();
  });
  const via = (key: string) =>
    restarted.app!.inject({ url: "/v1/chains", remoteAddress: "10.0.1.1", headers: auth(key) });

  it("admits each valid key seen for the first time after one lookup, and keeps counting the bad ones", async () => {
    const { keys } = restarted.project;
    for (const key of Object.values(keys)) expect(restarted.authenticator.knows(key)).toBe(false);
    // A client with stale keys, retrying: 401 up to the limit, 429 after it.
    const stale = [generateApiKey(), generateApiKey(), generateApiKey()];
    const statuses: number[] = [];
    for (let i = 0; i < 500; i++) statuses.push((await via(stale[i % stale.length] as string)).statusCode);
    expect(statuses.slice(0, FAILURES).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(FAILURES).every((s) => s === 429)).toBe(true);
    // The other clients behind the same address, with keys this process has never seen: admitted at once.
    for (const key of [keys.viewer, keys.developer, keys.officer, restarted.other.keys.admin])
      expect((await via(key)).statusCode, key.slice(0, 12)).toBe(200);
    // Known from then on: admitted again without a probe; the stale keys still wait.
    expect((await via(keys.viewer)).statusCode).toBe(200);
    expect((await via(stale[0] as string)).statusCode).toBe(429);
    // Only the stale keys are remembered as unknown: the valid ones are known.
    expect(restarted.authenticator.cached.unknown).toBe(stale.length);
  });

  it("spends no probe on a key that can't be real: after a flood of malformed keys a new valid key is admitted", async () => {
    const address = "10.0.1.3";
    const junk = (i: number) =>
      restarted.app!.inject({
        url: "/v1/chains",
        remoteAddress: address,
        headers: auth(`vigia_not-a-key-${i}`),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await junk(i)).statusCode);
    expect(statuses.slice(FAILURES).every((s) => s === 429)).toBe(true);
    expect(restarted.authenticator.knows(restarted.project.keys.admin)).toBe(false);
    const admitted = await restarted.app!.inject({
      url: "/v1/chains",
      remoteAddress: address,
      headers: auth(restarted.project.keys.admin),
    });
    expect(admitted.statusCode).toBe(200);
  });

  it("bounds the lookups a flood of distinct bad keys causes: the limit plus the window's probes", async () => {
    const before = restarted.authenticator.cached.unknown;
    const address = "10.0.1.2";
    for (let i = 0; i < 400; i++)
      await restarted.app!.inject({
        url: "/v1/chains",
        remoteAddress: address,
        headers: auth(generateApiKey()),
      });
    expect(restarted.authenticator.cached.unknown - before).toBe(FAILURES + PROBES_PER_WINDOW);
  });
});

describe("behind a trusted proxy (VIGIA_TRUST_PROXY)", () => {
  let behind: TestService;
  beforeAll(async () => {
    behind = await startTestService({
      env: {
        VIGIA_AUTH_FAILURES_PER_MINUTE: String(FAILURES),
        VIGIA_RATE_LIMIT_PER_MINUTE: String(RATE),
        VIGIA_TRUST_PROXY: "10.0.0.0/8",
      },
    });
  });
  afterAll(async () => {
    await behind?.stop();
  });

  it("limits two clients of the same balancer apart, by their X-Forwarded-For", async () => {
    const via = (client: string, key = generateApiKey()) =>
      behind.app!.inject({
        url: "/v1/chains",
        remoteAddress: "10.0.0.8",
        headers: { "x-api-key": `ApiKey ${key}`, "x-forwarded-for": client },
      });
    for (let i = 0; i < FAILURES; i++) expect((await via("203.0.113.1")).statusCode).toBe(401);
    expect((await via("203.0.113.1")).statusCode).toBe(429);
    // The other client behind the same balancer is not limited, with a guess nor with its key.
    expect((await via("203.0.113.2")).statusCode).toBe(401);
    expect((await via("203.0.113.2", behind.project.keys.viewer)).statusCode).toBe(200);
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
