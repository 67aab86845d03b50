// Screening batches' fair share: slices that give the thread back, one place per project, a refusal as a 503.
import { describe, expect, it } from "vitest";
import { AppError } from "../platform/errors.ts";
import { SLICE_MS, screenInSlices, screeningShare, withScreeningPlace } from "./fair-share.ts";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
};

describe("screening's fair share", () => {
  it("a long batch gives the thread back every slice: a timer due meanwhile runs before the batch ends", async () => {
    let ranAt = -1;
    let screened = 0;
    setTimeout(() => {
      ranAt = screened;
    }, 1);
    const out = await screenInSlices(
      Array.from({ length: 50 }, (_, i) => i),
      (i) => {
        busy(1);
        screened++;
        return i * 2;
      },
    );
    expect(out).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
    expect(ranAt).toBeGreaterThan(0);
    expect(ranAt).toBeLessThan(50);
    expect(ranAt).toBeLessThanOrEqual(4 * SLICE_MS);
  });

  it("one batch of a project at a time; another project's batch is not kept waiting behind it", async () => {
    let refused = 0;
    const share = screeningShare(
      { maxInFlight: 2, maxInFlightPerProject: 1, maxWaitMs: 10_000 },
      { refused: () => refused++, log: { warn: () => {} } },
    );
    const order: string[] = [];
    const batch = (name: string, ms: number) => async () => {
      order.push(`${name} start`);
      await new Promise((r) => setTimeout(r, ms));
      order.push(`${name} end`);
    };
    await Promise.all([
      withScreeningPlace(share, 1, batch("A1", 30)),
      withScreeningPlace(share, 1, batch("A2", 30)),
      withScreeningPlace(share, 2, batch("B1", 5)),
    ]);
    expect(order.slice(0, 2)).toEqual(["A1 start", "B1 start"]);
    expect(order.indexOf("A2 start")).toBeGreaterThan(order.indexOf("A1 end"));
    expect(refused).toBe(0);
  });

  it("a batch that could not get its place in time is a 503 with Retry-After, counted and logged", async () => {
    let refused = 0;
    const warnings: string[] = [];
    const share = screeningShare(
      { maxInFlight: 1, maxInFlightPerProject: 1, maxWaitMs: 0 },
      { refused: () => refused++, log: { warn: (_o, msg) => warnings.push(msg) } },
    );
    const first = withScreeningPlace(share, 1, () => new Promise((r) => setTimeout(r, 20)));
    const second = withScreeningPlace(share, 2, async () => "never");
    await expect(second).rejects.toBeInstanceOf(AppError);
    await expect(second).rejects.toMatchObject({ code: "unavailable", retryAfter: 5 });
    await first;
    expect(refused).toBe(1);
    expect(warnings[0]).toMatch(/refused 1 screening batch/);
  });
});
