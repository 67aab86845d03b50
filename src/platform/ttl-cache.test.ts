// TtlCache: one load per key within the time to live, shared by concurrent callers; a new load after it; failures
// are not kept. Runs on a virtual clock.
import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache.ts";

describe("TtlCache", () => {
  it("loads once per key within the time to live, again after it, and forgets failures", async () => {
    let now = 0;
    const loads: string[] = [];
    let fail = false;
    const cache = new TtlCache(
      async (key: string) => {
        loads.push(key);
        if (fail) throw new Error("down");
        return `${key}@${now}`;
      },
      1_000,
      10,
      () => now,
    );
    const [a, b] = await Promise.all([cache.get("x"), cache.get("x")]);
    expect([a, b, loads]).toEqual(["x@0", "x@0", ["x"]]);
    now = 999;
    expect(await cache.get("x")).toBe("x@0");
    now = 1_000;
    expect(await cache.get("x")).toBe("x@1000");
    fail = true;
    await expect(cache.get("y")).rejects.toThrow("down");
    fail = false;
    expect(await cache.get("y")).toBe("y@1000");
    cache.delete("x");
    expect(await cache.get("x")).toBe("x@1000");
    expect(loads).toEqual(["x", "x", "y", "y", "x"]);
  });
});
