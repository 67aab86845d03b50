// The one way the service calls out to URLs that configuration names (integrators' servers, explorers, LLMs):
// - http and https only, no credentials in the URL;
// - the host name is resolved once, every address it resolves to is checked against the address policy
//   (address-policy.ts: loopback and private ranges refused unless `allowPrivate`; link-local, metadata, multicast,
//   documentation and reserved ones always), and the
//   connection is pinned to the checked address, so a second DNS answer cannot send it elsewhere (DNS rebinding);
// - redirects are not followed (a 3xx is an answer like any other; the caller decides what it means), except where
//   a call says its source documents one (`sameHostRedirects`), and then only to the same host over https;
// - a connect timeout, a total timeout that counts from the start of the call, the name's resolution included (a
//   name that never resolves fails in time; lookups of one name at once share one resolution, so a stuck name
//   holds one resolver thread, not one per call), and a response size limit enforced while the body streams in.
// Failures are OutboundError with a kind and a message fit to show the operator (never a stack trace).
import dns from "node:dns";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { allowedWithPrivate, refusedRange } from "./address-policy.ts";

export type OutboundErrorKind =
  | "invalid_url"
  | "refused"
  | "dns"
  | "connect_timeout"
  | "timeout"
  | "too_large"
  | "network";

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "OutboundError";
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundOptions {
  /** Reach loopback and private addresses too (VIGIA_ALLOW_PRIVATE_OUTBOUND: tests, on-premise); never link-local. */
  allowPrivate: boolean;
  connectTimeoutMs: number;
  /** From the start of the call to the last byte of the answer. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** How a host name is resolved (every address it has); the system resolver by default. */
  resolve: (hostname: string) => Promise<ResolvedAddress[]>;
  userAgent: string;
}

export const DEFAULT_OUTBOUND_OPTIONS: OutboundOptions = {
  allowPrivate: false,
  connectTimeoutMs: 5_000,
  timeoutMs: 10_000,
  maxResponseBytes: 1024 * 1024,
  resolve: async (hostname) =>
    (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
      address: a.address,
      family: a.family === 6 ? 6 : 4,
    })),
  userAgent: "Vigia",
};

export interface OutboundRequest {
  method: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Overrides the client's total timeout for this call. */
  timeoutMs?: number;
  /** Overrides the client's response size limit for this call. */
  maxResponseBytes?: number;
  /** A 2xx body is written to this file as it streams in, not kept in memory (`body` is then empty). */
  toFile?: string;
  /**
   * How many redirects to follow, for a source that documents one: each only to the same host over https (checked
   * and pinned like the first call); any other redirect is refused. 0 (the default): none, a 3xx is the answer.
   */
  sameHostRedirects?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address the call was made to. */
  address: string;
  ms: number;
}

export class OutboundClient {
  readonly options: OutboundOptions;
  /** resolutions in flight, by host name, with when each began: calls to one name share one */
  readonly #resolving = new Map<string, { since: number; addresses: Promise<ResolvedAddress[]> }>();

  constructor(options: Partial<OutboundOptions> = {}) {
    this.options = { ...DEFAULT_OUTBOUND_OPTIONS, ...options };
  }

  /**
   * The addresses of `host`: a resolution already in flight is shared, unless it has run longer than `timeoutMs`
   * (it is stuck: a new one is tried, so that the name can resolve again once its DNS answers).
   */
  #resolve(host: string, timeoutMs: number): Promise<ResolvedAddress[]> {
    const now = performance.now();
    const found = this.#resolving.get(host);
    if (found && now - found.since <= timeoutMs) return found.addresses;
    const entry = {
      since: now,
      addresses: this.options.resolve(host).finally(() => {
        if (this.#resolving.get(host) === entry) this.#resolving.delete(host);
      }),
    };
    this.#resolving.set(host, entry);
    return entry.addresses;
  }

