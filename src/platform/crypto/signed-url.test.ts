// Signed paths: valid until their expiry (day 29 of 30), expired after (day 31), invalid when the path, the expiry
// or one character of the signature changes, or when a part is missing.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKeys } from "./secrets.ts";
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
});
