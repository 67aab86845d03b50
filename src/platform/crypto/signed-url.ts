// Signed file URLs: an HMAC over a path and an expiry time lets anyone holding the URL fetch that one file until
// then, without an API key. The signature covers both, so changing either (or any character of the signature)
// makes the URL invalid; the check runs in constant time.
import crypto from "node:crypto";
import { constantTimeEqual, everyKey, type ServerKeys } from "./secrets.ts";

const signatureOf = (key: Buffer, path: string, expires: number) =>
  crypto.createHmac("sha256", key).update(`${path}\n${expires}`, "utf8").digest("base64url");

/**
 * The query string (`expires=<unix seconds>&signature=<hmac>`) that grants `path` until `expiresAtMs`, signed with
 * the current secret.
 */
export function signPath(keys: ServerKeys, path: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `expires=${expires}&signature=${signatureOf(keys.urlSigning, path, expires)}`;
}

export type SignatureCheck = "valid" | "expired" | "invalid";

/** How long a signed URL the service hands out is valid: 30 days. */
export const SIGNED_URL_LIFETIME_MS = 30 * 24 * 3600_000;

/**
 * Whether a presented `expires` and `signature` grant `path` at `nowMs`: signed by the current secret or by one it
 * replaced. A previous secret only vouches for what it could have signed while it was current: an expiry no later
 * than its rotation time plus the URL lifetime (a URL handed out before a rotation stays valid for its 30 days);
 * without a recorded rotation time, no later than now plus the lifetime, which no URL it signed can exceed. So a
 * leaked old secret cannot mint a URL that outlives the rotation by more than 30 days.
 */
export function checkSignedPath(
  keys: ServerKeys,
  path: string,
  expires: string | undefined,
  signature: string | undefined,
  nowMs: number,
): SignatureCheck {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "invalid";
  const seconds = Number(expires);
  const signedByOne = everyKey(keys).some(
    (k) =>
      (k === keys || seconds * 1000 <= (k.retiredAt ?? nowMs) + SIGNED_URL_LIFETIME_MS) &&
      constantTimeEqual(signature, signatureOf(k.urlSigning, path, seconds)),
  );
  if (!signedByOne) return "invalid";
  return nowMs >= seconds * 1000 ? "expired" : "valid";
}