  /**
   * The URL parsed and its host resolved to the address the call will be pinned to; throws OutboundError, a "dns"
   * one when the name has not resolved within `timeoutMs`.
   */
  async target(
    rawUrl: string,
    timeoutMs = this.options.timeoutMs,
  ): Promise<{ url: URL; pinned: ResolvedAddress }> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new OutboundError("invalid_url", "not a valid URL");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new OutboundError("invalid_url", `only http and https URLs are called, not ${url.protocol}`);
    if (url.username || url.password)
      throw new OutboundError("invalid_url", "a URL with credentials in it is not called");
    const host = url.hostname.replace(/^\[|\]$/g, "");
    let addresses: ResolvedAddress[];
    if (net.isIP(host)) {
      addresses = [{ address: host, family: net.isIP(host) === 6 ? 6 : 4 }];
    } else {
      let timer: NodeJS.Timeout | undefined;
      try {
        addresses = await Promise.race([
          this.#resolve(host, timeoutMs),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new OutboundError("dns", `${host} did not resolve within ${timeoutMs} ms`)),
              timeoutMs,
            );
          }),
        ]);
      } catch (error) {
        if (error instanceof OutboundError) throw error;
        const code = (error as NodeJS.ErrnoException).code;
        throw new OutboundError("dns", `${host} could not be resolved${code ? ` (${code})` : ""}`);
      } finally {
        clearTimeout(timer);
      }
      if (addresses.length === 0) throw new OutboundError("dns", `${host} has no address`);
    }
    for (const { address } of addresses) {
      const range = refusedRange(address);
      if (range === undefined || (this.options.allowPrivate && allowedWithPrivate(range))) continue;
      const where = `${host} is ${address === host ? "" : `resolved to ${address}, `}a ${range} address`;
      throw new OutboundError(
        "refused",
        allowedWithPrivate(range)
          ? `${where}: outbound calls to private networks are refused (VIGIA_ALLOW_PRIVATE_OUTBOUND allows them)`
          : `${where}: outbound calls to it are always refused`,
      );
    }
    return { url, pinned: addresses[0] as ResolvedAddress };
  }

  async request(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const budgetMs = req.timeoutMs ?? this.options.timeoutMs;
    let current = req;
    for (let hop = 0; ; hop++) {
      const response = await this.#once(current);
      const location = response.headers.location;
      if (!(req.sameHostRedirects && REDIRECTS.has(response.status) && location)) return response;
      const from = new URL(current.url);
      let to: URL;
      try {
        to = new URL(location, from);
      } catch {
        throw new OutboundError("refused", `${from.host} redirected to an invalid URL`);
      }
      if (to.protocol !== "https:" || from.protocol !== "https:" || to.host !== from.host)
        throw new OutboundError(
          "refused",
          `${from.host} redirected to ${to.protocol}//${to.host}: only redirects to the same host over https are followed`,
        );
      if (hop >= req.sameHostRedirects)
        throw new OutboundError("refused", `more than ${req.sameHostRedirects} redirects`);
      const left = budgetMs - (performance.now() - started);
      if (left <= 0) throw new OutboundError("timeout", `no complete answer within ${budgetMs} ms`);
      current = {
        ...req,
        url: to.toString(),
        timeoutMs: left,
        ...(response.status === 303 ? { method: "GET", body: undefined } : {}),
      };
    }
  }

  /** One call, no redirect followed. */
  async #once(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const budgetMs = req.timeoutMs ?? this.options.timeoutMs;
    const { url, pinned } = await this.target(req.url, budgetMs);
    // The resolution spent part of the budget: the rest is the call's.
    const timeoutMs = Math.max(1, Math.round(budgetMs - (performance.now() - started)));
    const body = req.body === undefined ? undefined : Buffer.from(req.body);
    const transport = url.protocol === "https:" ? https : http;
    const host = url.hostname.replace(/^\[|\]$/g, "");
    return await new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      let file: fs.WriteStream | undefined;
      const fail = (error: OutboundError) => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        request.destroy();
        file?.destroy();
        reject(error);
      };
      const request = transport.request(
        url,
        {
          method: req.method,
          agent: false,
          headers: {
            "user-agent": this.options.userAgent,
            ...(body ? { "content-length": String(body.length) } : {}),
            ...req.headers,
          },
          // Pinned: the connection goes to the address checked above, whatever the resolver answers now.
          lookup: ((
            _hostname: string,
            options: { all?: boolean },
            callback: (...args: unknown[]) => void,
          ) => {
            if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
            else callback(null, pinned.address, pinned.family);
          }) as never,
          ...(url.protocol === "https:" && !net.isIP(host) ? { servername: host } : {}),
        },
        (response) => {
          const max = req.maxResponseBytes ?? this.options.maxResponseBytes;
          const declared = Number(response.headers["content-length"]);
          if (Number.isFinite(declared) && declared > max) {
            fail(tooLarge(max));
            return;
          }
          const status = response.statusCode ?? 0;
          file =
            req.toFile !== undefined && status >= 200 && status < 300
              ? fs.createWriteStream(req.toFile)
              : undefined;
          file?.on("error", (error) =>
            fail(
              new OutboundError(
                "network",
                `the answer could not be written (${(error as NodeJS.ErrnoException).code ?? error.message})`,
              ),
            ),
          );
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > max) fail(tooLarge(max));
            else if (!file) chunks.push(chunk);
            else if (!file.write(chunk)) {
              response.pause();
              file.once("drain", () => response.resume());
            }
          });
          const done = () => {
            if (settled) return;
            settled = true;
            clearTimeout(total);
            resolve({
              status,
              headers: response.headers,
              body: Buffer.concat(chunks),
              address: pinned.address,
              ms: performance.now() - started,
            });
          };
          response.on("end", () => {
            if (file) file.end(done);
            else done();
          });
          response.on("error", (error) => fail(networkError(error)));
        },
      );
      const total = setTimeout(
        () => fail(new OutboundError("timeout", `no complete answer within ${budgetMs} ms`)),
        timeoutMs,
      );
      request.on("socket", (socket) => {
        if (!socket.connecting) return;
        const connect = setTimeout(
          () =>
            fail(
              new OutboundError(
                "connect_timeout",
                `no connection within ${this.options.connectTimeoutMs} ms`,
              ),
            ),
          this.options.connectTimeoutMs,
        );
        socket.once("connect", () => clearTimeout(connect));
        socket.once("close", () => clearTimeout(connect));
      });
      request.on("error", (error) => fail(networkError(error)));
      if (req.signal) {
        if (req.signal.aborted) fail(new OutboundError("timeout", "the call was cancelled"));
        req.signal.addEventListener(
          "abort",
          () => fail(new OutboundError("timeout", "the call was cancelled")),
          {
            once: true,
          },
        );
      }
      request.end(body);
    });
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const tooLarge = (max: number) => new OutboundError("too_large", `the answer is larger than ${max} bytes`);

function networkError(error: Error): OutboundError {
  if (error instanceof OutboundError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const what =
    code === "ECONNREFUSED"
      ? "the connection was refused"
      : code === "ECONNRESET"
        ? "the connection was reset"
        : code === "EHOSTUNREACH" || code === "ENETUNREACH"
          ? "the host is unreachable"
          : code?.startsWith("ERR_TLS") || code?.includes("CERT")
            ? `the TLS handshake failed (${code})`
            : `the call failed${code ? ` (${code})` : ""}`;
  return new OutboundError("network", what);
}
