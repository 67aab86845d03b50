// LoopLag: how late the event loop runs, 0 when it is idle and about the stall's length after one. The stall is long
// and the bounds far from it, so that a loaded machine (a test worker sharing two cores) does not read as a stall.
import { expect, it } from "vitest";
import { LoopLag } from "./loop-lag.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("reads about nothing on an idle loop and the stall's length after one", async () => {
  const lag = new LoopLag().start();
  try {
    await sleep(60);
    expect(lag.ms).toBeLessThan(100);
    const until = Date.now() + 400;
    while (Date.now() < until) {} // the thread is busy: no timer runs
    // The first timer to run after the stall is the sampler's (it was due first): it has read the stall.
    await sleep(1);
    expect(lag.ms).toBeGreaterThan(300);
    await sleep(60);
    expect(lag.ms).toBeLessThan(100);
  } finally {
    lag.stop();
  }
});
