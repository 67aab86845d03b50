// Reading the migrations: in order, each with the sha256 of its bytes, and a repeated number or a misnamed file
// fails instead of being skipped.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readMigrations } from "./migrate.ts";

function dirWith(files: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-migrations-"));
  for (const file of files) fs.writeFileSync(path.join(dir, file), "SELECT 1;");
  return `${dir}/`;
}

describe("readMigrations", () => {
  it("reads the project's migrations in order, each number once", () => {
    const versions = readMigrations().map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it("gives each file's sha256, as sha256sum prints it", () => {
    // `printf 'SELECT 1;' | sha256sum`
    const [first] = readMigrations(dirWith(["0001_first.sql"]));
    expect(first?.checksum).toBe("17db4fd369edb9244b9f91d9aeed145c3d04ad8ba6e95d06247f07a63527d11a");
  });

  it("fails on two migrations with one number", () => {
    expect(() => readMigrations(dirWith(["0001_first.sql", "0002_second.sql", "0002_again.sql"]))).toThrow(
      "migrations 0002_again and 0002_second share the number 2",
    );
  });

  it("fails on a .sql file that is not named NNNN_name.sql", () => {
    expect(() => readMigrations(dirWith(["0001_first.sql", "2_second.sql"]))).toThrow("2_second.sql");
  });
});
