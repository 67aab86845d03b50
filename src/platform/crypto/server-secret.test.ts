// The one rule for the server secret, for every command: VIGIA_SECRET when given (32 random bytes at least);
// otherwise generated once into the embedded database's data dir and read back on later starts; required on
// PostgreSQL and with an in-memory database.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverSecret } from "./server-secret.ts";

describe("serverSecret", () => {
  it("takes VIGIA_SECRET, and refuses one with fewer than 32 random bytes, saying how to make one", () => {
    const given = crypto.randomBytes(32).toString("base64");
    expect(serverSecret({ secret: given, dataDir: "memory://", databaseUrl: "postgres://x" })).toBe(given);
    const hex = crypto.randomBytes(32).toString("hex");
    expect(serverSecret({ secret: hex, dataDir: "memory://", databaseUrl: "postgres://x" })).toBe(hex);
    for (const weak of [
      "short",
      "test-secret-0123456789abcdef", // 28 base64url characters: 21 bytes
      crypto.randomBytes(31).toString("hex"),
      "a".repeat(64),
      "abababababababababababababababababababababababababab",
      "password".repeat(8),
    ])
      expect(() => serverSecret({ secret: weak, dataDir: "/nowhere", databaseUrl: undefined }), weak).toThrow(
        "must carry at least 32 random bytes",
      );
    expect(() => serverSecret({ secret: "short", dataDir: "/nowhere", databaseUrl: undefined })).toThrow(
      "openssl rand -base64 32",
    );
  });

  it("checks the generated secret file when it reads it", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-secret-"));
    try {
      fs.writeFileSync(path.join(dataDir, "secret"), "");
      expect(() => serverSecret({ secret: undefined, dataDir, databaseUrl: undefined })).toThrow(
        `The secret in ${path.join(dataDir, "secret")} must carry`,
      );
      expect(fs.readdirSync(dataDir)).toEqual(["secret"]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("generates one into the data dir once (mode 0600) and reads it back", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-secret-"));
    try {
      const first = serverSecret({
        secret: undefined,
        dataDir: path.join(dataDir, "data"),
        databaseUrl: undefined,
      });
      expect(first.length).toBeGreaterThanOrEqual(43);
      expect(fs.statSync(path.join(dataDir, "data")).mode & 0o777).toBe(0o700);
      expect(
        serverSecret({ secret: undefined, dataDir: path.join(dataDir, "data"), databaseUrl: undefined }),
      ).toBe(first);
      expect(fs.statSync(path.join(dataDir, "data", "secret")).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(path.join(dataDir, "data"))).toEqual(["secret"]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("is required on PostgreSQL and with an in-memory database", () => {
    expect(() =>
      serverSecret({ secret: undefined, dataDir: "./data", databaseUrl: "postgres://h/db" }),
    ).toThrow("required when DATABASE_URL is set");
    expect(() => serverSecret({ secret: undefined, dataDir: "memory://", databaseUrl: undefined })).toThrow(
      "in-memory database",
    );
  });
});
