// Bodies from outside are read with a limit enforced while they stream: an endless answer stops at the limit.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonRpcClient } from "../../src/chains/rpc/json-rpc.ts";
import {
  BodyTooLargeError,
  byteLimit,
  readLimitedBytes,
  readLimitedText,
} from "../../src/platform/limited-body.ts";

const MiB = 1024 * 1024;
let server: http.Server;
let url: string;
let sent = 0;

beforeAll(async () => {
  // Answers without end (until the client goes away), without a Content-Length.
  server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const push = () => {
      while (!res.destroyed && sent < 1024 * MiB) {
        sent += chunk.length;
        if (!res.write(chunk)) return res.once("drain", push);
      }
      res.end();
    };
    res.on("close", () => {});
    push();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("limited bodies", () => {
  it("reads a body under the limit, and refuses a declared length over it before reading", async () => {
    expect(await readLimitedText(new Response("hello"), 10)).toBe("hello");
    const declared = new Response("x".repeat(100), { headers: { "content-length": "100" } });
    await expect(readLimitedBytes(declared, 10)).rejects.toBeInstanceOf(BodyTooLargeError);
  });

  it("stops an endless answer at the limit, and so does the JSON-RPC client", async () => {
    sent = 0;
    await expect(readLimitedBytes(await fetch(url), MiB)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(sent).toBeLessThan(64 * MiB);
    sent = 0;
    const client = new JsonRpcClient(url, { maxResponseBytes: MiB, timeoutMs: 10_000 });
    await expect(client.request("eth_blockNumber", [])).rejects.toThrow("larger than 1048576 bytes");
    expect(sent).toBeLessThan(64 * MiB);
  });

  it("fails a stream written elsewhere past the limit", async () => {
    const body = new Response("y".repeat(2_000)).body!.pipeThrough(byteLimit(1_000));
    await expect(new Response(body).arrayBuffer()).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
