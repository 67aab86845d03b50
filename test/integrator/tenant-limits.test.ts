// What one tenant may hold, and how its integrator's failures are seen (docs/api.md, "Limits per project";
// docs/operations.md, "Metrics"): past the caps of monitored addresses and open investigations, 409 naming the cap;
// past its cap of notifications waiting, redeliveries answer 429 and its transfers wait to be checked; past its
// redeliveries of the minute, 429, even for ten asked at once; another project is never affected. Every failed
// profile read and delivery attempt is logged at warn with the project, the message id and the reason, never the
// secret or the body, and counted by reason in /metrics; a project whose integrator has failed for an hour shows in
// `vigia_integrators_failing` and in its own settings. Real servers on 127.0.0.1. In-memory PGlite, or PostgreSQL
// with DATABASE_URL.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueue, NotificationDeliverer, outboxFull, ProfileReader } from "../../src/integrator/index.ts";
import { TransferChecker } from "../../src/monitoring/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { MonitoredChain } from "../support/monitored-chain.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
let failing: http.Server;
let failingUrl: string;
const CHAIN = 31337;
const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
/** What the failing integrator was sent, to be sure no log line repeats it. */
const BODY_MARKER = "body-marker-3f9c";

beforeAll(async () => {
  failing = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
  svc = await startTestService({
    env: {
      VIGIA_ALLOW_PRIVATE_OUTBOUND: "true",
      VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT: "2",
      VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT: "1",
      VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT: "3",
      VIGIA_REDELIVERIES_PER_MINUTE: "2",
    },
  });
}, 60_000);
afterAll(async () => {
  await svc?.stop();
  failing.closeAllConnections();
  await new Promise((resolve) => failing.close(resolve));
});

const call = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, key: string, payload?: object) =>
  svc.app!.inject({ method, url: `/v1${url}`, headers: auth(key), ...(payload ? { payload } : {}) });

