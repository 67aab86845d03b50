// One project's screening batches never slow another project's reads. A PEP-sized list (40,000 synthetic entries
// of common Mexican names, the worst case for the matcher: long posting lists) is imported; project A sends 18
// requests of 100 names at once to POST /screening/persons over real HTTP on 127.0.0.1 while project B reads its
// project, one request after another. B's median read during the flood is compared with its median alone (given
// a few milliseconds for the machine's noise), as a ratio. Before screening had its fair share the ratio was
// about 7 (13 without the allowance); with it, 1 to 2.5. PGlite, or PostgreSQL with DATABASE_URL.
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Rng } from "../../src/platform/rng.ts";
import { importPersonList } from "../../src/screening/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const ENTRIES = 40_000;
const BATCHES = 18;
const NAMES_PER_BATCH = 100;
/** What B's time alone is given for the noise of a busy machine, in ms: a few of the batches' 1 ms slices. */
const NOISE_MS = 5;

const common = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../../eval/persons/lists/common-names.json"), "utf8"),
) as { surnames: string[]; given: string[] };

let svc: TestService;
let base: string;
const rng = new Rng(17);
const person = () => `${rng.pick(common.given)} ${rng.pick(common.surnames)} ${rng.pick(common.surnames)}`;

beforeAll(async () => {
  svc = await startTestService();
  base = await svc.listen(0);
  await svc.database.db.transaction().execute((trx) =>
    importPersonList(
      trx,
      { kind: "ofac-sdn", version: "synthetic-flood", listDate: "2026-11-01", source: "test" },
      (async function* () {
        for (let i = 0; i < ENTRIES; i++)
          yield {
            entryId: `F${i}`,
            type: "person" as const,
            names: [person()],
            dates: [],
            countries: [],
            identifiers: [],
            programs: ["SDN"],
          };
      })(),
    ),
  );
}, 300_000);
afterAll(async () => {
  await svc?.stop();
});

/** B's reads, one after another, until `until` resolves (or `count` of them when alone): each one's ms. */
async function readsOfB(until: Promise<unknown> | undefined, count: number): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  until?.then(() => {
    done = true;
  });
  for (let i = 0; i < count || (until && !done); i++) {
    const t = performance.now();
    const res = await fetch(`${base}/v1/projects/${svc.other.id}`, { headers: auth(svc.other.keys.admin) });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    times.push(performance.now() - t);
    if (until && done) break;
  }
  return times;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)] as number;

describe("screening is heavy work, fair between projects", () => {
  it("A's 18 batches of 100 names leave B's reads within a small multiple of their time alone", async () => {
    // Warm up: the matcher's index is built on the first screening.
    const warm = await fetch(`${base}/v1/screening/persons`, {
      method: "POST",
      headers: { ...auth(svc.project.keys.developer), "content-type": "application/json" },
      body: JSON.stringify({ persons: [{ name: person() }] }),
    });
    expect(warm.status, await warm.text()).toBe(200);
    const alone = await readsOfB(undefined, 40);

    const started = performance.now();
    const flood = Promise.all(
      Array.from({ length: BATCHES }, async () => {
        const res = await fetch(`${base}/v1/screening/persons`, {
          method: "POST",
          headers: { ...auth(svc.project.keys.developer), "content-type": "application/json" },
          body: JSON.stringify({
            persons: Array.from({ length: NAMES_PER_BATCH }, () => ({ name: person() })),
          }),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const during = await readsOfB(flood, 10);
    const statuses = await flood;
    const floodMs = performance.now() - started;

    // The ratio of B's median read during the flood to its median alone, the latter given NOISE_MS more: a read
    // that waits a slice at each of its few turns of the event loop is fair, and 4 ms alone against 10 during is
    // no slowdown anyone sees, while a read behind a batch's whole slices (13 times its time alone, before) is.
    const ratio = median(during) / (median(alone) + NOISE_MS);
    console.log(
      `B alone: median ${median(alone).toFixed(1)} ms, p90 ${p90(alone).toFixed(1)} ms; during A's flood (${floodMs.toFixed(0)} ms, statuses ${[...new Set(statuses)].join(",")}): median ${median(during).toFixed(1)} ms, p90 ${p90(during).toFixed(1)} ms over ${during.length} reads; ratio ${ratio.toFixed(2)}`,
    );
    // Every batch is screened, none refused: fairness orders them, it does not drop them.
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(ratio).toBeLessThan(4);
    expect(p90(during)).toBeLessThan(Math.max(10 * median(alone), 100));
  }, 300_000);
});
