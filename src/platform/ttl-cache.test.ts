// TtlCache: one load per key within the time to live, shared by concurrent callers; a new load after it; failures
// are not kept; a full cache forgets its least recently used key and keeps the others. Runs on a virtual clock.
import { describe, expect, it } from "vitest";
import { TtlCache } from "./ttl-cache.ts";

describe("TtlCache", () => {
  it("loads once per key within the time to live, again after it, and forgets failures", async () => {
    let now = 1_000_000;
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
    expect([a, b, loads]).toEqual(["x@1000000", "x@1000000", ["x"]]);
    now += 1_000;
    expect(await cache.get("x")).toBe("x@1000000");
    now += 1;
    expect(await cache.get("x")).toBe("x@1001001");
    fail = true;
    await expect(cache.get("y")).rejects.toThrow("down");
    fail = false;
    expect(await cache.get("y")).toBe("y@1001001");
    cache.delete("x");
    expect(await cache.get("x")).toBe("x@1001001");
    expect(loads).toEqual(["x", "x", "y", "y", "x"]);
  });

  it("when full, forgets only the least recently used key", async () => {
    const loads: number[] = [];
    const cache = new TtlCache(
      async (key: number) => {
        loads.push(key);
        return key * 10;
      },
      60_000,
      3,
    );
    for (const key of [1, 2, 3]) await cache.get(key);
    // 1 is read again, so 2 is now the least recently used.
    expect(await cache.get(1)).toBe(10);
    expect(await cache.get(4)).toBe(40);
    loads.length = 0;
    expect(await Promise.all([1, 3, 4].map((key) => cache.get(key)))).toEqual([10, 30, 40]);
    expect(loads).toEqual([]);
    expect(await cache.get(2)).toBe(20);
    expect(loads).toEqual([2]);
  });
});
