// Symmetric cryptography derived from the one server secret (VIGIA_SECRET): encryption of stored secrets,
// HMAC lookups of API keys, signing of file URLs. Each use gets its own HKDF-derived key.
import crypto from "node:crypto";

export interface ServerKeys {
  /** AES-256-GCM key for values stored encrypted (API keys, webhook secrets). */
  encryption: Buffer;
  /** HMAC key for looking API keys up without storing them in clear. */
  lookup: Buffer;
  /** HMAC key for signed download URLs. */
  urlSigning: Buffer;
}

export function deriveKeys(secret: string): ServerKeys {
  const derive = (purpose: string) =>
    Buffer.from(
      crypto.hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), `vigia:${purpose}`, 32),
    );
  return {
    encryption: derive("encryption"),
    lookup: derive("api-key-lookup"),
    urlSigning: derive("url-signing"),
  };
}

/** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== "v1" || !iv || body === undefined || !tag)
    throw new Error("unknown encrypted value format");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
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
