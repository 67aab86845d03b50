// Delivering the notification outbox to a real receiver on 127.0.0.1, with an injected clock: signed messages
// delivered once on a 2xx; a receiver that answers 500, times out or is down is retried on the schedule and then
// delivered, every attempt recorded with the same webhook-id; after 10 failed attempts the message is failed and
// kept, and redelivery sends it again; a project without an integration_url keeps its messages until it has one;
// a rotated secret signs beside the new one for its grace period; two deliverers sharing the outbox send each
// message once per attempt. PGlite in memory, or PostgreSQL with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type DelivererOptions,
  enqueue,
  MAX_ATTEMPTS,
  NotificationDeliverer,
  RETRY_SCHEDULE_MS,
  rotateWebhookSecret,
} from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

interface Received {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
let receiver: http.Server;
let receiverUrl: string;
let received: Received[] = [];
/** how the receiver answers: a status, or "hang" (never answers) */
let answer: number | "hang" = 200;

let svc: TestService;
let clock = Date.UTC(2026, 10, 24, 12, 0, 0);
const outbound = new OutboundClient({ allowPrivate: true, timeoutMs: 500 });
const deliverer = (extra: Partial<DelivererOptions> & { now?: () => number } = {}) => {
  const { now = () => clock, ...options } = extra;
  return new NotificationDeliverer(
    { ...svc.integrator, outbound, now },
    { random: () => 0, webhookTimeoutMs: 500, ...options },
  );
};

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ id: req.headers["webhook-id"] as string, headers: req.headers, body });
      if (answer === "hang") return;
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
  await setUrl(receiverUrl);
});
afterAll(async () => {
  await svc?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(async () => {
  received = [];
  answer = 200;
  // Start each test with an empty outbox (failed and pending messages of earlier tests would be claimed).
  await svc.database.db.deleteFrom("notifications").execute();
  // ... and an integrator whose deliveries are not paused by an earlier test's timeouts.
  await svc.database.db
    .updateTable("integrations")
    .set({ delivery_paused_until: null, delivery_backoffs: 0, failing_since: null })
    .execute();
});

async function setUrl(url: string | null) {
  const res = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: { integration_url: url },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data as { webhook_secret: string };
}
const secret = async () => (await setUrl(receiverUrl)).webhook_secret;
const message = (n: number) => ({
  projectId: svc.project.id,
  type: "notification" as const,
  body: { type: "notification", data: { n, inflictedLaws: [] } },
});
const log = async (status?: string) =>
  (
    await svc.app!.inject({
      method: "GET",
      url: `/v1/projects/${svc.project.id}/notifications?limit=100${status ? `&status=${status}` : ""}`,
      headers: auth(svc.project.keys.viewer),
    })
  ).json().data;

describe("notification delivery", () => {
  it("delivers a signed message once on a 2xx, with data.id, and records the attempt", async () => {
    const id = (await enqueue(svc.database.db, message(1), new Date(clock))) as number;
    expect(await deliverer().runOnce()).toBe(1);
    expect(await deliverer().runOnce()).toBe(0);
    expect(received).toHaveLength(1);
    const body = JSON.parse(received[0]!.body);
    expect(body).toEqual({ type: "notification", data: { n: 1, inflictedLaws: [], id } });
    const [entry] = await log();
    expect(entry).toMatchObject({ id, status: "delivered", attempts: 1, message_id: received[0]!.id });
    expect(entry.attempt_log).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, error: null }),
    ]);
  });

  it("verifies with the public Standard Webhooks library", async () => {
    const key = await secret();
    // The library checks the timestamp against the real clock: this delivery runs at the real time.
    const now = Date.now();
    await enqueue(svc.database.db, message(2), new Date(now));
    await deliverer({ now: () => now }).runOnce();
    const r = received[0]!;
    expect(new Webhook(key).verify(r.body, r.headers as Record<string, string>)).toMatchObject({
      type: "notification",
    });
  });

  it("retries a 500, a timeout and a refused connection on the schedule, then delivers, same webhook-id", async () => {
    await enqueue(svc.database.db, message(3), new Date(clock));
    answer = 500;
    await deliverer().runOnce();
    // Not due before its wait (5 s after the first attempt)…
    clock += RETRY_SCHEDULE_MS[0]! - 1;
    expect(await deliverer().runOnce()).toBe(0);
    clock += 1;
    answer = "hang";
    expect(await deliverer().runOnce()).toBe(1);
    clock += RETRY_SCHEDULE_MS[1]!;
    await setUrl("http://127.0.0.1:9/hooks"); // nothing listens: connection refused
    expect(await deliverer().runOnce()).toBe(1);
    await setUrl(receiverUrl);
    clock += RETRY_SCHEDULE_MS[2]!;
    answer = 200;
    expect(await deliverer().runOnce()).toBe(1);
    const [entry] = await log();
    expect(entry.status).toBe("delivered");
    expect(
      entry.attempt_log.map((a: { status_code: number | null; error: string }) => [a.status_code, a.error]),
    ).toEqual([
      [500, "answered 500"],
      [null, "no complete answer within 500 ms"],
      [null, "the connection was refused"],
      [200, null],
    ]);
    expect(new Set(received.map((r) => r.id)).size).toBe(1);
  });

  it("fails after 10 attempts, keeps the message, and redelivers it with a fresh schedule", async () => {
    const id = (await enqueue(svc.database.db, message(4), new Date(clock))) as number;
    answer = 500;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      expect(await deliverer().runOnce(), `attempt ${attempt}`).toBe(1);
      clock += RETRY_SCHEDULE_MS[attempt - 1] ?? 0;
    }
    expect(await deliverer().runOnce()).toBe(0);
    const [failed] = await log("failed");
    expect(failed).toMatchObject({
      id,
      status: "failed",
      attempts: MAX_ATTEMPTS,
      last_error: "answered 500",
    });
    answer = 200;
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/notifications/${id}/redeliver`,
      headers: auth(svc.project.keys.developer),
    });
    expect(res.statusCode).toBe(202);
    await new Promise((r) => setTimeout(r, 5)); // redelivery is due from the real clock's now
    clock = Date.now() + 1000;
    expect(await deliverer().runOnce()).toBe(1);
    const [delivered] = await log();
    expect(delivered).toMatchObject({ status: "delivered", attempts: MAX_ATTEMPTS + 1 });
    const unknown = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/notifications/999999/redeliver`,
      headers: auth(svc.project.keys.developer),
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("keeps the messages of a project without an integration_url until it has one", async () => {
    await setUrl(null);
    await enqueue(svc.database.db, message(5), new Date(clock));
    expect(await deliverer().runOnce()).toBe(0);
    expect((await log())[0]).toMatchObject({ status: "pending", attempts: 0 });
    await setUrl(receiverUrl);
    expect(await deliverer().runOnce()).toBe(1);
    expect(received).toHaveLength(1);
  });

  it("signs with the new and the rotated-out secret during the grace period; both verify", async () => {
    const old = await secret();
    const fresh = await rotateWebhookSecret(svc.database.db, svc.keys.serverKeys, svc.project.id, {
      kind: "cli",
    });
    const now = Date.now();
    await enqueue(svc.database.db, message(6), new Date(now));
    await deliverer({ now: () => now }).runOnce();
    const r = received[0]!;
    expect((r.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    for (const key of [old, fresh])
      expect(() => new Webhook(key).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
  });

  it("two deliverers sharing the outbox send each of 200 messages once", async () => {
    for (let n = 0; n < 200; n++) await enqueue(svc.database.db, message(1000 + n), new Date(clock));
    const a = deliverer({ slots: 7, perProject: 7 });
    const b = deliverer({ slots: 11, perProject: 11 });
    for (;;) {
      const [x, y] = await Promise.all([a.runOnce(), b.runOnce()]);
      if (x + y === 0) break;
    }
    expect(received).toHaveLength(200);
    expect(new Set(received.map((r) => r.id)).size).toBe(200);
    expect(await log("pending")).toEqual([]);
  });
});
