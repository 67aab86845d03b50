// Signed paths: valid until their expiry (day 29 of 30), expired after (day 31), invalid when the path, the expiry,
// the signing time or one character of the signature changes, or when a part is missing. Across a rotation a
// previous secret vouches only for URLs signed before its rotation time, expiring within 30 days of it, and says
// so (`retiredAt`, which the file route compares with the file's write time); without a recorded time, for none.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKeys, parsePreviousSecret, previousSecretEntry } from "./secrets.ts";
import { checkSignedPath, signPath } from "./signed-url.ts";

const KEY = deriveKeys(crypto.randomBytes(32).toString("base64"));
const DAY = 24 * 3600_000;
const T0 = Date.parse("2026-04-02T12:00:00Z");
const PATH = "mx/1/2026-03/u-1.xml";

const parts = (query: string) => Object.fromEntries(new URLSearchParams(query)) as Record<string, string>;
const result = (keys: typeof KEY, query: Record<string, string | undefined>, now: number, path = PATH) =>
  checkSignedPath(keys, path, query, now).result;

describe("signed paths", () => {
  const signed = parts(signPath(KEY, PATH, T0 + 30 * DAY, T0));

  it("carry the signing time; are valid on day 29 and expired on day 31", () => {
    expect(signed.signed).toBe(String(T0 / 1000));
    expect(checkSignedPath(KEY, PATH, signed, T0 + 29 * DAY)).toEqual({ result: "valid" });
    expect(result(KEY, signed, T0 + 31 * DAY)).toBe("expired");
  });

  it("are invalid when anything changes", () => {
    const { signature, expires } = signed;
    const flipped = `${signature?.slice(0, -1)}${signature?.endsWith("A") ? "B" : "A"}`;
    expect(result(KEY, { ...signed, signature: flipped }, T0)).toBe("invalid");
    expect(result(KEY, signed, T0, "mx/1/2026-03/u-2.xml")).toBe("invalid");
    expect(result(KEY, { ...signed, expires: String(Number(expires) + 1) }, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, signed: String(Number(signed.signed) - 1) }, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, signed: undefined }, T0)).toBe("invalid");
    expect(result(deriveKeys(crypto.randomBytes(32).toString("base64")), signed, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, expires: undefined }, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, signature: undefined }, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, expires: "1e12" }, T0)).toBe("invalid");
    expect(result(KEY, { ...signed, signed: "soon" }, T0)).toBe("invalid");
  });

  it("never outlive the lifetime from their signing, even under the current secret", () => {
    const long = parts(signPath(KEY, PATH, T0 + 31 * DAY, T0));
    expect(result(KEY, long, T0)).toBe("invalid");
  });

  it("made before the signing time was carried (path and expiry alone) stay valid under the current secret", () => {
    const expires = Math.floor((T0 + 30 * DAY) / 1000);
    const signature = crypto
      .createHmac("sha256", KEY.urlSigning)
      .update(`${PATH}\n${expires}`)
      .digest("base64url");
    expect(result(KEY, { expires: String(expires), signature }, T0)).toBe("valid");
  });
});

describe("signed paths across a rotation of the secret", () => {
  const OLD = crypto.randomBytes(32).toString("base64");
  const NEW = crypto.randomBytes(32).toString("base64");
  const ROTATED = T0 + DAY;
  const rotated = deriveKeys(NEW, [previousSecretEntry(OLD, ROTATED)]);
  const before = parts(signPath(deriveKeys(OLD), PATH, T0 + 30 * DAY, T0));

  it("signed by the old secret before its rotation: valid, saying when it was retired; not once it is dropped", () => {
    expect(checkSignedPath(rotated, PATH, before, ROTATED + DAY)).toEqual({
      result: "valid",
      retiredAt: ROTATED,
    });
    expect(result(deriveKeys(NEW), before, ROTATED + DAY)).toBe("invalid");
  });

  it("are signed with the current secret", () => {
    const fresh = parts(signPath(rotated, PATH, ROTATED + 2 * DAY, ROTATED + DAY));
    expect(checkSignedPath(deriveKeys(NEW), PATH, fresh, ROTATED + DAY)).toEqual({ result: "valid" });
  });

  it("refuse what the old secret signs after its rotation, or to expire past the rotation plus 30 days", () => {
    // Signed after the rotation (a leaked old secret), for a day: refused before any file is looked up.
    const late = parts(signPath(deriveKeys(OLD), PATH, ROTATED + 3 * DAY, ROTATED + 2 * DAY));
    expect(result(rotated, late, ROTATED + 2 * DAY)).toBe("invalid");
    expect(result(deriveKeys(OLD), late, ROTATED + 2 * DAY)).toBe("valid");
    // Backdated to before the rotation, but expiring past its window: refused, in 2100 as one day past it.
    for (const until of [Date.parse("2100-01-01T00:00:00Z"), ROTATED + 31 * DAY]) {
      const forged = parts(signPath(deriveKeys(OLD), PATH, until, until - 30 * DAY));
      expect(result(rotated, { ...forged, signed: String(T0 / 1000) }, ROTATED + DAY)).toBe("invalid");
    }
    // The window is a date fixed at the rotation: 30 days after it, the old secret vouches for nothing.
    const last = parts(signPath(deriveKeys(OLD), PATH, ROTATED + 30 * DAY, ROTATED));
    expect(result(rotated, last, ROTATED + 30 * DAY - 1)).toBe("valid");
    expect(result(rotated, last, ROTATED + 30 * DAY)).toBe("expired");
  });

  it("a previous secret without a rotation time vouches for no URL: its window can't be dated", () => {
    const untimed = deriveKeys(NEW, [OLD]);
    expect(result(untimed, before, T0)).toBe("invalid");
    // It still opens what it sealed (re-sealing needs it).
    expect(untimed.previous[0]?.retiredAt).toBeUndefined();
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
