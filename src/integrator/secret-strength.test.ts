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

  it("refuses the digest of a common password and keyboard walks, saying how to make a good secret", () => {
    const digest = (algorithm: string, text: string) => crypto.createHash(algorithm).update(text).digest();
    const cases: [Parameters<typeof weakSecret>, RegExp][] = [
      // MD5 of "password": 32 hex characters, the original service's form, that the entropy estimate passes.
      [["hmac-canonical", "5f4dcc3b5aa765d61d8327deb882cf99"], /MD5 digest of a common password/],
      [["hmac-canonical", "5F4DCC3B5AA765D61D8327DEB882CF99"], /MD5 digest of a common password/],
      [["hmac-canonical", digest("sha1", "letmein").toString("hex")], /SHA1 digest/],
      [["hmac-canonical", digest("sha256", "iloveyou").toString("hex")], /SHA256 digest/],
      [["hmac-canonical", digest("sha512", "qwerty123").toString("hex")], /SHA512 digest/],
      [["standard-webhooks", `whsec_${digest("sha256", "password").toString("base64")}`], /SHA256 digest/],
      [
        [
          "standard-webhooks",
          `whsec_${Buffer.from(digest("md5", "dragon").toString("hex")).toString("base64")}`,
        ],
        /MD5 digest/,
      ],
      [["hmac-canonical", "qwertyuiopasdfghjklzxcvbnm123456"], /keyboard walk .* on qwerty/],
      [["hmac-canonical", "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,"], /keyboard walk/],
      [["hmac-canonical", "!QAZ@WSX#EDC$RFV%TGB^YHN&UJM*IK<"], /keyboard walk/],
      [["hmac-canonical", "asdfghjkl;'zxcvbnm,./qwertyuiop["], /keyboard walk/],
      [["hmac-canonical", "zaq12wsxcde34rfvbgt56yhnmju78ik,"], /keyboard walk/],
      [["hmac-canonical", "azertyuiopqsdfghjklmwxcvbn123456"], /keyboard walk/],
      [["hmac-canonical", "74125896321478965412369874521456"], /keyboard walk .* on keypad/],
      [
        ["standard-webhooks", `whsec_${Buffer.from("1qaz2wsx3edc4rfv5tgb6yhn").toString("base64")}`],
        /keyboard walk/,
      ],
    ];
    for (const [[scheme, secret], reason] of cases) {
      const why = weakSecret(scheme, secret);
      expect(why, secret).toMatch(reason);
      expect(why, secret).toMatch(/openssl rand/);
    }
  });

  it("estimates 32 random hex characters far above the floor", () => {
    const bits = entropyBits(crypto.randomBytes(16).toString("hex"));
    expect(bits).toBeGreaterThan(MIN_ENTROPY_BITS);
    expect(entropyBits("a".repeat(40))).toBe(0);
  });
});
