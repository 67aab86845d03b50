// The file stores' path rules (nothing climbs out of its folder) and the filesystem store's round trip; the database
// store is exercised by the report tests on both databases.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FilesystemStore, isStoragePath, isUnder } from "./index.ts";

describe("storage paths", () => {
  it("accepts relative paths of plain segments", () => {
    expect(isStoragePath("mx/1/2026-03/u-1.xml")).toBe(true);
    expect(isStoragePath("co/12/2026-03/user_2.v2.txt")).toBe(true);
  });

  it("refuses traversal, absolute paths, empty segments and odd characters", () => {
    for (const bad of [
      "",
      "/etc/passwd",
      "mx/../secret",
      "mx/1/..",
      "mx/1/.hidden",
      "mx//1",
      "mx/1/a..b",
      "mx\\1\\x",
      "mx/1/%2e%2e",
      "mx/1/a b",
      `${"a/".repeat(9)}a`,
    ])
      expect(isStoragePath(bad), bad).toBe(false);
  });

  it("tells whether a path lies under a project's folder", () => {
    expect(isUnder("mx/1/2026-03/u.xml", "mx/1")).toBe(true);
    expect(isUnder("mx/12/2026-03/u.xml", "mx/1")).toBe(false);
    expect(isUnder("mx/1/../2/u.xml", "mx/1")).toBe(false);
  });
});

describe("the filesystem store", () => {
  it("writes, reads, replaces and deletes files, and refuses paths outside its root", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "vigia-store-"));
    const store = new FilesystemStore(root);
    await store.put("mx/1/2026-03/u.xml", Buffer.from("one"));
    await store.put("mx/1/2026-03/u.xml", Buffer.from("two"));
    expect((await store.get("mx/1/2026-03/u.xml"))?.toString()).toBe("two");
    expect(fs.readdirSync(path.join(root, "mx/1/2026-03"))).toEqual(["u.xml"]);
    expect(await store.get("mx/1/2026-03/missing.xml")).toBeUndefined();
    await store.delete("mx/1/2026-03/u.xml");
    expect(await store.get("mx/1/2026-03/u.xml")).toBeUndefined();
    await expect(store.put("../outside.txt", Buffer.from("x"))).rejects.toThrow("invalid storage path");
    await expect(store.get("/etc/passwd")).rejects.toThrow("invalid storage path");
    expect(fs.existsSync(path.join(root, "..", "outside.txt"))).toBe(false);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
