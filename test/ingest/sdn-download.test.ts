// `vigia sanctions update` without a file downloads OFAC's list through the safe outbound client: a stand-in on
// 127.0.0.1 (reached with the test's allowance for private addresses) serves it; a redirect to another host, or to
// the same host over plain http, is refused and leaves no file behind; without the allowance the stand-in's loopback
// address is refused before any request.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { downloadSdnList } from "../../src/ingest/sanctions/update.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";

const LIST =
  '<?xml version="1.0"?>\n<sdnList><publshInformation><Record_Count>0</Record_Count></publshInformation></sdnList>\n';
let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    if (req.url === "/sdn.xml") res.writeHead(200, { "content-type": "application/xml" }).end(LIST);
    else if (req.url === "/elsewhere")
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    else if (req.url === "/same-host") res.writeHead(301, { location: "/sdn.xml" }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const sdnTempDirs = () =>
  fs
    .readdirSync(os.tmpdir())
    .filter((name) => name.startsWith("vigia-sdn-"))
    .sort();

describe("downloading the SDN list", () => {
  const allowed = new OutboundClient({ allowPrivate: true, timeoutMs: 5_000 });

  it("writes the list to a temporary file", async () => {
    const file = await downloadSdnList(allowed, `${base}/sdn.xml`);
    try {
      expect(fs.readFileSync(file, "utf8")).toBe(LIST);
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it.each([
    [
      "to another host",
      "/elsewhere",
      /redirected to http:\/\/169\.254\.169\.254: only redirects to the same host over https/,
    ],
    [
      "to the same host over http",
      "/same-host",
      /redirected to http:\/\/127\.0\.0\.1:\d+: only redirects to the same host over https/,
    ],
  ])("refuses a redirect %s, and leaves no file", async (_what, route, message) => {
    const before = sdnTempDirs();
    const count = seen.length;
    await expect(downloadSdnList(allowed, `${base}${route}`)).rejects.toThrow(message);
    expect(seen.slice(count)).toEqual([route]);
    expect(sdnTempDirs()).toEqual(before);
  });

  it("refuses the stand-in's loopback address without the allowance, before any request", async () => {
    const count = seen.length;
    await expect(downloadSdnList(new OutboundClient(), `${base}/sdn.xml`)).rejects.toThrow(
      /loopback address.*VIGIA_ALLOW_PRIVATE_OUTBOUND/,
    );
    expect(seen.length).toBe(count);
  });

  it("refuses a list that is larger than the limit while it streams in", async () => {
    const small = new OutboundClient({ allowPrivate: true, maxResponseBytes: 10 });
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vigia-limit-")), "x");
    await expect(
      small.request({ method: "GET", url: `${base}/sdn.xml`, toFile: file, maxResponseBytes: 10 }),
    ).rejects.toMatchObject({ kind: "too_large" });
  });
});
