// The JSON-RPC client against a local HTTP server: batches in order whatever the answer order, chunking, call
// errors versus transport errors.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsonRpcClient, RpcCallError, RpcTransportError } from "./json-rpc.ts";

type Handler = (body: unknown) => { status?: number; body: string };
let handler: Handler;
let server: http.Server;
let url: string;
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      requests++;
      const answer = handler(JSON.parse(data));
      res.writeHead(answer.status ?? 200, { "content-type": "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Call = { id: number; method: string; params: unknown[] };
const echo: Handler = (body) => {
  const calls = (Array.isArray(body) ? body : [body]) as Call[];
  const answers = calls.map((c) =>
    c.method === "fail"
      ? { jsonrpc: "2.0", id: c.id, error: { code: 3, message: "execution reverted" } }
      : { jsonrpc: "2.0", id: c.id, result: c.params[0] },
  );
  return { body: JSON.stringify(Array.isArray(body) ? answers.reverse() : answers[0]) };
};

describe("JsonRpcClient", () => {
  it("returns batch outcomes in call order, in chunks of maxBatch", async () => {
    handler = echo;
    requests = 0;
    const client = new JsonRpcClient(url, { maxBatch: 3 });
    const calls = Array.from({ length: 8 }, (_, i) => ({ method: i === 5 ? "fail" : "echo", params: [i] }));
    const outcomes = await client.batch(calls);
    expect(outcomes.map((o) => (o.ok ? o.result : `error ${o.error.code}`))).toEqual([
      0,
      1,
      2,
      3,
      4,
      "error 3",
      6,
      7,
    ]);
    expect(requests).toBe(3);
    await expect(client.batchResults(calls)).rejects.toBeInstanceOf(RpcCallError);
    expect(await client.request("echo", ["x"])).toBe("x");
  });

  it("a refused batch, HTML, a closed port or a timeout are transport errors", async () => {
    const client = new JsonRpcClient(url, { timeoutMs: 200 });
    handler = () => ({
      body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "too big" } }),
    });
    await expect(
      client.batch([
        { method: "a", params: [] },
        { method: "b", params: [] },
      ]),
    ).rejects.toBeInstanceOf(RpcTransportError);
    handler = () => ({ status: 502, body: "<html>bad gateway</html>" });
    await expect(client.request("a")).rejects.toThrow(/HTTP 502: not JSON/);
    await expect(new JsonRpcClient("http://127.0.0.1:1").request("a")).rejects.toBeInstanceOf(
      RpcTransportError,
    );
  });
});
