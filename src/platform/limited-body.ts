// Reading a response body from outside the service with a size limit enforced while it streams: a declared
// Content-Length over the limit is refused before reading, and the read stops (and the connection is released) as
// soon as the bytes pass the limit, so a server that answers gigabytes costs at most the limit in memory.
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`answer larger than ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
}

/** The body's bytes, or BodyTooLargeError past `maxBytes`. */
export async function readLimitedBytes(response: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as UTF-8 text, or BodyTooLargeError past `maxBytes`. */
export async function readLimitedText(response: Response, maxBytes: number): Promise<string> {
  return (await readLimitedBytes(response, maxBytes)).toString("utf8");
}

/** Passes chunks through until `maxBytes` have gone by, then fails the stream (for bodies written to a file). */
export function byteLimit(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > maxBytes) controller.error(new BodyTooLargeError(maxBytes));
      else controller.enqueue(chunk);
    },
  });
}
