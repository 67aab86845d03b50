// Sealed values say which secret sealed them: the current secret opens its own, a previous one (a rotation) still
// opens what it sealed, values of the first format (no key id) are opened by whichever secret sealed them, and a
// value no secret of ours sealed is refused.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { deriveKeys, hmacHex, lookupHashes, seal, sealedByCurrent, unseal } from "./secrets.ts";

const secret = () => crypto.randomBytes(32).toString("base64");
const OLD = secret();
const NEW = secret();

/** A value in the format of before key ids: `v1.<iv>.<ciphertext>.<tag>`. */
function sealV1(key: Buffer, plaintext: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, body, cipher.getAuthTag()]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

describe("sealed values across a rotation", () => {
  const before = deriveKeys(OLD);
  const during = deriveKeys(NEW, [OLD]);
  const after = deriveKeys(NEW);

  it("name the secret that sealed them, and open with it", () => {
    const sealed = seal(during, "whsec_abc");
    expect(sealed.startsWith(`v2.${after.id}.`)).toBe(true);
    expect(sealedByCurrent(during, sealed)).toBe(true);
    expect(unseal(after, sealed)).toBe("whsec_abc");
    expect(() => unseal(before, sealed)).toThrow(/does not have/);
  });

  it("open with a previous secret until it is dropped", () => {
    const old = seal(before, "key-1");
    expect(sealedByCurrent(during, old)).toBe(false);
    expect(unseal(during, old)).toBe("key-1");
    expect(() => unseal(after, old)).toThrow(/does not have/);
  });

  it("of the first format (no key id) open with whichever secret sealed them", () => {
    const old = sealV1(before.encryption, "key-2");
    expect(unseal(during, old)).toBe("key-2");
    expect(sealedByCurrent(during, old)).toBe(false);
    expect(() => unseal(after, old)).toThrow(/does not have/);
  });

  it("give the lookup of the current secret first, then the previous ones'", () => {
    expect(lookupHashes(during, "k")).toEqual([hmacHex(after.lookup, "k"), hmacHex(before.lookup, "k")]);
    expect(deriveKeys(NEW, [NEW, OLD]).previous.map((k) => k.id)).toEqual([before.id]);
  });

  it("are refused when tampered with", () => {
    const sealed = seal(after, "x");
    const flipped = `${sealed.slice(0, -2)}${sealed.endsWith("A") ? "B" : "A"}${sealed.slice(-1)}`;
    expect(() => unseal(after, flipped)).toThrow();
    expect(() => unseal(after, "v9.a.b.c")).toThrow(/unknown encrypted value format/);
  });
});
