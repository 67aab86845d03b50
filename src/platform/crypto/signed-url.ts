// Signed file URLs: an HMAC over a path and an expiry time lets anyone holding the URL fetch that one file until
// then, without an API key. The signature covers both, so changing either (or any character of the signature)
// makes the URL invalid; the check runs in constant time.
import crypto from "node:crypto";
import { constantTimeEqual } from "./secrets.ts";

const signatureOf = (key: Buffer, path: string, expires: number) =>
  crypto.createHmac("sha256", key).update(`${path}\n${expires}`, "utf8").digest("base64url");

/** The query string (`expires=<unix seconds>&signature=<hmac>`) that grants `path` until `expiresAtMs`. */
export function signPath(key: Buffer, path: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `expires=${expires}&signature=${signatureOf(key, path, expires)}`;
}

export type SignatureCheck = "valid" | "expired" | "invalid";

/** Whether a presented `expires` and `signature` grant `path` at `nowMs`. */
export function checkSignedPath(
  key: Buffer,
  path: string,
  expires: string | undefined,
  signature: string | undefined,
  nowMs: number,
): SignatureCheck {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return "invalid";
  const seconds = Number(expires);
  if (!constantTimeEqual(signature, signatureOf(key, path, seconds))) return "invalid";
  return nowMs >= seconds * 1000 ? "expired" : "valid";
}
