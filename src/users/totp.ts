// The optional second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, as every authenticator app reads it), through
// the otpauth library. A code is accepted for its step and the one either side (a phone's clock a little off), and
// never twice: the last accepted step is kept, and a code of that step or an earlier one is refused.
import { Secret, TOTP } from "otpauth";

const PERIOD_S = 30;

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: "Vigía",
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD_S,
  });
}

/** A new secret (160 random bits, as RFC 4226 advises) and the otpauth:// URI an app reads from its QR code. */
export function newTotpSecret(email: string): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: totpOf(secret, email).toString() };
}

/**
 * The time step of a valid code not accepted before (after `lastStep`), or undefined when the code is wrong, too
 * old, or already used.
 */
export function acceptedStep(
  secretBase32: string,
  code: string,
  now: number,
  lastStep: number | null,
): number | undefined {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secretBase32, "").validate({ token, timestamp: now, window: 1 });
  if (delta === null) return undefined;
  const step = Math.floor(now / 1000 / PERIOD_S) + delta;
  return lastStep !== null && step <= lastStep ? undefined : step;
}

/** The code of a secret at a time (tests, and the CLI's check of a set-up). */
export function totpCode(secretBase32: string, now: number): string {
  return totpOf(secretBase32, "").generate({ timestamp: now });
}
