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
    // A place is free again: no wait, no refusal.
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
});
