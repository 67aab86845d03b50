// Signed file URLs: an HMAC over a path, an expiry time and the signing time lets anyone holding the URL fetch that
// one file until then, without an API key. The signature covers all three, so changing any (or any character of
// the signature) makes the URL invalid; the check runs in constant time.
//
// Across a rotation of the server secret, the secret it replaced vouches only for what it could have signed while it
// was current: URLs signed before its rotation, expiring within the URL lifetime after it, for files written before
// it (the file route compares the file's write time, which only the server knows, with `retiredAt`: a forged
// signing time can't reach a file written since). So a leaked old secret grants nothing written after the rotation,
// and nothing at all once the rotation time plus the lifetime has passed, a date fixed when the secret was rotated.
// A previous secret without a recorded rotation time vouches for no URL: its window can't be dated.
import crypto from "node:crypto";
import { constantTimeEqual, everyKey, type ServerKeys } from "./secrets.ts";

/** The signed text: URLs made before the signing time was carried sign the path and expiry alone. */
const signatureOf = (key: Buffer, path: string, expires: number, signed: number | undefined) =>
  crypto
    .createHmac("sha256", key)
    .update(signed === undefined ? `${path}\n${expires}` : `${path}\n${expires}\n${signed}`, "utf8")
    .digest("base64url");

/**
 * The query string (`expires=<unix seconds>&signed=<unix seconds>&signature=<hmac>`) that grants `path` until
 * `expiresAtMs`, signed with the current secret at `signedAtMs`.
 */
export function signPath(keys: ServerKeys, path: string, expiresAtMs: number, signedAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  const signed = Math.floor(signedAtMs / 1000);
  return `expires=${expires}&signed=${signed}&signature=${signatureOf(keys.urlSigning, path, expires, signed)}`;
}

/**
 * Whether a URL grants its path: `valid` with the secret that signed it (`retiredAt` set when it is one a rotation
 * replaced, which the caller compares with the file's write time), `expired`, or `invalid`.
 */
export type SignatureCheck =
  | { result: "valid"; retiredAt?: number }
  | { result: "expired" }
  | { result: "invalid" };

/** How long a signed URL the service hands out is valid: 30 days. */
export const SIGNED_URL_LIFETIME_MS = 30 * 24 * 3600_000;

const UNIX_SECONDS = /^\d{1,12}$/;

/**
 * Whether a presented `expires`, `signed` (absent from URLs made before it was carried) and `signature` grant `path`
 * at `nowMs`: signed by the current secret, or by one a rotation replaced within the bounds above.
 */
export function checkSignedPath(
  keys: ServerKeys,
  path: string,
  query: { expires?: string | undefined; signed?: string | undefined; signature?: string | undefined },
  nowMs: number,
): SignatureCheck {
  const { expires, signed, signature } = query;
  if (!expires || !signature || !UNIX_SECONDS.test(expires)) return { result: "invalid" };
  if (signed !== undefined && !UNIX_SECONDS.test(signed)) return { result: "invalid" };
  const expiresMs = Number(expires) * 1000;
  const signedSeconds = signed === undefined ? undefined : Number(signed);
  const signedMs = signedSeconds === undefined ? undefined : signedSeconds * 1000;
  // No URL the service hands out lives longer than the lifetime from its signing.
  if (signedMs !== undefined && expiresMs > signedMs + SIGNED_URL_LIFETIME_MS) return { result: "invalid" };
  const signer = everyKey(keys).find((k) => {
    if (k !== keys) {
      if (k.retiredAt === undefined) return false;
      if (signedMs !== undefined && signedMs > k.retiredAt) return false;
      if (expiresMs > k.retiredAt + SIGNED_URL_LIFETIME_MS) return false;
    }
    return constantTimeEqual(signature, signatureOf(k.urlSigning, path, Number(expires), signedSeconds));
  });
  if (!signer) return { result: "invalid" };
  if (nowMs >= expiresMs) return { result: "expired" };
  return signer === keys ? { result: "valid" } : { result: "valid", retiredAt: signer.retiredAt as number };
}
