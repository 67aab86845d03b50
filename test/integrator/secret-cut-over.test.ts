// Moving an integrator from the original service without failing a call (docs/api.md, "Projects and keys" and
// "Calls to the integrator"; decision 0027), against a receiver on 127.0.0.1 that knows one `hmac-canonical`
// secret at a time and verifies as the original's template does (401 for a signature it can't verify):
//   - PATCH /projects/{id} takes the secret the integrator already verifies with: checked for shape, length,
//     entropy, common passwords' digests and keyboard walks (a clear 400 naming the field and how to make a good
//     one otherwise), sealed at rest, never in the audit, signing at once;
//   - a rotation of the canonical scheme signs with the old secret while the receiver knows only it, and once the
//     receiver knows only the new one, the first call it refuses is sent again at once with the new secret, which
//     ends the rotation: no delivery and no profile read fails at any point, whether a webhook or a profile read is
//     the first call after the switch;
//   - a rotation made while another waits keeps the secret the receiver still uses; the deadline
//     (`keep_previous_hours`, 24 by default; 0: none) ends a rotation the integrator never confirmed.
// PGlite in memory, or PostgreSQL with DATABASE_URL.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { enqueue, NotificationDeliverer, ProfileReader } from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const PROFILE = { givenName: "Ana", paternalSurname: "Ruiz", nationality: "MX" };

/** The receiver: the one secret it knows now, and every call it answered. */
let knows = "";
let calls: { method: string; path: string; status: number }[] = [];
/** How far ahead of the real clock the service and the receiver are (a rotation's deadline passing). */
let shift = 0;
const now = () => Date.now() + shift;

function verifies(method: string, path: string, headers: http.IncomingHttpHeaders, raw: string): boolean {
  const signature = headers["x-wavynode-hmac"];
  const timestamp = headers["x-wavynode-timestamp"];
  if (typeof signature !== "string" || typeof timestamp !== "string") return false;
  if (Math.abs(now() - Number(timestamp)) > 300_000) return false;
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? [...v]
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  const json = method === "GET" ? "{}" : JSON.stringify(sort(JSON.parse(raw)));
  const expected = crypto
    .createHmac("sha256", knows)
    .update(`${method}::${path.toLowerCase()}::${json}::${timestamp}`)
    .digest("base64");
  return signature === expected;
}

let receiver: http.Server;
let receiverUrl: string;
let svc: TestService;
const outbound = new OutboundClient({ allowPrivate: true, timeoutMs: 2_000 });
const context = () => ({ ...svc.integrator, outbound, now });

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const method = req.method ?? "GET";
      const path = (req.url ?? "/").split("?")[0] as string;
      const status = verifies(method, path, req.headers, raw) ? 200 : 401;
      calls.push({ method, path, status });
      if (status !== 200) return res.writeHead(status).end("Invalid signature");
      if (method === "GET")
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(PROFILE));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startTestService({ env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" } });
});
afterAll(async () => {
  await svc?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});
beforeEach(() => {
  calls = [];
  shift = 0;
});

const admin = () => auth(svc.project.keys.admin);
const patch = (payload: object) =>
  svc.app!.inject({ method: "PATCH", url: `/v1/projects/${svc.project.id}`, headers: admin(), payload });
const project = async () =>
  (await svc.app!.inject({ url: `/v1/projects/${svc.project.id}`, headers: admin() })).json().data;
