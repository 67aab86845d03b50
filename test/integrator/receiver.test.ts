// The receiver of `vigia webhooks listen` (docs/quickstart.md): it accepts a call signed with the project's secret in
// either scheme (200, `verified: true`), refuses a tampered body, a wrong secret or a stale timestamp (401, printed as
// not verified), and answers the service's profile reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReceiver } from "../../src/integrator/receiver.ts";
import { serializeBody, signatureHeaders } from "../../src/integrator/signing.ts";

const STANDARD = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const CANONICAL = "0123456789abcdef0123456789abcdef";
const printed: Record<string, unknown>[] = [];
const receivers: { url: string; close(): Promise<void> }[] = [];

beforeAll(async () => {
  for (const [secret, scheme] of [
    [STANDARD, "standard-webhooks"],
    [CANONICAL, "hmac-canonical"],
  ] as const) {
    receivers.push(
      await startReceiver({
        port: 0,
        host: "127.0.0.1",
        secret,
        scheme,
        profile: { givenName: "Ana" },
        print: (line) => printed.push(line as Record<string, unknown>),
      }),
    );
  }
});
afterAll(async () => {
  for (const r of receivers) await r.close();
});

async function post(
  url: string,
  scheme: "standard-webhooks" | "hmac-canonical",
  secret: string,
  opts: { tamper?: boolean; at?: number } = {},
) {
  const body = { type: "notification", data: { txHash: "0xabc", inflictedLaws: [{ id: "CO-TX-150" }] } };
  const headers = signatureHeaders(scheme, [secret], {
    id: "msg_1",
    method: "POST",
    path: "/webhook",
    body,
    at: opts.at ?? Date.now(),
  });
  const text = serializeBody(scheme, opts.tamper ? { ...body, type: "error" } : body);
  const res = await fetch(`${url}/webhook`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: text,
  });
  return { status: res.status, line: printed.at(-1) };
}

describe("vigia webhooks listen", () => {
  it("accepts a Standard Webhooks call signed with the secret, and refuses anything else", async () => {
    const url = receivers[0]?.url as string;
    expect(await post(url, "standard-webhooks", STANDARD)).toMatchObject({
      status: 200,
      line: { received: "webhook", id: "msg_1", verified: true, txHash: "0xabc", laws: ["CO-TX-150"] },
    });
    expect(await post(url, "standard-webhooks", STANDARD, { tamper: true })).toMatchObject({
      status: 401,
      line: { verified: false },
    });
    expect(await post(url, "standard-webhooks", "whsec_QUJDREVGR0hJSktMTU5PUFFSU1RVVldY")).toMatchObject({
      status: 401,
    });
    expect(await post(url, "standard-webhooks", STANDARD, { at: Date.now() - 10 * 60_000 })).toMatchObject({
      status: 401,
    });
  });

  it("checks the canonical HMAC scheme too", async () => {
    const url = receivers[1]?.url as string;
    expect((await post(url, "hmac-canonical", CANONICAL)).status).toBe(200);
    expect((await post(url, "hmac-canonical", CANONICAL, { tamper: true })).status).toBe(401);
  });

  it("answers the service's profile reads", async () => {
    const res = await fetch(`${receivers[0]?.url}/users/ana`);
    expect(await res.json()).toEqual({ givenName: "Ana" });
    expect(printed.at(-1)).toEqual({ received: "profile request", user: "ana" });
    expect((await fetch(`${receivers[0]?.url}/elsewhere`)).status).toBe(404);
  });

  it("survives malformed URLs: 400, and it keeps answering", async () => {
    for (const path of ["/users/%E0%A4%A", "/users/%", "/users/%ZZ", "/users/%C0%AF"]) {
      const res = await fetch(`${receivers[0]?.url}${path}`);
      expect(res.status, path).toBe(400);
      expect(printed.at(-1)).toEqual({ received: "malformed path", path });
    }
    const again = await fetch(`${receivers[0]?.url}/users/ana%C3%B1`);
    expect(again.status).toBe(200);
    expect(printed.at(-1)).toEqual({ received: "profile request", user: "anañ" });
    expect((await post(receivers[0]!.url, "standard-webhooks", STANDARD)).status).toBe(200);
  });
});
