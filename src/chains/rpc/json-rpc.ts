// A small JSON-RPC 2.0 client for EVM nodes: single calls and batches (one HTTP request per chunk of calls),
// with a timeout and an abort signal. It returns raw JSON (hex strings): the indexer parses only the fields it
// needs, which is much cheaper than a general client's formatting of every field of every block and receipt.
//
// Errors are split by what the caller should do: `RpcTransportError` (the node could not be reached or answered
// something that is not JSON-RPC: retry later) and `RpcCallError` (the node answered this call with an error
// object: the call itself failed, e.g. a reverted eth_call or an unsupported method).
import { readLimitedText } from "../../platform/limited-body.ts";

/** The largest answer read from a node: a batch of blocks with their receipts stays far below it. */
export const RPC_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

export interface RpcCall {
  method: string;
  params: unknown[];
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One call's outcome in a batch, in the order of the calls. */
export type RpcOutcome = { ok: true; result: unknown } | { ok: false; error: RpcErrorObject };

export class RpcTransportError extends Error {
  override name = "RpcTransportError";
}

export class RpcCallError extends Error {
  override name = "RpcCallError";
  constructor(
    readonly method: string,
    readonly error: RpcErrorObject,
  ) {
    super(`${method}: ${error.message} (code ${error.code})`);
  }
}

export interface JsonRpcClientOptions {
  /** Per HTTP request. */
  timeoutMs?: number;
  /** Calls per HTTP request; providers commonly cap batches at 100 to 1,000. */
  maxBatch?: number;
  /** HTTP requests of one batch in flight at once. */
  concurrency?: number;
  fetch?: typeof fetch;
  /** The largest answer read (default RPC_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Sent with every request (a node's basic authentication). */
  headers?: Record<string, string>;
}

interface Envelope {
  id?: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

export class JsonRpcClient {
  readonly #timeoutMs: number;
  readonly #maxBatch: number;
  readonly #concurrency: number;
  readonly #fetch: typeof fetch;
  readonly #maxResponseBytes: number;
  readonly #headers: Record<string, string>;
  #nextId = 1;

  constructor(
    readonly url: string,
    options: JsonRpcClientOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    // Smaller batches in parallel let a multi-threaded node (anvil, geth, reth) serve one range on several cores.
    this.#maxBatch = Math.max(1, options.maxBatch ?? 50);
    this.#concurrency = Math.max(1, options.concurrency ?? 4);
    this.#fetch = options.fetch ?? fetch;
    this.#maxResponseBytes = options.maxResponseBytes ?? RPC_MAX_RESPONSE_BYTES;
    this.#headers = options.headers ?? {};
  }

  /** One call; throws RpcCallError when the node answers with an error object. */
  async request<T>(method: string, params: unknown[] = [], signal?: AbortSignal): Promise<T> {
    const [outcome] = await this.#send([{ method, params }], signal);
    if (!outcome) throw new RpcTransportError(`${method}: empty answer`);
    if (!outcome.ok) throw new RpcCallError(method, outcome.error);
    return outcome.result as T;
  }

  /** Many calls, in chunks of `maxBatch` per HTTP request; outcomes come back in the calls' order. */
  async batch(calls: RpcCall[], signal?: AbortSignal): Promise<RpcOutcome[]> {
    if (calls.length <= this.#maxBatch) return this.#send(calls, signal);
    const chunks: RpcCall[][] = [];
    for (let i = 0; i < calls.length; i += this.#maxBatch) chunks.push(calls.slice(i, i + this.#maxBatch));
    const results: RpcOutcome[][] = new Array(chunks.length);
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const index = next++;
        results[index] = await this.#send(chunks[index] as RpcCall[], signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#concurrency, chunks.length) }, worker));
    return results.flat();
  }

  /** Like `batch`, but every call must succeed: the first error object is thrown as RpcCallError. */
  async batchResults(calls: RpcCall[], signal?: AbortSignal): Promise<unknown[]> {
    const outcomes = await this.batch(calls, signal);
    return outcomes.map((outcome, i) => {
      if (!outcome.ok) throw new RpcCallError(calls[i]?.method ?? "?", outcome.error);
      return outcome.result;
    });
  }

  async #send(calls: RpcCall[], signal?: AbortSignal): Promise<RpcOutcome[]> {
    if (calls.length === 0) return [];
    const firstId = this.#nextId;
    this.#nextId += calls.length;
    if (this.#nextId > 2 ** 31) this.#nextId = 1;
    const payload = calls.map((c, i) => ({
      jsonrpc: "2.0",
      id: firstId + i,
      method: c.method,
      params: c.params,
    }));
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    let text: string;
    let status: number;
    try {
      const response = await this.#fetch(this.url, {
        method: "POST",
        headers: { ...this.#headers, "content-type": "application/json", accept: "application/json" },
        // A single call goes unbatched: some nodes and proxies handle plain requests better.
        body: JSON.stringify(payload.length === 1 ? payload[0] : payload),
        signal: combined,
        redirect: "error",
      });
      status = response.status;
      // Bounded while it streams: a node (or anything at its URL) answering without end must not exhaust memory.
      text = await readLimitedText(response, this.#maxResponseBytes);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      const reason = timeout.aborted ? `timed out after ${this.#timeoutMs} ms` : describe(error);
      throw new RpcTransportError(
        `${calls[0]?.method}${calls.length > 1 ? ` (+${calls.length - 1})` : ""}: ${reason}`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new RpcTransportError(`HTTP ${status}: not JSON: ${text.slice(0, 200)}`);
    }
    const envelopes: Envelope[] = Array.isArray(body) ? body : [body as Envelope];
    // A batch answered by one error object (batch too large, rate limited, ...) is the transport failing.
    if (!Array.isArray(body) && calls.length > 1) {
      const error = (body as Envelope)?.error;
      throw new RpcTransportError(`HTTP ${status}: batch refused: ${error?.message ?? text.slice(0, 200)}`);
    }
    const byId = new Map<number, Envelope>();
    for (const envelope of envelopes) {
      if (typeof envelope?.id === "number") byId.set(envelope.id, envelope);
    }
    return calls.map((call, i) => {
      const envelope = byId.get(firstId + i) ?? (calls.length === 1 ? envelopes[0] : undefined);
      if (!envelope) throw new RpcTransportError(`HTTP ${status}: no answer to ${call.method}`);
      if (envelope.error) return { ok: false, error: envelope.error };
      if (!("result" in envelope))
        throw new RpcTransportError(`HTTP ${status}: malformed answer to ${call.method}`);
      return { ok: true, result: envelope.result };
    });
  }
}

function describe(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e.message ?? String(error)} (${cause})` : (e?.message ?? String(error));
}