const rotate = async (body?: object) => {
  const res = await svc.app!.inject({
    method: "POST",
    url: `/v1/projects/${svc.project.id}/webhook-secret`,
    headers: admin(),
    ...(body ? { payload: body } : {}),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data.webhook_secret as string;
};
const audit = async () =>
  (await svc.app!.inject({ url: `/v1/projects/${svc.project.id}/audit?limit=100`, headers: admin() })).json()
    .data as { action: string; actor: string; details: Record<string, unknown> }[];

let n = 0;
/** One notification, delivered now: its state afterwards. */
async function deliverOne() {
  n += 1;
  const id = (await enqueue(
    svc.database.db,
    {
      projectId: svc.project.id,
      type: "notification",
      body: { type: "notification", data: { n, inflictedLaws: [] } },
    },
    new Date(now()),
  )) as number;
  await new NotificationDeliverer(context(), { random: () => 0 }).runOnce();
  return svc.database.db
    .selectFrom("notifications")
    .select(["status", "attempts"])
    .where("id", "=", String(id))
    .executeTakeFirstOrThrow();
}
/** A profile read now (nothing kept from an earlier one). */
const readProfile = () => new ProfileReader(context(), { ttlMs: 0 }).read(svc.project.id, "ana");

/** Neither a delivery nor a profile read failed. */
async function neverFails() {
  expect(await deliverOne()).toEqual({ status: "delivered", attempts: 1 });
  expect(await readProfile()).toMatchObject({ ok: true });
}

describe("PATCH /projects/{id} with the integrator's existing secret", () => {
  it("refuses secrets of the wrong shape, too short or too predictable, naming the field and why", async () => {
    const random = crypto.randomBytes(16).toString("hex");
    const cases: [object, RegExp][] = [
      // The project signs with Standard Webhooks: a hex secret is not of its shape.
      [{ webhook_secret: random }, /Standard Webhooks secret is `whsec_`/],
      [{ webhook_secret: "whsec_c2hvcnQ=" }, /24 to 64 bytes; this one is 5/],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "0123456789abcdef" },
        /32 to 256 characters.*this one is 16/,
      ],
      [{ signing_scheme: "hmac-canonical", webhook_secret: "a".repeat(32) }, /repeats a unit of 1 character/],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "passwordpasswordpasswordpassword" },
        /repeats a unit of 8/,
      ],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "0123456789abcdefghijklmnopqrstuv" },
        /equal or consecutive/,
      ],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f00" },
        /too predictable: about 31 bits/,
      ],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: `${random.slice(0, 16)} ${random.slice(16)}` },
        /printable ASCII/,
      ],
      [{ signing_scheme: "hmac-canonical", webhook_secret: random.repeat(2) }, /repeats a unit of 32/],
      // Random-looking to the entropy estimate, but among the first guesses: the MD5 of "password", keyboard walks.
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "5f4dcc3b5aa765d61d8327deb882cf99" },
        /MD5 digest of a common password.*openssl rand -hex 32/,
      ],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "qwertyuiopasdfghjklzxcvbnm123456" },
        /keyboard walk.*openssl rand -hex 32/,
      ],
      [
        { signing_scheme: "hmac-canonical", webhook_secret: "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik," },
        /keyboard walk/,
      ],
      [
        { webhook_secret: `whsec_${crypto.createHash("sha256").update("password").digest("base64")}` },
        /SHA256 digest of a common password.*openssl rand -base64 32/,
      ],
    ];
    const before = await project();
    for (const [payload, message] of cases) {
      const res = await patch(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ success: false, error: "invalid_request", message: "Invalid body" });
      expect(body.details).toEqual([{ path: "/webhook_secret", message: expect.stringMatching(message) }]);
    }
    // Nothing changed: not the scheme, not the secret.
    expect(await project()).toMatchObject({
      signing_scheme: before.signing_scheme,
      webhook_secret: before.webhook_secret,
    });
  });

  it("takes a Standard Webhooks secret of the scheme's shape", async () => {
    const mine = `whsec_${crypto.randomBytes(32).toString("base64")}`;
    expect((await patch({ signing_scheme: "standard-webhooks", webhook_secret: mine })).statusCode).toBe(200);
    expect(await project()).toMatchObject({ signing_scheme: "standard-webhooks", webhook_secret: mine });
  });

  it("takes the original's 32 hex characters with the scheme, seals it, keeps it out of the audit, signs with it at once", async () => {
    knows = crypto.randomBytes(16).toString("hex");
    const res = await patch({
      integration_url: receiverUrl,
      signing_scheme: "hmac-canonical",
      webhook_secret: knows,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      signing_scheme: "hmac-canonical",
      webhook_secret: knows,
      previous_webhook_secret_until: null,
    });
    const row = await svc.database.db
      .selectFrom("integrations")
      .select("webhook_secret_enc")
      .where("project_id", "=", svc.project.id)
      .executeTakeFirstOrThrow();
    expect(row.webhook_secret_enc).not.toContain(knows);
    const trail = await audit();
    expect(JSON.stringify(trail)).not.toContain(knows);
    expect(trail[0]).toMatchObject({ action: "project.updated", details: { webhook_secret: "set" } });
    await neverFails();
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    // The same secret again changes nothing.
    expect((await patch({ webhook_secret: knows })).statusCode).toBe(200);
    expect(await audit()).toHaveLength(trail.length);
  });
});

