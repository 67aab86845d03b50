// Signing calls to integrators: Standard Webhooks signatures verified with the public `standardwebhooks` package
// (also both signatures while a rotated secret is honoured), and `hmac-canonical` checked against an implementation
// written here from its rule (METHOD::lowercase-path::JSON-with-sorted-nested-keys::timestamp-ms).
import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { canonicalJson, serializeBody, signatureHeaders } from "./signing.ts";

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
    expect(headers["x-wavynode-hmac"]).toBe(expected("POST", "/Webhook", body, String(at)));
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

  it("sorts nested objects' keys but keeps arrays and the objects inside them as they are", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"z":1,"y":2}]},"b":1}',
    );
    expect(serializeBody("hmac-canonical", body)).toBe(canonicalJson(body));
  });
});
