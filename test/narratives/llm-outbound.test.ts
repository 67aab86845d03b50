// The LLM call goes through the safe outbound client (src/narratives/llm.ts): a stand-in chat-completions server on
// 127.0.0.1 answers through it where private addresses are allowed; without the allowance, and for a name that
// resolves to the metadata address even with it, the call is refused before any request reaches a server.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WalletFacts } from "../../src/narratives/facts.ts";
import { LlmWriter } from "../../src/narratives/llm.ts";
import { OutboundClient, OutboundError } from "../../src/platform/outbound/index.ts";

let server: http.Server;
let url: string;
const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    req.resume();
    req.on("end", () =>
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: "chatcmpl-test",
          object: "chat.completion",
          created: 1_700_000_000,
          model: "test-model",
          choices: [{ index: 0, message: { role: "assistant", content: "# Report" }, finish_reason: "stop" }],
        }),
      ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const settings = (baseUrl: string) => ({ baseUrl, model: "test-model", apiKey: "k", timeoutMs: 2_000 });
const facts = {} as WalletFacts;

async function refusal(writer: LlmWriter): Promise<OutboundError> {
  const error = await writer.write(facts, "en", ["Summary"]).then(
    () => undefined,
    (e: unknown) => e as Error & { cause?: unknown },
  );
  expect(error).toBeDefined();
  const cause = error instanceof OutboundError ? error : (error as { cause?: unknown }).cause;
  expect(cause).toBeInstanceOf(OutboundError);
  return cause as OutboundError;
}

describe("the LLM call, through the outbound client", () => {
  it("reaches a stand-in on 127.0.0.1 where private addresses are allowed", async () => {
    const writer = new LlmWriter(settings(url), new OutboundClient({ allowPrivate: true }));
    const before = seen.length;
    expect(await writer.write(facts, "en", ["Summary"])).toBe("# Report");
    expect(seen.slice(before)).toMatchObject([{ url: "/v1/chat/completions" }]);
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer k");
    expect(seen.at(-1)?.headers["user-agent"]).toBeDefined();
  });

  it("is refused on a loopback address without the allowance, before any request", async () => {
    const before = seen.length;
    const error = await refusal(new LlmWriter(settings(url), new OutboundClient()));
    expect(error).toMatchObject({ kind: "refused" });
    expect(error.message).toMatch(/loopback.*VIGIA_ALLOW_PRIVATE_OUTBOUND/);
    expect(seen.length).toBe(before);
  });

  it("is refused for a name that resolves to the metadata address, even with the allowance", async () => {
    const before = seen.length;
    const outbound = new OutboundClient({
      allowPrivate: true,
      resolve: async () => [{ address: "169.254.169.254", family: 4 }],
    });
    const error = await refusal(new LlmWriter(settings("http://llm.example/v1"), outbound));
    expect(error.message).toMatch(/resolved to 169\.254\.169\.254.*always refused/);
    expect(seen.length).toBe(before);
  });

  it("is refused by default (no client given): the writer never falls back to a plain fetch", async () => {
    const error = await refusal(new LlmWriter(settings(url)));
    expect(error).toMatchObject({ kind: "refused" });
  });
});
