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

/**
 * Whether a presented `expires` and `signature` grant `path` at `nowMs`: signed by the current secret or by one it
 * replaced (a URL handed out before a rotation stays valid for its 30 days while that secret is kept).
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
  const signedByOne = everyKey(keys).some((k) =>
    constantTimeEqual(signature, signatureOf(k.urlSigning, path, seconds)),
  );
  if (!signedByOne) return "invalid";
  return nowMs >= seconds * 1000 ? "expired" : "valid";
}
