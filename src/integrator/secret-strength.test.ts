// The check of a webhook secret an admin brings (secret-strength.ts): random secrets of either scheme pass, every
// time; secrets of the wrong shape, length or too predictable are refused with the reason.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { entropyBits, MIN_ENTROPY_BITS, weakSecret } from "./secret-strength.ts";

describe("weakSecret", () => {
  it("passes 20,000 random secrets of each scheme", () => {
    for (let i = 0; i < 20_000; i++) {
      expect(weakSecret("hmac-canonical", crypto.randomBytes(16).toString("hex"))).toBeUndefined();
      expect(
        weakSecret("standard-webhooks", `whsec_${crypto.randomBytes(24).toString("base64")}`),
      ).toBeUndefined();
    }
    // Longer and other alphabets pass too.
    expect(weakSecret("hmac-canonical", crypto.randomBytes(48).toString("base64url"))).toBeUndefined();
    expect(
      weakSecret("standard-webhooks", `whsec_${crypto.randomBytes(64).toString("base64")}`),
    ).toBeUndefined();
  });

  it("refuses what a person would type or a program would repeat, saying why", () => {
    const cases: [Parameters<typeof weakSecret>, RegExp][] = [
      [["hmac-canonical", "short"], /32 to 256 characters.*this one is 5/],
      [["hmac-canonical", "x".repeat(257)], /this one is 257/],
      [["hmac-canonical", "abcdefabcdefabcdefabcdefabcdefab"], /repeats a unit of 6 characters/],
      [["hmac-canonical", "0123456789abcdefghijklmnopqrstuv"], /equal or consecutive/],
      [["hmac-canonical", "0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f00"], /too predictable: about 31 bits/],
      [["hmac-canonical", "ñ".repeat(32)], /printable ASCII/],
      [["standard-webhooks", crypto.randomBytes(16).toString("hex")], /`whsec_`/],
      [["standard-webhooks", "whsec_not*base64*at*all*but*long*enough"], /not base64/],
      [
        ["standard-webhooks", `whsec_${crypto.randomBytes(16).toString("base64")}`],
        /24 to 64 bytes; this one is 16/,
      ],
      [["standard-webhooks", `whsec_${Buffer.alloc(32, 7).toString("base64")}`], /repeats a unit of 1 byte:/],
    ];
    for (const [[scheme, secret], reason] of cases)
      expect(weakSecret(scheme, secret), secret).toMatch(reason);
  });

  it("estimates 32 random hex characters far above the floor", () => {
    const bits = entropyBits(crypto.randomBytes(16).toString("hex"));
    expect(bits).toBeGreaterThan(MIN_ENTROPY_BITS);
    expect(entropyBits("a".repeat(40))).toBe(0);
  });
});
