// How user ids are written in file names, the AVI's id_usuario and the text files' user column: ids accepted before
// keep their form, every other id gets a safe one (reversible where it can be), and no two ids share a form.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { isStoragePath } from "../platform/storage/index.ts";
import { aviUserId, textUserId, userStem } from "./user-ids.ts";

const UUID = "3f2a9c41-7d4b-4c8a-9e16-8b0d5f2a6c71";
const LONG = `cliente/Ñandú ${"ü".repeat(100)}|%..`.padEnd(255, "z");
const AVI_ID = /^[A-Z\d\-_]{1,30}$/; // the XSD's id_usuario_type

describe("userStem", () => {
  it("keeps plain ids (every id accepted before, UUIDs) as they are", () => {
    for (const id of ["user_01", "u-acc", "A", UUID, "x".repeat(64)]) expect(userStem(id)).toBe(id);
  });

  it("spells other ids of up to 36 bytes in hex, and names longer ones by their digest", () => {
    expect(userStem("ana@example.com")).toBe(`u.${Buffer.from("ana@example.com").toString("hex")}`);
    expect(Buffer.from(userStem("../etc").slice(2), "hex").toString()).toBe("../etc");
    expect(userStem("_leading")).toBe(`u.${Buffer.from("_leading").toString("hex")}`);
    const sha = crypto.createHash("sha256").update(LONG).digest("hex");
    expect(userStem(LONG)).toBe(`h.${sha.slice(0, 32)}`);
    expect(userStem("x".repeat(65))).toMatch(/^h\.[0-9a-f]{32}$/);
  });

  it("is a storage path segment with room for a 24-hour aviso's suffix, a version, a digest and an extension", () => {
    for (const id of ["u", UUID, "x".repeat(64), "ana@example.com", "é".repeat(18), LONG]) {
      const name = `${userStem(id)}.24h.ABCDEF01234567.v99.0123456789abcdef.xml`;
      expect(isStoragePath(`mx/1/2026-03/${name}`), name).toBe(true);
    }
  });
});

describe("aviUserId", () => {
  it("upper-cases the ids accepted before, as the files already filed name them", () => {
    expect(aviUserId("user_01")).toBe("USER_01");
    expect(aviUserId("u-acc")).toBe("U-ACC");
  });

  it("codes any other id as H- and 28 base32 characters of its SHA-256: what the XSD takes", () => {
    for (const id of [UUID, LONG, "ana@example.com", "x".repeat(31)]) {
      const code = aviUserId(id);
      expect(code).toMatch(/^H-[A-Z2-7]{28}$/);
      expect(code).toMatch(AVI_ID);
    }
    // The documented computation, from the id's UTF-8 bytes.
    const sha = crypto.createHash("sha256").update(UUID, "utf8").digest();
    let bits = "";
    for (const byte of sha) bits += byte.toString(2).padStart(8, "0");
    const base32 = [...bits.slice(0, 140).matchAll(/.{5}/g)]
      .map(([five]) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[Number.parseInt(five, 2)])
      .join("");
    expect(aviUserId(UUID)).toBe(`H-${base32}`);
  });

  it("codes a plain id that looks like a code too, so that no user takes another's id_usuario", () => {
    const code = aviUserId(UUID);
    expect(aviUserId(code)).not.toBe(code);
    expect(aviUserId(code.toLowerCase())).toMatch(/^H-/);
  });
});

describe("textUserId", () => {
  it("leaves printable ASCII without % or | as it is, and percent-encodes the rest, reversibly", () => {
    for (const id of ["user_01", UUID, "ana@example.com", "../etc"]) expect(textUserId(id)).toBe(id);
    expect(textUserId("ana maría|50%")).toBe("ana%20mar%C3%ADa%7C50%25");
    for (const id of ["ana maría|50%", LONG, "🦊 zorro"]) {
      expect(textUserId(id)).toMatch(/^[\x21-\x7e]+$/);
      expect(decodeURIComponent(textUserId(id))).toBe(id);
    }
  });
});
