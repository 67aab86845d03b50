// Admission: bounded work in flight per process and per tenant, a bounded wait, refusal past it.
import { describe, expect, it } from "vitest";
import { Admission, Overloaded } from "./admission.ts";

/** A piece of work that runs until `finish()` is called. */
function gate() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { work: () => done, finish };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("Admission", () => {
  it("runs at most maxInFlight at once, and the next waiting one as soon as a place frees", async () => {
    const admission = new Admission({ maxInFlight: 2, maxInFlightPerTenant: 2, maxWaitMs: 1_000 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      admission.run(i, async () => {
        started.push(i);
        await g.work();
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(admission.stats()).toMatchObject({ inFlight: 2, waiting: 1, waited: 1 });
    gates[0]?.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[1]?.finish();
    gates[2]?.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2]);
    expect(admission.stats()).toMatchObject({ inFlight: 0, waiting: 0, refused: 0 });
  });

  it("keeps one tenant within its own cap while another tenant's work goes ahead", async () => {
    const admission = new Admission({ maxInFlight: 4, maxInFlightPerTenant: 2, maxWaitMs: 1_000 });
    const busy = [gate(), gate(), gate()];
    const started: string[] = [];
    const runs = busy.map((g, i) =>
      admission.run("busy", async () => {
        started.push(`busy${i}`);
        await g.work();
      }),
    );
    const other = admission.run("other", async () => {
      started.push("other");
    });
    await other;
    await tick();
    expect(started).toEqual(["busy0", "busy1", "other"]);
    busy[0]?.finish();
    await tick();
    expect(started).toContain("busy2");
    for (const g of busy) g.finish();
    await Promise.all(runs);
  });

  it("refuses work that waited maxWaitMs, counting the time its request had already waited", async () => {
    const admission = new Admission({ maxInFlight: 1, maxInFlightPerTenant: 1, maxWaitMs: 50 });
    const refusals: number[] = [];
    admission.onRefused = (_tenant, waited) => refusals.push(waited);
    const holder = gate();
    const running = admission.run(1, holder.work);
    const started = performance.now();
    const late = await admission.run(1, async () => "ran").catch((e: unknown) => e);
    expect(late).toBeInstanceOf(Overloaded);
    expect((late as Overloaded).retryAfterSeconds).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    // A request that already waited longer than the bound is refused at once.
    const stale = await admission.run(2, async () => "ran", 80).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(Overloaded);
    expect(refusals).toEqual([50, 80]);
    expect(admission.stats()).toMatchObject({ inFlight: 1, waiting: 0, refused: 2 });
    holder.finish();
    await running;
    // A place is free again: a piece that finds one runs, however long its request had waited.
    expect(await admission.run(1, async () => "ran", 80)).toBe("ran");
  });

  it("frees the place of work that fails", async () => {
    const admission = new Admission({ maxInFlight: 1, maxInFlightPerTenant: 1, maxWaitMs: 1_000 });
    await expect(
      admission.run(1, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await admission.run(1, async () => "next")).toBe("next");
    expect(admission.stats().inFlight).toBe(0);
  });

  it("counts the event loop's lag as time waited by a piece that must wait, not by one that finds a place", async () => {
    let lag = 300;
    const admission = new Admission({
      maxInFlight: 1,
      maxInFlightPerTenant: 1,
      maxWaitMs: 200,
      lag: () => lag,
    });
    expect(await admission.run(1, async () => "ran")).toBe("ran");
    const holder = gate();
    const running = admission.run(1, holder.work);
    await expect(admission.run(2, async () => "ran")).rejects.toBeInstanceOf(Overloaded);
    lag = 150;
    await expect(admission.run(2, async () => "ran", 60)).rejects.toBeInstanceOf(Overloaded);
    // A few ms late is a timer's jitter, not a stall: this one waits for the place.
    lag = 3;
    const waiting = admission.run(2, async () => "ran", 40);
    holder.finish();
    await running;
    expect(await waiting).toBe("ran");
    expect(admission.stats()).toMatchObject({ refused: 2, inFlight: 0 });
  });

  it("refuses at once a piece whose place would come past the bound, each place freeing once per mean duration", async () => {
    let clock = 0;
    const admission = new Admission({
      maxInFlight: 2,
      maxInFlightPerTenant: 2,
      maxWaitMs: 100,
      now: () => clock,
    });
    // Pieces take 80 ms: with two places, one frees every 40 ms.
    for (let i = 0; i < 3; i++) {
      await admission.run(1, async () => {
        clock += 80;
      });
    }
    const holders = [gate(), gate()];
    const running = holders.map((h) => admission.run(1, h.work));
    // The first and second to wait would get a place in about 40 and 80 ms (within the bound): they wait.
    const waiting = [admission.run(1, async () => "ran"), admission.run(1, async () => "ran")];
    await tick();
    expect(admission.stats()).toMatchObject({ waiting: 2, refused: 0 });
    // A third would wait about 120 ms: refused at once, without holding its client for the whole wait.
    const started = performance.now();
    await expect(admission.run(1, async () => "ran")).rejects.toBeInstanceOf(Overloaded);
    expect(performance.now() - started).toBeLessThan(50);
    for (const h of holders) h.finish();
    await Promise.all(running);
    expect(await Promise.all(waiting)).toEqual(["ran", "ran"]);
  });
});
