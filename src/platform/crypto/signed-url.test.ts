// Signed paths: valid until their expiry (day 29 of 30), expired after (day 31), invalid when the path, the expiry
// or one character of the signature changes, or when a part is missing. A previous secret vouches only for expiries
// up to its rotation time plus the 30-day lifetime (or, without a recorded time, now plus the lifetime).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKeys, parsePreviousSecret, previousSecretEntry } from "./secrets.ts";
import { checkSignedPath, signPath } from "./signed-url.ts";

const KEY = deriveKeys(crypto.randomBytes(32).toString("base64"));
const DAY = 24 * 3600_000;
const T0 = Date.parse("2026-04-02T12:00:00Z");
const PATH = "mx/1/2026-03/u-1.xml";

const parts = (query: string) => Object.fromEntries(new URLSearchParams(query)) as Record<string, string>;

describe("signed paths", () => {
  const { expires, signature } = parts(signPath(KEY, PATH, T0 + 30 * DAY));

  it("are valid on day 29 and expired on day 31", () => {
    expect(checkSignedPath(KEY, PATH, expires, signature, T0 + 29 * DAY)).toBe("valid");
    expect(checkSignedPath(KEY, PATH, expires, signature, T0 + 31 * DAY)).toBe("expired");
  });

  it("are invalid when anything changes", () => {
    const flipped = `${signature?.slice(0, -1)}${signature?.endsWith("A") ? "B" : "A"}`;
    expect(checkSignedPath(KEY, PATH, expires, flipped, T0)).toBe("invalid");
    expect(checkSignedPath(KEY, "mx/1/2026-03/u-2.xml", expires, signature, T0)).toBe("invalid");
    expect(checkSignedPath(KEY, PATH, String(Number(expires) + 1), signature, T0)).toBe("invalid");
    expect(
      checkSignedPath(deriveKeys(crypto.randomBytes(32).toString("base64")), PATH, expires, signature, T0),
    ).toBe("invalid");
    expect(checkSignedPath(KEY, PATH, undefined, signature, T0)).toBe("invalid");
    expect(checkSignedPath(KEY, PATH, expires, undefined, T0)).toBe("invalid");
    expect(checkSignedPath(KEY, PATH, "1e12", signature, T0)).toBe("invalid");
  });
});

describe("signed paths across a rotation of the secret", () => {
  const OLD = crypto.randomBytes(32).toString("base64");
  const NEW = crypto.randomBytes(32).toString("base64");
  const { expires, signature } = parts(signPath(deriveKeys(OLD), PATH, T0 + 30 * DAY));

  it("stay valid while the secret that signed them is kept as a previous one, and not after", () => {
    expect(checkSignedPath(deriveKeys(NEW, [OLD]), PATH, expires, signature, T0)).toBe("valid");
    expect(checkSignedPath(deriveKeys(NEW), PATH, expires, signature, T0)).toBe("invalid");
  });

  it("are signed with the current secret", () => {
    const fresh = parts(signPath(deriveKeys(NEW, [OLD]), PATH, T0 + DAY));
    expect(checkSignedPath(deriveKeys(NEW), PATH, fresh.expires, fresh.signature, T0)).toBe("valid");
  });

  it("refuse a URL the old secret signs with an expiry past the rotation time plus 30 days", () => {
    const rotated = deriveKeys(NEW, [previousSecretEntry(OLD, T0)]);
    // Handed out before the rotation: served.
    expect(checkSignedPath(rotated, PATH, expires, signature, T0 + DAY)).toBe("valid");
    // Minted with the leaked old secret afterwards: refused, in 2100 as one day past the window.
    for (const until of [Date.parse("2100-01-01T00:00:00Z"), T0 + 31 * DAY]) {
      const forged = parts(signPath(deriveKeys(OLD), PATH, until));
      expect(checkSignedPath(rotated, PATH, forged.expires, forged.signature, T0 + DAY)).toBe("invalid");
      expect(checkSignedPath(deriveKeys(OLD), PATH, forged.expires, forged.signature, T0 + DAY)).toBe(
        "valid",
      );
    }
    // Without a recorded time, the window counts from now: 2100 is refused, a genuine URL is not.
    const untimed = deriveKeys(NEW, [OLD]);
    const far = parts(signPath(deriveKeys(OLD), PATH, Date.parse("2100-01-01T00:00:00Z")));
    expect(checkSignedPath(untimed, PATH, far.expires, far.signature, T0)).toBe("invalid");
    expect(checkSignedPath(untimed, PATH, expires, signature, T0)).toBe("valid");
  });
});

const NEW_SECRET = crypto.randomBytes(32).toString("base64");

describe("previous secrets with their rotation time", () => {
  it("read `secret@<ISO time>`, a bare secret, and refuse a time that is no time", () => {
    const secret = crypto.randomBytes(32).toString("base64");
    expect(parsePreviousSecret(previousSecretEntry(secret, T0))).toEqual({ secret, retiredAt: T0 });
    expect(parsePreviousSecret(`${secret}@2026-04-02T12:00:00+02:00`)).toEqual({
      secret,
      retiredAt: T0 - 2 * 3600_000,
    });
    expect(parsePreviousSecret(secret)).toEqual({ secret });
    expect(() => parsePreviousSecret(`${secret}@2026-13-45T99:00:00Z`)).toThrow(/not an ISO 8601 time/);
    expect(deriveKeys(NEW_SECRET, [previousSecretEntry(secret, T0)]).previous[0]?.retiredAt).toBe(T0);
  });
});
