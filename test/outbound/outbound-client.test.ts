// The safe outbound client (src/platform/outbound) against real HTTP servers on 127.0.0.1: by default it refuses
// loopback, private, link-local and metadata addresses, IPv6 loopback, every IPv6 form that carries a refused IPv4
// address, and names that resolve to any of them (link-local and metadata even where private calls are allowed); it
// resolves a name once and connects to the address it checked (no DNS-rebinding window); it never follows a
// redirect; and it enforces its timeouts and its response size limit while the body streams in.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboundClient, OutboundError } from "../../src/platform/outbound/index.ts";

let server: http.Server;
let base: string;
const seen: { method: string; url: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", body, headers: req.headers });
      if (req.url === "/redirect") {
        res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      } else if (req.url === "/hang") {
        res.writeHead(200); // headers only: the body never ends
        res.write("x");
      } else if (req.url === "/huge") {
        res.writeHead(200, { "content-type": "application/octet-stream" }); // chunked: no content-length
        const chunk = Buffer.alloc(64 * 1024, 1);
        for (let i = 0; i < 40; i++) res.write(chunk);
        res.end();
      } else if (req.url === "/declared-huge") {
        res.writeHead(200, { "content-length": String(10 * 1024 * 1024) });
        res.end();
      } else {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function refusal(client: OutboundClient, url: string): Promise<OutboundError> {
  const error = await client.request({ method: "GET", url }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, url).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("outbound client, by default", () => {
  const client = new OutboundClient();

  it.each([
    ["loopback", () => `${base}/users/1`],
    ["private 10.x", () => "http://10.0.0.1/webhook"],
    ["IPv6 loopback", () => "http://[::1]:8080/webhook"],
    ["IPv4-mapped IPv6 loopback", () => "http://[::ffff:127.0.0.1]:8080/webhook"],
    ["a name that resolves to loopback", () => `http://localhost:${new URL(base).port}/webhook`],
  ])("refuses %s, without calling it", async (_what, url) => {
    const before = seen.length;
    const error = await refusal(client, url());
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/VIGIA_ALLOW_PRIVATE_OUTBOUND/);
    expect(seen.length).toBe(before);
  });

  it.each([
    ["the metadata address", "http://169.254.169.254/latest/meta-data/"],
    ["the AWS IPv6 metadata address", "http://[fd00:ec2::254]/latest/meta-data/"],
    ["an IPv6 link-local address", "http://[fe80::1]/"],
  ])("refuses %s, and says no setting opens it", async (_what, url) => {
    const error = await refusal(client, url);
    expect(error.kind).toBe("refused");
    expect(error.message).toMatch(/always refused/);
  });

  // Each IPv6 form that carries an IPv4 address, written as a literal and as a name that resolves to it, judged by
  // the IPv4 address it carries: 127.0.0.1 (the stand-in's), 10.0.0.1 and the metadata address.
  it.each([
    ["IPv4-compatible", "::127.0.0.1"],
    ["IPv4-mapped", "::ffff:127.0.0.1"],
    ["IPv4-translated", "::ffff:0:127.0.0.1"],
    ["NAT64", "64:ff9b::a00:1"],
    ["local-use NAT64", "64:ff9b:1::a00:1"],
    ["6to4", "2002:a9fe:a9fe::1"],
    ["Teredo", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
  ])(
    "refuses the %s form of a private IPv4 address (%s), as a literal and through a name",
    async (_form, ip) => {
      const before = seen.length;
      const port = new URL(base).port;
      const literal = await refusal(client, `http://[${ip}]:${port}/users/1`);
      expect(literal.kind).toBe("refused");
      const named = new OutboundClient({ resolve: async () => [{ address: ip, family: 6 }] });
      const resolved = await refusal(named, `http://integrator.example:${port}/users/1`);
      expect(resolved.kind).toBe("refused");
      expect(resolved.message).toContain(`resolved to ${ip}`);
      expect(seen.length).toBe(before);
    },
  );

  it("refuses a name one of whose addresses is private", async () => {
    const mixed = new OutboundClient({
      resolve: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    });
    const error = await refusal(mixed, "https://integrator.example/webhook");
    expect(error.kind).toBe("refused");
    expect(error.message).toContain("10.1.2.3");
  });

  it("refuses other schemes and URLs with credentials", async () => {
    expect((await refusal(client, "ftp://example.com/x")).kind).toBe("invalid_url");
    expect((await refusal(client, "file:///etc/passwd")).kind).toBe("invalid_url");
    expect((await refusal(client, "https://user:pass@example.com/")).kind).toBe("invalid_url");
    expect((await refusal(client, "not a url")).kind).toBe("invalid_url");
  });
});

describe("outbound client, private addresses allowed (tests, on-premise)", () => {
  const client = new OutboundClient({ allowPrivate: true, timeoutMs: 2_000 });

  it("sends the method, headers and body, and returns the answer", async () => {
    const res = await client.request({
      method: "POST",
      url: `${base}/webhook?x=1`,
      headers: { "content-type": "application/json", "webhook-id": "msg_1" },
      body: JSON.stringify({ type: "notification" }),
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body.toString())).toEqual({ ok: true });
    const last = seen.at(-1)!;
    expect(last).toMatchObject({ method: "POST", url: "/webhook?x=1", body: '{"type":"notification"}' });
    expect(last.headers["webhook-id"]).toBe("msg_1");
  });

  it("does not follow a redirect, even to the metadata address", async () => {
    const before = seen.length;
    const res = await client.request({ method: "GET", url: `${base}/redirect` });
    expect(res.status).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  it("still refuses metadata and link-local addresses, in any form", async () => {
    for (const address of [
      "169.254.169.254",
      "fd00:ec2::254",
      "fe80::1",
      "::ffff:169.254.169.254",
      "64:ff9b:1::a9fe:a9fe",
    ]) {
      const named = new OutboundClient({
        allowPrivate: true,
        resolve: async () => [{ address, family: address.includes(":") ? 6 : 4 }],
      });
      const error = await refusal(named, "http://metadata.example/latest/meta-data/");
      expect(error, address).toMatchObject({ kind: "refused" });
      expect(error.message).toMatch(/always refused/);
    }
  });

  it("resolves a name once and connects to the address it checked", async () => {
    const answers = ["127.0.0.1", "10.9.9.9"];
    let calls = 0;
    const pinned = new OutboundClient({
      allowPrivate: true,
      resolve: async () => [{ address: answers[calls++] as string, family: 4 }],
    });
    const res = await pinned.request({ method: "GET", url: `http://rebinding.test:${new URL(base).port}/x` });
    expect(res.status).toBe(200);
    expect(res.address).toBe("127.0.0.1");
    expect(calls).toBe(1);
  });

  it("counts the name's resolution in the total timeout, and calls at once share one resolution", async () => {
    let resolutions = 0;
    const stuck = new OutboundClient({
      allowPrivate: true,
      timeoutMs: 300,
      resolve: () => {
        resolutions++;
        return new Promise(() => {}); // a resolver that never answers
      },
    });
    const started = Date.now();
    const errors = await Promise.all(
      [1, 2, 3].map(() => refusal(stuck, "http://never-resolves.test/users/1")),
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const error of errors)
      expect(error).toMatchObject({
        kind: "dns",
        message: "never-resolves.test did not resolve within 300 ms",
      });
    expect(resolutions).toBe(1);
    // Once the stuck resolution is older than a call's timeout, the next call tries again.
    await refusal(stuck, "http://never-resolves.test/users/1");
    expect(resolutions).toBe(2);
  });

  it("gives the call what the resolution left of the budget", async () => {
    const slow = new OutboundClient({
      allowPrivate: true,
      timeoutMs: 500,
      resolve: () => new Promise((r) => setTimeout(() => r([{ address: "127.0.0.1", family: 4 }]), 300)),
    });
    const started = Date.now();
    const error = await refusal(slow, `http://slow-dns.test:${new URL(base).port}/hang`);
    expect(error).toMatchObject({ kind: "timeout", message: "no complete answer within 500 ms" });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("stops at the total timeout while the body never ends", async () => {
    const quick = new OutboundClient({ allowPrivate: true, timeoutMs: 300 });
    const started = Date.now();
    const error = await refusal(quick, `${base}/hang`);
    expect(error.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stops reading past the size limit, declared or streamed", async () => {
    const small = new OutboundClient({ allowPrivate: true, maxResponseBytes: 1024 * 1024 });
    expect((await refusal(small, `${base}/huge`)).kind).toBe("too_large");
    expect((await refusal(small, `${base}/declared-huge`)).kind).toBe("too_large");
  });

  it("reports a refused connection as a network error", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await refusal(client, `http://127.0.0.1:${port}/`);
    expect(error).toMatchObject({ kind: "network", message: "the connection was refused" });
  });
});