describe("caps per project", () => {
  it("monitored addresses: 409 naming the cap; stopping one makes room; another project is not affected", async () => {
    const { id, keys } = svc.project;
    const register = (project: number, key: string, n: number) =>
      call("POST", `/projects/${project}/addresses`, key, {
        address: addr(n),
        chainId: CHAIN,
        foreign_user_id: `user${n}`,
      });
    expect((await register(id, keys.developer, 1)).statusCode).toBe(201);
    const second = await register(id, keys.developer, 2);
    expect(second.statusCode).toBe(201);
    const refused = await register(id, keys.developer, 3);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, error: "conflict" });
    expect(refused.json().message).toContain("VIGIA_MAX_MONITORED_ADDRESSES_PER_PROJECT = 2");
    expect((await register(svc.other.id, svc.other.keys.admin, 3)).statusCode).toBe(201);
    expect(
      (await call("DELETE", `/projects/${id}/addresses/${second.json().data.id}`, keys.developer)).statusCode,
    ).toBe(200);
    expect((await register(id, keys.developer, 3)).statusCode).toBe(201);
  });

  it("open investigations: 409 naming the cap; a closed one is kept and makes room", async () => {
    const { id, keys } = svc.project;
    const create = (wallet: number) =>
      call("POST", `/projects/${id}/investigations`, keys.developer, {
        name: `Case ${wallet}`,
        wallet: addr(0x100 + wallet),
        incremental: true,
      });
    const first = await create(1);
    expect(first.statusCode).toBe(201);
    expect(first.json().data.closed_at).toBeNull();
    const refused = await create(2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain("VIGIA_MAX_OPEN_INVESTIGATIONS_PER_PROJECT = 1");
    const investigation = first.json().data.id as string;
    const viewerClose = await call(
      "POST",
      `/projects/${id}/investigations/${investigation}/close`,
      keys.viewer,
    );
    expect(viewerClose.statusCode).toBe(403);
    const closed = await call(
      "POST",
      `/projects/${id}/investigations/${investigation}/close`,
      keys.developer,
    );
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.closed_at).toEqual(expect.any(String));
    // Closing again keeps the first time; the record is still there.
    const again = await call("POST", `/projects/${id}/investigations/${investigation}/close`, keys.developer);
    expect(again.json().data.closed_at).toBe(closed.json().data.closed_at);
    expect(
      (await call("GET", `/projects/${id}/investigations/${investigation}`, keys.viewer)).statusCode,
    ).toBe(200);
    expect((await create(2)).statusCode).toBe(201);
    const unknown = await call(
      "POST",
      `/projects/${id}/investigations/00000000-0000-4000-8000-000000000000/close`,
      keys.developer,
    );
    expect(unknown.statusCode).toBe(404);
  });

  it("notifications waiting: past the cap, redelivery answers 429 and the project's transfers wait", async () => {
    const db = svc.database.db;
    const { id, keys } = svc.project;
    const message = (n: number) => ({ projectId: id, type: "notification" as const, body: { n } });
    const delivered = (await enqueue(db, message(0), new Date())) as number;
    await db
      .updateTable("notifications")
      .set({ status: "delivered" })
      .where("id", "=", String(delivered))
      .execute();
    for (let n = 1; n <= 3; n++) await enqueue(db, message(n), new Date());
    const refused = await call(
      "POST",
      `/projects/${id}/notifications/${delivered}/redeliver`,
      keys.developer,
    );
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toContain("VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT = 3");

    // The project's transfers wait while its outbox is full; another project's are checked.
    const chain = new MonitoredChain(db, CHAIN);
    await db
      .insertInto("prices")
      .values({ chain_id: CHAIN, token: "native", day: "2026-03-10", price_usd: "3000" })
      .execute();
    await db.deleteFrom("monitored_addresses").execute();
    await chain.block(new Date("2026-03-10T09:00:00Z"), []);
    for (const project of [id, svc.other.id])
      await db
        .insertInto("monitored_addresses")
        .values({
          project_id: project,
          chain_id: CHAIN,
          address: addr(0x500 + project),
          foreign_user_id: "u",
          watch_from_block: "1",
        })
        .execute();
    await chain.block(new Date("2026-03-10T10:00:00Z"), [
      { from: addr(0x901), to: addr(0x500 + id), value: 10n ** 15n },
      { from: addr(0x902), to: addr(0x500 + svc.other.id), value: 10n ** 15n },
    ]);
    const lines: string[] = [];
    const log = pino(
      { level: "warn" },
      new Writable({ write: (chunk, _e, done) => done(void lines.push(String(chunk))) }),
    );
    const checker = new TransferChecker({
      db,
      registry: svc.registry,
      profiles: new ProfileReader(svc.integrator),
      held: outboxFull({ ...svc.integrator, log }, 3),
    });
    expect(await checker.runOnce()).toBe(1);
    const statuses = await db.selectFrom("monitored_transfers").select(["project_id", "status"]).execute();
    expect(statuses.find((s) => s.project_id === id)?.status).toBe("pending");
    expect(statuses.find((s) => s.project_id === svc.other.id)?.status).toBe("evaluated");
    expect(lines.join("")).toContain("VIGIA_MAX_PENDING_NOTIFICATIONS_PER_PROJECT");
    await db
      .deleteFrom("notifications")
      .where("project_id", "=", id)
      .where("status", "=", "pending")
      .execute();
  });

  it("redeliveries: past the limit of the minute, 429 naming it", async () => {
    const db = svc.database.db;
    const { id, keys } = svc.project;
    const ids: number[] = [];
    for (let n = 0; n < 3; n++) {
      const found = (await enqueue(db, { projectId: id, type: "error", body: { n } }, new Date())) as number;
      await db
        .updateTable("notifications")
        .set({ status: "failed" })
        .where("id", "=", String(found))
        .execute();
      ids.push(found);
    }
    const answers = [];
    for (const n of ids)
      answers.push(await call("POST", `/projects/${id}/notifications/${n}/redeliver`, keys.developer));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 429]);
    expect(answers[2]?.json().message).toContain("VIGIA_REDELIVERIES_PER_MINUTE = 2");
    expect(answers[2]?.headers["retry-after"]).toBe("60");
    await db.deleteFrom("notifications").execute();
  });

  it("redeliveries asked at once: at most the limit of the minute pass, the others 429", async () => {
    const db = svc.database.db;
    const { id, keys } = svc.other;
    const ids: number[] = [];
    for (let n = 0; n < 10; n++) {
      const found = (await enqueue(db, { projectId: id, type: "error", body: { n } }, new Date())) as number;
      await db
        .updateTable("notifications")
        .set({ status: "failed" })
        .where("id", "=", String(found))
        .execute();
      ids.push(found);
    }
    const answers = await Promise.all(
      ids.map((n) => call("POST", `/projects/${id}/notifications/${n}/redeliver`, keys.admin)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 202)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    const redelivered = await db
      .selectFrom("notifications")
      .select("id")
      .where("project_id", "=", id)
      .where("redelivered_at", "is not", null)
      .execute();
    expect(redelivered).toHaveLength(2);
    await db.deleteFrom("notifications").execute();
  });
});

