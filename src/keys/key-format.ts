// The API key format (docs/api.md, "Authentication and roles"): `vigia_` + 32 random bytes in base62 + a 6-character checksum, so that
// secret scanners can recognise a leaked key and a mistyped one is rejected without a database lookup.
import crypto from "node:crypto";
import { toBase62 } from "../platform/crypto/secrets.ts";

const PREFIX = "vigia_";
const CHECKSUM_LENGTH = 6;

function checksum(body: string): string {
  const digest = crypto.createHash("sha256").update(body).digest();
  return toBase62(digest.subarray(0, 6)).padStart(CHECKSUM_LENGTH, "0").slice(-CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  const body = toBase62(crypto.randomBytes(32)).padStart(43, "0");
  return `${PREFIX}${body}${checksum(body)}`;
}

/** True when the key has our shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!key.startsWith(PREFIX) || key.length < PREFIX.length + CHECKSUM_LENGTH + 20) return false;
  const rest = key.slice(PREFIX.length);
  if (!/^[0-9A-Za-z]+$/.test(rest)) return false;
  const body = rest.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === rest.slice(-CHECKSUM_LENGTH);
}
