// A stand-in for an OpenAI-compatible chat-completions server on 127.0.0.1, for the wallet report tests. Its
// `mode` says what it answers: a report written from the facts it was sent (faithful), the same with an invented
// address, hash, figure, raw HTML or an outside link, a 500, or nothing until the client gives up (slow). It keeps
// every request it got.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type LlmMode =
  | "faithful"
  | "invent-address"
  | "invent-hash"
  | "invent-figure"
  | "html"
  | "link"
  | "error"
  | "slow";

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
}

interface Facts {
  address: string;
  labels: { label: string }[];
  risk: { score: number; level: string } | null;
  activity: { chain: string; firstSeen: string; receivedUsd: number; transfersIn: number }[];
}

/** A short report that uses only values found in the facts. */
function faithful(facts: Facts): string {
  const lines = [`# Wallet background report: \`${facts.address}\``, "", "## Summary", ""];
  if (facts.risk)
    lines.push(`The latest analysis scored it **${facts.risk.score}/100** (${facts.risk.level}).`);
  for (const a of facts.activity)
    lines.push(`On ${a.chain} it was first seen on ${a.firstSeen} and received ${a.transfersIn} transfers.`);
  if (facts.labels.length > 0) lines.push(`It carries ${facts.labels.length} labels.`);
  lines.push("", "## Limits of the data", "", "Only the data the service holds.");
  return lines.join("\n");
}

export class FakeLlm {
  mode: LlmMode = "faithful";
  readonly requests: ChatRequest[] = [];
  #server: http.Server | undefined;
  #url = "";

  get url(): string {
    return this.#url;
  }

  async start(): Promise<void> {
    this.#server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        const request = JSON.parse(body) as ChatRequest;
        this.requests.push(request);
        if (this.mode === "error")
          return res.writeHead(500, { "content-type": "application/json" }).end("{}");
        if (this.mode === "slow") return; // never answers; the client's timeout ends it
        const user = request.messages.find((m) => m.role === "user")?.content ?? "";
        const facts = JSON.parse(user.slice(user.indexOf("{"), user.lastIndexOf("}") + 1)) as Facts;
        let content = faithful(facts);
        if (this.mode === "invent-address") content += `\n\nIt also paid 0x${"7".repeat(40)}.`;
        if (this.mode === "invent-hash") content += `\n\nSee transaction 0x${"e".repeat(64)}.`;
        if (this.mode === "invent-figure") content += "\n\nIt moved USD 987,654.32 in total.";
        if (this.mode === "html") content += '\n\n<img src="x" onerror="alert(1)">';
        if (this.mode === "link") content += "\n\nMore at [the explorer](https://evil.example/address).";
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: "chatcmpl-test",
            object: "chat.completion",
            created: 1_700_000_000,
            model: request.model,
            choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, "127.0.0.1", resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}