describe("failures seen", () => {
  it("logs each failed profile read and delivery at warn without secrets or bodies, counts it, and raises the hour alert", async () => {
    const db = svc.database.db;
    const { id, keys } = svc.project;
    const patched = await call("PATCH", `/projects/${id}`, keys.admin, { integration_url: failingUrl });
    const secret = patched.json().data.webhook_secret as string;
    const lines: string[] = [];
    const log = pino(
      { level: "warn" },
      new Writable({ write: (chunk, _e, done) => done(void lines.push(String(chunk))) }),
    );
    const integrator = { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }), log };

    const profile = await new ProfileReader(integrator).read(id, "alice");
    expect(profile).toEqual({ ok: false, reason: "the user profile request answered 500" });
    const messageId = await enqueue(
      db,
      { projectId: id, type: "notification", body: { type: "notification", data: { marker: BODY_MARKER } } },
      new Date(),
    );
    expect(await new NotificationDeliverer(integrator).runOnce()).toBe(1);

    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const profileLine = logged.find((l) => l.call === "profile");
    expect(profileLine).toMatchObject({ level: 40, projectId: id, userId: "alice", reason: "status_5xx" });
    const webhookLine = logged.find((l) => l.call === "webhook");
    const row = await db
      .selectFrom("notifications")
      .select("message_id")
      .where("id", "=", String(messageId))
      .executeTakeFirstOrThrow();
    expect(webhookLine).toMatchObject({
      level: 40,
      projectId: id,
      messageId: row.message_id,
      reason: "status_5xx",
    });
    expect(webhookLine?.msg).toContain("answered 500");
    for (const l of lines) {
      expect(l).not.toContain(secret);
      expect(l).not.toContain(BODY_MARKER);
    }

    // Failing since the first failure, as the project's admin sees it; an hour later it is an alert.
    const settings = (await call("GET", `/projects/${id}`, keys.admin)).json().data;
    expect(settings.integration_status).toMatchObject({
      failing_since: expect.any(String),
      last_failure: "webhook: answered 500",
    });
    await db
      .updateTable("integrations")
      .set({ failing_since: new Date(Date.now() - 2 * 3_600_000) })
      .where("project_id", "=", id)
      .execute();

    // Counted by reason (the service's own counters), without naming the project.
    const scrape = await svc.app!.inject({ method: "GET", url: "/metrics", headers: auth(keys.admin) });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toMatch(
      /vigia_integrator_failures_total\{call="profile",reason="status_5xx"\} [1-9]/,
    );
    expect(scrape.body).toMatch(
      /vigia_integrator_failures_total\{call="webhook",reason="status_5xx"\} [1-9]/,
    );
    expect(scrape.body).not.toMatch(/vigia_integrator_failures_total\{[^}]*project/);
    expect(scrape.body).toMatch(/^vigia_integrators_failing 1$/m);
  });
});
