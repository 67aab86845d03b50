// Signing calls to integrators: Standard Webhooks signatures (made with the public `standardwebhooks` package)
// verified with that package and against the specification's formula written out here (also both signatures while
// a rotated secret is honoured), the receiver's check of them, and `hmac-canonical` checked against an implementation
// written here from its rule (METHOD::lowercase-path::JSON-with-sorted-nested-keys::timestamp-ms); bodies go out
// with every object's keys sorted, so that the original's rule and a rule sorting inside arrays agree.
import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import {
  canonicalJson,
  originalCanonicalJson,
  serializeBody,
  signatureHeaders,
  verifySignature,
} from "./signing.ts";

const body = {
  type: "notification",
  data: {
    id: 7,
    txHash: "0xabc",
    amount: { value: "1000000000000000000000", usd: 3100.5 },
    inflictedLaws: [{ risk: "warn", name: "Aviso", countryCode: "MX" }],
    address: { userId: "u-1", id: 3, address: "0x01", description: null },
  },
};
const at = Date.UTC(2026, 10, 24, 12, 0, 0, 250);

describe("standard-webhooks", () => {
  const secret = `whsec_${crypto.randomBytes(24).toString("base64")}`;
  const old = `whsec_${crypto.randomBytes(24).toString("base64")}`;

  it("verifies with the standardwebhooks package", () => {
    const message = { id: "msg_2Kq", method: "POST" as const, path: "/webhook", body, at };
    const headers = signatureHeaders("standard-webhooks", [secret], message);
    expect(headers["webhook-id"]).toBe("msg_2Kq");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at / 1000)));
    const payload = serializeBody("standard-webhooks", body);
    // The package checks the timestamp against its own clock: verify "now".
    const now = { ...message, at: Date.now() };
    const fresh = signatureHeaders("standard-webhooks", [secret], now);
    expect(new Webhook(secret).verify(payload, fresh)).toEqual(body);
    expect(() => new Webhook(old).verify(payload, fresh)).toThrow();
  });

  it("carries a signature per secret during a rotation's grace period: either verifies", () => {
    const message = { id: "msg_rot", method: "POST" as const, path: "/webhook", body, at: Date.now() };
    const headers = signatureHeaders("standard-webhooks", [secret, old], message);
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    const payload = serializeBody("standard-webhooks", body);
    expect(new Webhook(secret).verify(payload, headers)).toEqual(body);
    expect(new Webhook(old).verify(payload, headers)).toEqual(body);
  });

  it("is the specification's HMAC-SHA256 of id.timestamp.body, keyed by the secret's decoded bytes", () => {
    const message = { id: "msg_spec", method: "POST" as const, path: "/webhook", body, at };
    const headers = signatureHeaders("standard-webhooks", [secret], message);
    const timestamp = Math.floor(at / 1000);
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const mac = crypto
      .createHmac("sha256", key)
      .update(`msg_spec.${timestamp}.${serializeBody("standard-webhooks", body)}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${mac}`);
  });

  it("checks a received call as the receiver does: either signature of a rotation, not a tampered or stale one", () => {
    const now = Date.now();
    const message = { id: "msg_rcv", method: "POST" as const, path: "/webhook", body, at: now };
    const headers = signatureHeaders("standard-webhooks", [secret, old], message);
    const call = {
      method: "POST",
      path: "/webhook",
      headers,
      rawBody: serializeBody("standard-webhooks", body),
      now,
    };
    expect(verifySignature("standard-webhooks", secret, call)).toBe(true);
    expect(verifySignature("standard-webhooks", old, call)).toBe(true);
    const other = `whsec_${crypto.randomBytes(24).toString("base64")}`;
    expect(verifySignature("standard-webhooks", other, call)).toBe(false);
    expect(verifySignature("standard-webhooks", secret, { ...call, rawBody: `${call.rawBody} ` })).toBe(
      false,
    );
    expect(verifySignature("standard-webhooks", secret, { ...call, now: now + 6 * 60_000 })).toBe(false);
    const { "webhook-id": _, ...withoutId } = headers;
    expect(verifySignature("standard-webhooks", secret, { ...call, headers: withoutId })).toBe(false);
  });
});

describe("hmac-canonical", () => {
  const secret = crypto.randomBytes(16).toString("hex");

  /** The receiving side, written from the rule alone. */
  function expected(method: string, path: string, payload: unknown, timestamp: string): string {
    const sort = (v: unknown): unknown => {
      if (Array.isArray(v)) return v;
      if (v && typeof v === "object") {
        return Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
        );
      }
      return v;
    };
    const json = method === "GET" ? "{}" : JSON.stringify(sort(payload));
    return crypto
      .createHmac("sha256", secret)
      .update(`${method}::${path.toLowerCase()}::${json}::${timestamp}`)
      .digest("base64");
  }

  it("signs a POST over the sorted body and the millisecond timestamp", () => {
    const headers = signatureHeaders("hmac-canonical", [secret], {
      id: "ignored",
      method: "POST",
      path: "/Webhook",
      body,
      at,
    });
    expect(headers["x-wavynode-timestamp"]).toBe(String(at));
    // The receiver reads the body as it was sent.
    const sent = JSON.parse(serializeBody("hmac-canonical", body));
    expect(headers["x-wavynode-hmac"]).toBe(expected("POST", "/Webhook", sent, String(at)));
    expect(headers["x-wavynode-hmac"]).toHaveLength(44);
  });

  it("signs a GET as {} (the docs' example shape GET::/users/123::{}::ts)", () => {
    const headers = signatureHeaders("hmac-canonical", [secret], {
      id: "x",
      method: "GET",
      path: "/users/123",
      body: undefined,
      at,
    });
    const direct = crypto.createHmac("sha256", secret).update(`GET::/users/123::{}::${at}`).digest("base64");
    expect(headers["x-wavynode-hmac"]).toBe(direct);
  });

  it("sends every object's keys sorted, inside arrays too; the original's rule reads the same string back", () => {
    const value = { b: 1, a: { d: [{ z: 1, y: [{ q: 1, p: 2 }] }], c: null } };
    expect(canonicalJson(value)).toBe('{"a":{"c":null,"d":[{"y":[{"p":2,"q":1}],"z":1}]},"b":1}');
    // The original's rule leaves objects inside arrays as they are: on a body sent sorted, it gives the same.
    expect(originalCanonicalJson(value)).toBe('{"a":{"c":null,"d":[{"z":1,"y":[{"q":1,"p":2}]}]},"b":1}');
    expect(originalCanonicalJson(JSON.parse(canonicalJson(value)))).toBe(canonicalJson(value));
    for (const scheme of ["hmac-canonical", "standard-webhooks"] as const)
      expect(serializeBody(scheme, body)).toBe(canonicalJson(body));
  });

  it("verifies a call the way the original's receivers do (nested objects sorted from the parsed body)", () => {
    const now = Date.now();
    const message = { id: "m", method: "POST" as const, path: "/webhook", body, at: now };
    const headers = signatureHeaders("hmac-canonical", [secret], message);
    const call = {
      method: "POST",
      path: "/webhook",
      headers,
      rawBody: serializeBody("hmac-canonical", body),
      now,
    };
    expect(verifySignature("hmac-canonical", secret, call)).toBe(true);
    expect(verifySignature("hmac-canonical", crypto.randomBytes(16).toString("hex"), call)).toBe(false);
    expect(verifySignature("hmac-canonical", secret, { ...call, now: now + 6 * 60_000 })).toBe(false);
  });
});
