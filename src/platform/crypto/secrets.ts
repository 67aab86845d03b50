// Symmetric cryptography derived from the one server secret (VIGIA_SECRET): encryption of stored secrets,
// HMAC lookups of API keys, signing of file URLs and of the audit log's heads. Each use gets its own HKDF-derived key. During a rotation the
// secrets it replaced (VIGIA_SECRET_PREVIOUS) still open, find and verify what they made (docs/operations.md,
// "Rotating the secret").
import crypto from "node:crypto";

export interface ServerKeys {
  /**
   * A short public name of the secret these keys derive from (not the secret, nor enough to find it), written into
   * every value they seal, so that a value says which secret sealed it.
   */
  id: string;
  /** AES-256-GCM key for values stored encrypted (API keys, webhook secrets). */
  encryption: Buffer;
  /** HMAC key for looking API keys up without storing them in clear. */
  lookup: Buffer;
  /** HMAC key for signed download URLs. */
  urlSigning: Buffer;
  /** HMAC key for the audit log's signed chain heads (src/projects/audit-head.ts). */
  auditHead: Buffer;
  /**
   * The keys of secrets in use before a rotation (VIGIA_SECRET_PREVIOUS): values they sealed are still opened,
   * API keys they looked up still found and URLs they signed still accepted; they never seal or sign anything new.
   */
  previous: readonly ServerKeys[];
  /**
   * Of a previous secret: when the rotation replaced it (ms), recorded as `secret@<ISO time>`; a URL it signed is
   * accepted only up to that time plus the URL lifetime (signed-url.ts). Unknown for an entry without a time.
   */
  retiredAt?: number;
}

/** A previous secret as configured: `secret`, or `secret@<ISO 8601 time of the rotation>`. */
export interface PreviousSecret {
  secret: string;
  retiredAt?: number;
}

const TIME_SUFFIX = /@(\d{4}-\d{2}-\d{2}(?:T[0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?)$/;

/**
 * Reads an entry of VIGIA_SECRET_PREVIOUS or of the data dir's `secret.previous`: the secret, then optionally `@`
 * and the ISO 8601 time it was replaced (`…@2026-11-26T19:30:00Z`). Throws on a time that is no time.
 */
export function parsePreviousSecret(entry: string): PreviousSecret {
  const match = TIME_SUFFIX.exec(entry);
  if (!match) return { secret: entry };
  const retiredAt = Date.parse(match[1] as string);
  if (!Number.isFinite(retiredAt))
    throw new Error(`"${match[1]}" is not an ISO 8601 time (the rotation time after @)`);
  return { secret: entry.slice(0, match.index), retiredAt };
}

/** A previous secret with the time of its rotation, as `parsePreviousSecret` reads it back. */
export function previousSecretEntry(secret: string, retiredAt: number): string {
  return `${secret}@${new Date(retiredAt).toISOString()}`;
}

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(
    crypto.hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), `vigia:${purpose}`, 32),
  );
}

/**
 * The keys of the current secret, and of the secrets it replaced (oldest last), each given as `secret` or
 * `secret@<ISO time of the rotation>` (parsePreviousSecret).
 */
export function deriveKeys(secret: string, previous: readonly string[] = []): ServerKeys {
  const keysOf = (s: string, older: readonly ServerKeys[], retiredAt?: number): ServerKeys => ({
    id: derive(s, "key-id").toString("hex").slice(0, 12),
    encryption: derive(s, "encryption"),
    lookup: derive(s, "api-key-lookup"),
    urlSigning: derive(s, "url-signing"),
    auditHead: derive(s, "audit-head"),
    previous: older,
    ...(retiredAt !== undefined ? { retiredAt } : {}),
  });
  const older = previous
    .map(parsePreviousSecret)
    .filter((p) => p.secret !== secret)
    .map((p) => keysOf(p.secret, [], p.retiredAt));
  return keysOf(secret, older);
}

/** The current keys, then each previous secret's. */
export function everyKey(keys: ServerKeys): ServerKeys[] {
  return [keys, ...keys.previous];
}

/**
 * Encrypts a value with the current secret: `v2.<key id>.<iv>.<ciphertext>.<tag>`, base64url parts (key id in hex).
 * Values sealed before key ids existed read `v1.<iv>.<ciphertext>.<tag>`; they are still opened.
 */
export function seal(keys: ServerKeys, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", keys.encryption, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v2", keys.id, ...[iv, body, cipher.getAuthTag()].map((p) => p.toString("base64url"))].join(".");
}

/** Opens a sealed value with the key that sealed it (its key id says which); throws when none of ours did. */
export function unseal(keys: ServerKeys, sealed: string): string {
  const parts = sealed.split(".");
  if (parts[0] === "v2" && parts.length === 5) {
    const [, id, iv, body, tag] = parts as [string, string, string, string, string];
    const key = everyKey(keys).find((k) => k.id === id);
    if (!key) throw new Error(`sealed with a secret this process does not have (key id ${id})`);
    return open(key.encryption, iv, body, tag);
  }
  if (parts[0] === "v1" && parts.length === 4) {
    const [, iv, body, tag] = parts as [string, string, string, string];
    for (const key of everyKey(keys)) {
      try {
        return open(key.encryption, iv, body, tag);
      } catch {}
    }
    throw new Error("sealed with a secret this process does not have");
  }
  throw new Error("unknown encrypted value format");
}

/** Whether the current secret sealed the value (a rotation re-seals the others). */
export function sealedByCurrent(keys: ServerKeys, sealed: string): boolean {
  return sealed.startsWith(`v2.${keys.id}.`);
}

function open(key: Buffer, iv: string, body: string, tag: string): string {
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** The lookup HMACs of a value under the current secret, then each previous one. */
export function lookupHashes(keys: ServerKeys, value: string): string[] {
  return everyKey(keys).map((k) => hmacHex(k.lookup, value));
}

export function hmacHex(key: Buffer, value: string): string {
  return crypto.createHmac("sha256", key).update(value, "utf8").digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function toBase62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out || "0";
}
