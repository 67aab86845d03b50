// POST /projects/{projectId}/integration/test against a real integrator on 127.0.0.1: the profile request and the
// sample notification arrive signed in the project's scheme (Standard Webhooks checked with the public
// `standardwebhooks` package; hmac-canonical with the rule written out here), each call's status and latency come
// back, a failing endpoint is reported rather than thrown, and by default a private integration URL is refused.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
let integrator: http.Server;
let integratorUrl: string;
const received: Received[] = [];
let webhookStatus = 200;

let svc: TestService; // private outbound calls allowed (the integrator is on 127.0.0.1)
let strict: TestService; // the default: private addresses refused

beforeAll(async () => {
  integrator = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      received.push({ method: req.method ?? "", path, headers: req.headers, body });
      if (path.startsWith("/users/")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ givenName: "ANA" }));
      } else res.writeHead(webhookStatus).end();
    });
  });
  await new Promise<void>((resolve) => integrator.listen(0, "127.0.0.1", resolve));
  integratorUrl = `http://127.0.0.1:${(integrator.address() as AddressInfo).port}/vigia`;
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  strict = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "false" } });
});
afterAll(async () => {
  await svc?.stop();
  await strict?.stop();
  integrator.closeAllConnections();
  await new Promise((resolve) => integrator.close(resolve));
});

async function configure(s: TestService, patch: object) {
  const res = await s.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${s.project.id}`,
    headers: auth(s.project.keys.admin),
    payload: patch,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { webhook_secret: string; signing_scheme: string };
}
const runTest = (s: TestService, payload: object, key = s.project.keys.admin) =>
  s.app!.inject({
    method: "POST",
    url: `/v1/projects/${s.project.id}/integration/test`,
    headers: auth(key),
    payload,
  });

describe("integration test", () => {
  it("without an integration_url: 400; not an admin: 403", async () => {
    expect((await runTest(svc, {})).statusCode).toBe(400);
    expect((await runTest(svc, {}, svc.project.keys.developer)).statusCode).toBe(403);
  });

  it("Standard Webhooks: the profile request and the sample notification verify with the public library", async () => {
    const project = await configure(svc, {
      integration_url: integratorUrl,
      signing_scheme: "standard-webhooks",
    });
    received.length = 0;
    const res = await runTest(svc, { foreign_user_id: "user-7" });
    expect(res.statusCode).toBe(200);
    const { profile, webhook } = res.json().data;
    expect(profile).toMatchObject({ method: "GET", status: 200, ok: true, error: null });
    expect(webhook).toMatchObject({ method: "POST", status: 200, ok: true, error: null });
    expect(received.map((r) => [r.method, r.path])).toEqual([
      ["GET", "/vigia/users/user-7"],
      ["POST", "/vigia/webhook"],
    ]);
    const hook = new Webhook(project.webhook_secret);
    const post = received[1]!;
    const payload = hook.verify(post.body, post.headers as Record<string, string>) as {
      type: string;
      data: { test: boolean; address: { userId: string } };
    };
    expect(payload).toMatchObject({
      type: "notification",
      data: { test: true, address: { userId: "user-7" } },
    });
    expect(post.headers["webhook-id"]).toBe(webhook.message_id);
    // The GET is signed over an empty body.
    expect(() => hook.verify("", received[0]!.headers as Record<string, string>)).not.toThrow();
  });

  it("hmac-canonical: both calls carry the canonical signature and a millisecond timestamp", async () => {
    const project = await configure(svc, { signing_scheme: "hmac-canonical" });
    expect(project.webhook_secret).toMatch(/^[0-9a-f]{32}$/);
    received.length = 0;
    expect((await runTest(svc, { foreign_user_id: "user-8" })).json().data.webhook.ok).toBe(true);
    const sorted = (v: unknown): unknown =>
      Array.isArray(v) || v === null || typeof v !== "object"
        ? v
        : Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
          );
    for (const r of received) {
      const timestamp = r.headers["x-wavynode-timestamp"] as string;
      expect(Math.abs(Date.now() - Number(timestamp))).toBeLessThan(300_000);
      const json = r.method === "GET" ? "{}" : JSON.stringify(sorted(JSON.parse(r.body)));
      const expected = crypto
        .createHmac("sha256", project.webhook_secret)
        .update(`${r.method}::${r.path.toLowerCase()}::${json}::${timestamp}`)
        .digest("base64");
      expect(r.headers["x-wavynode-hmac"], r.path).toBe(expected);
    }
  });

  it("reports a failing webhook instead of failing the request", async () => {
    webhookStatus = 500;
    try {
      const { webhook } = (await runTest(svc, {})).json().data;
      expect(webhook).toMatchObject({ status: 500, ok: false, error: "answered 500" });
    } finally {
      webhookStatus = 200;
    }
  });

  it("by default, refuses an integration URL on a private address when it is set, saying why and what allows it", async () => {
    const refused = await strict.app!.inject({
      method: "PATCH",
      url: `/v1/projects/${strict.project.id}`,
      headers: auth(strict.project.keys.admin),
      payload: { integration_url: integratorUrl },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([
      {
        path: "/integration_url",
        message: expect.stringMatching(
          /^127\.0\.0\.1 is a loopback address, and this service does not call private networks: .*VIGIA_ALLOW_PRIVATE_OUTBOUND=true$/,
        ),
      },
    ]);
    // A URL stored before (or one whose name resolves to a private address) is refused at each call, saying why.
    await strict.app!.inject({
      url: `/v1/projects/${strict.project.id}`,
      headers: auth(strict.project.keys.admin),
    });
    await strict.database.db
      .updateTable("integrations")
      .set({ integration_url: integratorUrl })
      .where("project_id", "=", strict.project.id)
      .execute();
    received.length = 0;
    const tested = await runTest(strict, { foreign_user_id: "u" });
    expect(tested.statusCode, tested.body).toBe(200);
    const { profile, webhook } = tested.json().data;
    for (const call of [profile, webhook]) {
      expect(call).toMatchObject({ status: null, ok: false });
      expect(call.error).toMatch(/loopback.*VIGIA_ALLOW_PRIVATE_OUTBOUND/);
    }
    expect(received).toEqual([]);
  });

  it("refuses a metadata or link-local address in any form even where private addresses are allowed", async () => {
    for (const host of [
      "169.254.169.254",
      "[64:ff9b:1::a9fe:a9fe]",
      "[::ffff:0:169.254.169.254]",
      "[fd00:ec2::254]",
    ]) {
      const refused = await svc.app!.inject({
        method: "PATCH",
        url: `/v1/projects/${svc.project.id}`,
        headers: auth(svc.project.keys.admin),
        payload: { integration_url: `http://${host}` },
      });
      expect(refused.statusCode, host).toBe(400);
      expect(refused.json().details[0].message, host).toMatch(/address, which this service never calls/);
      // Stored anyway (before this check existed), each call is refused.
      await svc.database.db
        .updateTable("integrations")
        .set({ integration_url: `http://${host}` })
        .where("project_id", "=", svc.project.id)
        .execute();
      const { profile, webhook } = (await runTest(svc, { foreign_user_id: "u" })).json().data;
      for (const call of [profile, webhook]) {
        expect(call, host).toMatchObject({ status: null, ok: false });
        expect(call.error, host).toMatch(/always refused/);
      }
    }
    await configure(svc, { integration_url: integratorUrl });
  });
});
