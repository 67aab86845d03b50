import { describe, expect, it } from "vitest";
import { KeyedLimiter } from "./keyed-limiter.ts";

const later = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
};

describe("KeyedLimiter", () => {
  it("runs at most `limit` calls of a key at once, in order, and never holds another key", async () => {
    const limiter = new KeyedLimiter<string>(2);
    const gates = [later(), later(), later()];
    const started: number[] = [];
    const calls = gates.map((g, i) =>
      limiter.run("slow", async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toEqual([0, 1]);
    expect(limiter.running("slow")).toBe(2);
    // Another key runs at once while "slow" is full.
    expect(await limiter.run("other", async () => "done")).toBe("done");
    gates[0]?.resolve();
    await calls[0];
    await new Promise((r) => setTimeout(r, 5));
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.running("slow")).toBe(2);
    gates[1]?.resolve();
    gates[2]?.resolve();
    expect(await Promise.all(calls)).toEqual([0, 1, 2]);
    expect(limiter.running("slow")).toBe(0);
  });

  it("gives the slot back when a call throws", async () => {
    const limiter = new KeyedLimiter<number>(1);
    await expect(limiter.run(1, () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(limiter.running(1)).toBe(0);
    expect(await limiter.run(1, async () => 7)).toBe(7);
  });
});
