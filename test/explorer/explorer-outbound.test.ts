// Explorer requests and Blockscout statistics go through the safe outbound client: a name that resolves to the
// metadata address is refused (even where private addresses are allowed) without a retry, a stand-in on 127.0.0.1
// is refused without the allowance and reached with it, and no request reaches a server when refused.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchBlockscoutStats } from "../../src/chains/blockscout-stats.ts";
import { getJson } from "../../src/chains/explorer/http.ts";
import { DEFAULT_EXPLORER_OPTIONS, ExplorerError } from "../../src/chains/explorer/index.ts";
import { HostRateLimiters } from "../../src/chains/explorer/rate-limiter.ts";
import { OutboundClient } from "../../src/platform/outbound/index.ts";

let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ total_blocks: "42" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const metadata = new OutboundClient({
  allowPrivate: true,
  resolve: async () => [{ address: "169.254.169.254", family: 4 }],
});
const options = (outbound: OutboundClient) => ({
  ...DEFAULT_EXPLORER_OPTIONS,
  backoffBaseMs: 1,
  backoffMaxMs: 2,
  outbound,
});
const bucket = () => new HostRateLimiters().for("x", 1000, 10);

describe("explorer requests, through the outbound client", () => {
  it("refuses a name that resolves to the metadata address, at once and without a retry", async () => {
    const error = await getJson(
      new URL("http://explorer.example/api/v2/addresses/0x1"),
      bucket(),
      options(metadata),
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExplorerError);
    expect((error as ExplorerError).message).toMatch(/resolved to 169\.254\.169\.254.*always refused/);
    expect((error as ExplorerError).retryable).toBe(false);
  });

  it("refuses a stand-in on 127.0.0.1 without the allowance, and reaches it with it", async () => {
    const before = seen.length;
    const url = new URL(`${base}/api/v2/stats`);
    await expect(getJson(url, bucket(), options(new OutboundClient()))).rejects.toThrow(/loopback/);
    expect(seen.length).toBe(before);
    const answer = await getJson(url, bucket(), options(new OutboundClient({ allowPrivate: true })));
    expect(answer).toMatchObject({ status: 200, body: { total_blocks: "42" } });
  });
});

describe("Blockscout statistics, through the outbound client", () => {
  it("refuses a name that resolves to the metadata address, and loopback without the allowance", async () => {
    const before = seen.length;
    const signal = AbortSignal.timeout(5_000);
    await expect(fetchBlockscoutStats("http://stats.example", signal, metadata)).rejects.toThrow(
      /always refused/,
    );
    await expect(fetchBlockscoutStats(base, signal)).rejects.toThrow(/loopback/);
    expect(seen.length).toBe(before);
    const stats = await fetchBlockscoutStats(base, signal, new OutboundClient({ allowPrivate: true }));
    expect(stats.total_blocks).toBe("42");
  });
});
