// Answers given before a request reaches a route carry the error envelope too (docs/api.md, "Errors"): what
// Node's HTTP parser refuses (headers or a URL over its size limit, a malformed request line), sent over a real
// socket since `inject` never meets the parser; and requests that arrive while the service is shutting down.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../../src/platform/errors.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
let port: number;
beforeAll(async () => {
  svc = await startTestService();
  port = Number(new URL(await svc.listen()).port);
});
afterAll(async () => {
  await svc?.stop();
});

/** Sends raw bytes and reads everything the server answers until it closes the connection (at most 10 s). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer within 10 s")));
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), headers: head, body });
    });
    socket.end(request);
  });
}

function expectEnvelope(body: string): void {
  const parsed = JSON.parse(body);
  expect(parsed).toEqual({ success: false, error: expect.any(String), message: expect.any(String) });
  expect(Object.keys(ERROR_STATUS)).toContain(parsed.error);
}

describe("answers before routing", () => {
  it("headers over the parser's limit: 431 with the envelope", async () => {
    const res = await raw(`GET /v1/chains HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expectEnvelope(res.body);
    expect(JSON.parse(res.body).error).toBe("invalid_request");
    expect(res.headers).toMatch(/content-type: application\/json/i);
  });

  it("a URL over the parser's limit: 431 with the envelope", async () => {
    const res = await raw(`GET /v1/chains?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(431);
    expectEnvelope(res.body);
  });

  it("a malformed request line: 400 with the envelope", async () => {
    const res = await raw("NOT A REQUEST\r\n\r\n");
    expect(res.status).toBe(400);
    expectEnvelope(res.body);
  });

  it("a request that arrives while the service shuts down: 503 with the envelope and Retry-After", async () => {
    // A service of its own, stopped while a request is under way: what arrives meanwhile is refused.
    const other = await startTestService();
    try {
      const closing = other.app!.close();
      const res = await other.app!.inject({
        method: "GET",
        url: "/v1/chains",
        headers: auth(other.project.keys.admin),
      });
      await closing;
      expect(res.statusCode).toBe(503);
      expect(res.headers["retry-after"]).toBe("1");
      expectEnvelope(res.body);
      expect(res.json().error).toBe("unavailable");
    } finally {
      await other.stop();
    }
  });
});
