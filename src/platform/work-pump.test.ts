import { describe, expect, it } from "vitest";
import { WorkPump } from "./work-pump.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("WorkPump", () => {
  it("never waits for its slowest item: a freed slot claims again soon after", async () => {
    const queue = ["slow", ...Array.from({ length: 20 }, (_, i) => `quick${i}`)];
    const done: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => {
      release = r;
    });
    const pump = new WorkPump<string>({
      slots: 2,
      pollMs: 10_000,
      claim: async (free) => queue.splice(0, free),
      run: async (item) => {
        if (item === "slow") await slow;
        else await sleep(1);
        done.push(item);
      },
      onError: () => {},
    });
    pump.start();
    for (let i = 0; i < 200 && done.length < 20; i++) await sleep(5);
    // Every quick item ran through the one free slot while the slow one held the other.
    expect(done).toHaveLength(20);
    expect(done).not.toContain("slow");
    expect(pump.running).toBe(1);
    release();
    await pump.stop();
    expect(done).toContain("slow");
  });

  it("fills the slots freed together with one claim", async () => {
    const queue = Array.from({ length: 8 }, (_, i) => i);
    const claimed: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const pump = new WorkPump<number>({
      slots: 4,
      pollMs: 10_000,
      claim: async (free) => {
        const items = queue.splice(0, free);
        if (items.length > 0) claimed.push(items.length);
        return items;
      },
      run: async (n) => {
        if (n < 4) await gate;
      },
      onError: () => {},
    });
    pump.start();
    await sleep(20);
    release();
    for (let i = 0; i < 100 && queue.length > 0; i++) await sleep(5);
    await pump.stop();
    // The four first items finished together: the four next came in one claim, not four.
    expect(claimed).toEqual([4, 4]);
  });

  it("tells a claim or an item that throws to onError, and goes on", async () => {
    const errors: string[] = [];
    let claims = 0;
    const ran: number[] = [];
    const pump = new WorkPump<number>({
      slots: 1,
      pollMs: 5,
      claim: async () => {
        claims++;
        if (claims === 1) throw new Error("the database went away");
        return claims <= 4 ? [claims] : [];
      },
      run: async (n) => {
        if (n === 2) throw new Error("a bad item");
        ran.push(n);
      },
      onError: (step, error) => errors.push(`${step}: ${(error as Error).message}`),
    });
    pump.start();
    for (let i = 0; i < 200 && ran.length < 2; i++) await sleep(5);
    await pump.stop();
    expect(errors).toEqual(["claim: the database went away", "run: a bad item"]);
    expect(ran).toEqual([3, 4]);
  });

  it("claims no more than its free slots, and stop waits for the items in flight", async () => {
    const asked: number[] = [];
    let finished = 0;
    const pump = new WorkPump<number>({
      slots: 3,
      pollMs: 5,
      claim: async (free) => {
        asked.push(free);
        return asked.length === 1 ? [1, 2, 3] : [];
      },
      run: async () => {
        await sleep(30);
        finished++;
      },
      onError: () => {},
    });
    pump.start();
    await sleep(10);
    await pump.stop();
    expect(finished).toBe(3);
    expect(asked[0]).toBe(3);
    expect(asked.every((n) => n >= 1 && n <= 3)).toBe(true);
  });
});
