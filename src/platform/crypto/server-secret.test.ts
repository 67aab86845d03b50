// The one rule for the server secret, for every command: VIGIA_SECRET when given (16 characters at least);
// otherwise generated once into the embedded database's data dir and read back on later starts; required on
// PostgreSQL and with an in-memory database.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverSecret } from "./server-secret.ts";

describe("serverSecret", () => {
  it("takes VIGIA_SECRET, and refuses a short one", () => {
    const given = "0123456789abcdef-given";
    expect(serverSecret({ secret: given, dataDir: "memory://", databaseUrl: "postgres://x" })).toBe(given);
    expect(() => serverSecret({ secret: "short", dataDir: "/nowhere", databaseUrl: undefined })).toThrow(
      "at least 16 characters",
    );
  });

  it("generates one into the data dir once (mode 0600) and reads it back", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-secret-"));
    try {
      const first = serverSecret({ secret: undefined, dataDir, databaseUrl: undefined });
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(fs.statSync(path.join(dataDir, "secret")).mode & 0o777).toBe(0o600);
      expect(serverSecret({ secret: undefined, dataDir, databaseUrl: undefined })).toBe(first);
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
