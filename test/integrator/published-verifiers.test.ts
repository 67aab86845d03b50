// Real notifications under the `hmac-canonical` scheme, checked by a receiver on 127.0.0.1 with two verifiers
// written here from their published rules (docs/api.md, "Calls to the integrator"; decision 0027):
//   - the original service's (its `@wavynode/utils`): the keys of nested plain objects sorted, arrays and the
//     objects inside them left as they are;
//   - the stricter kind some published verifiers use: the keys of every object sorted, inside arrays too.
// Both compute `METHOD::lowercase-path::JSON::timestamp-ms` and compare its base64 HMAC-SHA256. The notifications
// are those of the report scenario (test/reports/scenario.ts) made by the real checker: Mexican, Colombian,
// Salvadoran and Guatemalan laws, the OFAC rule and the FATF travel rule (a labelled exchange), delivered by the real
// deliverer; the profile reads the checker makes are verified the same way. Every one is
// accepted by both, every law's countryCode is a two-letter code (XB for the international rules), and the body on
// the wire has every object's keys in order. PGlite in memory, or PostgreSQL with DATABASE_URL.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotificationDeliverer } from "../../src/integrator/index.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";
import { addr, buildScenario, PROFILES } from "../reports/scenario.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

/** The original's rule: nested plain objects sorted; arrays, and the objects in them, as they are. */
const sortNestedObjects = (value: unknown): unknown => {
  if (Array.isArray(value)) return [...value];
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortNestedObjects((value as Record<string, unknown>)[k])]),
    );
  return value;
};
/** The stricter rule: every object sorted, at any depth, inside arrays too. */
const sortEveryObject = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortEveryObject);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortEveryObject((value as Record<string, unknown>)[k])]),
    );
  return value;
};

type Verifier = (req: {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}) => boolean;

/** A verifier of the canonical scheme with one way of sorting, as a receiver of the original service writes it. */
const verifier =
  (sort: (value: unknown) => unknown, secret: () => string): Verifier =>
  ({ method, path, headers, raw }) => {
    const signature = headers["x-wavynode-hmac"];
    const timestamp = headers["x-wavynode-timestamp"];
    if (typeof signature !== "string" || typeof timestamp !== "string") return false;
    if (Math.abs(Date.now() - Number(timestamp)) > 300_000) return false;
    const json = method === "GET" ? "{}" : JSON.stringify(sort(JSON.parse(raw)));
    const expected = crypto
      .createHmac("sha256", secret())
      .update(`${method}::${path.toLowerCase()}::${json}::${timestamp}`)
      .digest("base64");
    return (
      expected.length === signature.length &&
      crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
    );
  };

interface Seen {
  method: string;
  path: string;
  raw: string;
  nested: boolean;
  every: boolean;
}

let secret = "";
const seen: Seen[] = [];
const nested = verifier(sortNestedObjects, () => secret);
const every = verifier(sortEveryObject, () => secret);
let receiver: http.Server;
let receiverUrl: string;
let svc: TestService;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0] as string;
      const call = { method: req.method ?? "GET", path, headers: req.headers, raw };
      const verdicts = { nested: nested(call), every: every(call) };
      seen.push({ method: call.method, path, raw, ...verdicts });
      if (!verdicts.nested || !verdicts.every) return res.writeHead(401).end("Invalid signature");
      const user = /^\/users\/([^/]+)$/.exec(path)?.[1];
      if (call.method === "GET" && user) {
        const profile = PROFILES[decodeURIComponent(user)];
        if (!profile) return res.writeHead(404).end();
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(profile));
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true" },
    service: { clock: () => Date.parse("2026-04-02T12:00:00Z") },
  });
  // The receiver is built for the original service: the project signs as it did.
  const patched = await svc.app!.inject({
    method: "PATCH",
    url: `/v1/projects/${svc.project.id}`,
    headers: auth(svc.project.keys.admin),
    payload: { signing_scheme: "hmac-canonical" },
  });
  expect(patched.statusCode).toBe(200);
  secret = patched.json().data.webhook_secret;
  // u-big's USD 12,000 goes to a labelled exchange: the FATF travel rule, an international rule, applies.
  await svc.database.db
    .insertInto("labels")
    .values({ address: addr(0x94), chain_id: 0, label: "Exchange X", category: "exchange", source: "test" })
    .execute();
  await buildScenario(svc, receiverUrl);
  const deliverer = new NotificationDeliverer(
    { ...svc.integrator, outbound: new OutboundClient({ allowPrivate: true }) },
    { random: () => 0 },
  );
  while ((await deliverer.runOnce()) > 0) {}
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

const webhooks = () => seen.filter((s) => s.method === "POST");

describe("published verifiers of the hmac-canonical scheme", () => {
  it("both accept every real notification, and every profile read", async () => {
    const notifications = await svc.database.db
      .selectFrom("notifications")
      .select(["type", "status", "attempts"])
      .where("project_id", "=", svc.project.id)
      .execute();
    expect(notifications.filter((n) => n.type === "notification").length).toBeGreaterThanOrEqual(8);
    // Delivered at the first attempt each: no verifier refused one.
    expect(notifications.every((n) => n.status === "delivered" && n.attempts === 1)).toBe(true);
    expect(webhooks()).toHaveLength(notifications.length);
    expect(seen.filter((s) => !s.nested || !s.every)).toEqual([]);
    expect(seen.filter((s) => s.method === "GET").length).toBeGreaterThan(0);
  });

  it("sends the body with the keys of every object in order, inside arrays too", () => {
    for (const { raw } of webhooks()) {
      const parsed = JSON.parse(raw);
      expect(raw).toBe(JSON.stringify(sortEveryObject(parsed)));
      // What the original's rule computes from it is the very bytes sent.
      expect(JSON.stringify(sortNestedObjects(parsed))).toBe(raw);
    }
    // The laws are objects in an array, with more than one key: the case the two rules used to disagree on.
    const laws = webhooks().flatMap(({ raw }) => JSON.parse(raw).data?.inflictedLaws ?? []);
    expect(laws.length).toBeGreaterThan(0);
    for (const law of laws) expect(Object.keys(law)).toEqual(Object.keys(law).sort());
  });

  it("names a two-letter countryCode in every law: the country's, or XB for the international rules", () => {
    const laws = webhooks().flatMap(({ raw }) => JSON.parse(raw).data?.inflictedLaws ?? []) as {
      id: string;
      country: string;
      countryCode: unknown;
    }[];
    for (const law of laws) expect(law.countryCode, law.id).toMatch(/^[A-Z]{2}$/);
    const international = laws.filter((l) => l.id.startsWith("XB-"));
    expect(new Set(international.map((l) => l.id))).toEqual(new Set(["XB-OFAC", "XB-TRAVEL-1000"]));
    for (const law of international)
      expect(law).toMatchObject({ country: "international", countryCode: "XB" });
    expect(new Set(laws.filter((l) => !l.id.startsWith("XB-")).map((l) => l.countryCode))).toEqual(
      new Set(["MX", "CO", "SV", "GT"]),
    );
  });
});