describe("rotating the secret under hmac-canonical", () => {
  it("fails no call while the receiver knows only the old secret, then only the new (a webhook first)", async () => {
    const old = knows;
    const fresh = await rotate();
    expect(fresh).toMatch(/^[0-9a-f]{32}$/);
    const during = await project();
    expect(during.webhook_secret).toBe(fresh);
    expect(Date.parse(during.previous_webhook_secret_until) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    // The receiver still knows only the old one: signed with it, nothing refused.
    for (let i = 0; i < 3; i++) await neverFails();
    expect(calls.every((c) => c.status === 200)).toBe(true);
    expect(knows).toBe(old);

    // The integrator deploys the new secret: the first webhook signed with the old one is refused and sent again
    // at once with the new, which ends the rotation.
    knows = fresh;
    calls = [];
    expect(await deliverOne()).toEqual({ status: "delivered", attempts: 1 });
    expect(calls.map((c) => [c.method, c.status])).toEqual([
      ["POST", 401],
      ["POST", 200],
    ]);
    // The notification's attempt log shows both calls: the refusal under the old secret, then the delivery.
    const listed = await svc.app!.inject({
      url: `/v1/projects/${svc.project.id}/notifications?limit=1`,
      headers: admin(),
    });
    const [attempt] = listed.json().data[0].attempt_log;
    expect(attempt).toMatchObject({
      attempt: 1,
      status_code: 200,
      error: null,
      refused_old_secret: { status_code: 401, duration_ms: expect.any(Number) },
    });
    expect((await project()).previous_webhook_secret_until).toBeNull();
    expect((await audit())[0]).toMatchObject({
      action: "project.webhook_secret_confirmed",
      actor: "integrator",
    });
    // From then on, the new secret only.
    calls = [];
    for (let i = 0; i < 2; i++) await neverFails();
    expect(calls.every((c) => c.status === 200)).toBe(true);
  });

  it("fails no call when a profile read is the first call after the switch", async () => {
    const fresh = await rotate({ keep_previous_hours: 48 });
    expect(Date.parse((await project()).previous_webhook_secret_until) - Date.now()).toBeGreaterThan(
      47.9 * 3_600_000,
    );
    await neverFails();
    knows = fresh;
    calls = [];
    expect(await readProfile()).toMatchObject({ ok: true, profile: { givenName: "Ana" } });
    expect(calls.map((c) => [c.method, c.status])).toEqual([
      ["GET", 401],
      ["GET", 200],
    ]);
    expect((await project()).previous_webhook_secret_until).toBeNull();
    calls = [];
    await neverFails();
    expect(calls.every((c) => c.status === 200)).toBe(true);
  });

  it("keeps the secret the receiver still uses when rotated again before the switch", async () => {
    const inUse = knows;
    await rotate();
    const last = await rotate();
    for (let i = 0; i < 2; i++) await neverFails();
    expect(calls.every((c) => c.status === 200)).toBe(true);
    expect(knows).toBe(inUse);
    knows = last;
    await neverFails();
    expect((await project()).previous_webhook_secret_until).toBeNull();
  });

  it("ends a rotation at its deadline, or at once with keep_previous_hours 0", async () => {
    const fresh = await rotate({ keep_previous_hours: 1 });
    await neverFails(); // still the old secret
    // Past the deadline, the new secret signs alone: a receiver that took it is never asked with the old one.
    shift = 2 * 3_600_000;
    knows = fresh;
    calls = [];
    await neverFails();
    expect(calls.map((c) => c.status)).toEqual([200, 200]);

    shift = 0;
    knows = await rotate({ keep_previous_hours: 0 });
    expect((await project()).previous_webhook_secret_until).toBeNull();
    calls = [];
    await neverFails();
    expect(calls.map((c) => c.status)).toEqual([200, 200]);
    const refused = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/webhook-secret`,
      headers: admin(),
      payload: { keep_previous_hours: 10_000 },
    });
    expect(refused.statusCode).toBe(400);
  });
});
