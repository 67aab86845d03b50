// Answers that leave before a request reaches a route, in the same error envelope as every other error
// (`{success:false, error, message}`, docs/api.md): what Node's HTTP parser refuses (a URL or headers over its
// size limit, a malformed request line, a request that took too long to arrive), written on the raw socket since
// no reply exists yet; and requests that arrive while the server is shutting down.

import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { AppError } from "../errors.ts";

interface ClientErrorAnswer {
  status: number;
  message: string;
}

/** What the parser's error code means for the client; undefined when there is nobody left to answer. */
export function clientErrorAnswer(code: string | undefined): ClientErrorAnswer {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      // Node's parser counts the request line with the headers, so an over-long URL lands here too.
      return { status: 431, message: "The request's URL and headers are larger than the server accepts" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "The request took too long to arrive" };
    default:
      return { status: 400, message: "Malformed HTTP request" };
  }
}

/** fastify's `clientErrorHandler`: the envelope instead of fastify's own `{error, message, statusCode}` body. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset connection is gone already (Node's documentation of the 'clientError' event).
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const { status, message } = clientErrorAnswer(error.code);
  // The status says what went wrong at the HTTP level; the code is one of the envelope's (a request fault).
  const body = JSON.stringify(new AppError("invalid_request", message).toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The body and headers of a request refused because the server is shutting down. */
export function shuttingDown(): { status: number; headers: Record<string, string>; body: object } {
  const error = new AppError("unavailable", "The server is shutting down; retry on another instance", {
    retryAfter: 1,
  });
  return {
    status: error.status,
    headers: { connection: "close", "retry-after": String(error.retryAfter) },
    body: error.toBody(),
  };
}
