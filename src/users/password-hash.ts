// Password hashes: scrypt (memory-hard) with explicit parameters and a salt of its own per hash, stored with both so
// the cost can be raised later (a hash made under older parameters still verifies, and is rehashed at the next
// sign-in). Compared in constant time.
import crypto from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * N = 2^15, r = 8, p = 1: 32 MiB and about 50-100 ms a hash on a server core, OWASP's recommended minimum for
 * scrypt; maxmem leaves room for it (node's default of 32 MiB is just short).
 */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

const maxmemOf = (p: { N: number; r: number }) => 128 * p.N * p.r * 2;

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword(password: string, params = SCRYPT_PARAMS): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password.normalize("NFC"), salt, KEY_LENGTH, {
    ...params,
    maxmem: maxmemOf(params),
  });
  return [
    "scrypt",
    params.N,
    params.r,
    params.p,
    salt.toString("base64url"),
    hash.toString("base64url"),
  ].join("$");
}

/** Whether the password is the one hashed; false for a stored value of another form. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (![params.N, params.r, params.p].every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scrypt(password.normalize("NFC"), Buffer.from(salt, "base64url"), expected.length, {
    ...params,
    maxmem: maxmemOf(params),
  });
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with weaker parameters than today's (it is rehashed at the next sign-in). */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  return (
    scheme !== "scrypt" ||
    Number(n) < SCRYPT_PARAMS.N ||
    Number(r) < SCRYPT_PARAMS.r ||
    Number(p) < SCRYPT_PARAMS.p
  );
}

/**
 * A hash of a random password, checked when an e-mail has no account or no password, so a sign-in takes as long
 * whether or not the account exists.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return decoy;
}
