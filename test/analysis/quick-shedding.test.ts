// Quick checks past capacity (docs/decisions/0035): a check that finds no place within VIGIA_QUICK_MAX_WAIT_MS is
// refused with 503, Retry-After and the error envelope, counted on /metrics; one project's burst waits behind its
// own cap while another project's check goes ahead. Real HTTP on 127.0.0.1 (keep-alive sockets, as integrators
// call), PGlite or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdTransfer } from "../support/ledger.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
let svc: TestService;
let base: string;

beforeAll(async () => {
  svc = await startTestService({
    env: {
      VIGIA_QUICK_MAX_IN_FLIGHT: "2",
      VIGIA_QUICK_MAX_IN_FLIGHT_PER_PROJECT: "1",
      VIGIA_QUICK_MAX_WAIT_MS: "0",
    },
  });
  base = await svc.listen();
  const at = new Date("2024-02-01T00:00:00Z");
  for (let i = 0; i < 40; i++)
    await holdTransfer(svc.database.db, {
      chainId: 1,
      from: addr(i + 1),
      to: addr(999),
      at,
      block: BigInt(i + 1),
    });
});
afterAll(async () => {
  await svc?.stop();
});

const check = (key: string, n: number) =>
  fetch(`${base}/v1/risk/quick?address=${addr(n)}&chainId=1`, { headers: auth(key) });

describe("a quick check past capacity", () => {
  it("is refused at once with 503, Retry-After and the envelope, while the checks given places are answered", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => check(svc.project.keys.viewer, i + 1)),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    const refused = answers.find((a) => a.status === 503) as Response;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ success: false, error: "unavailable" });
    const metrics = await (await fetch(`${base}/metrics`, { headers: auth(svc.project.keys.admin) })).text();
    const counted = Number(/^vigia_quick_checks_refused_total (\d+)/m.exec(metrics)?.[1]);
    expect(counted).toBe(statuses.filter((s) => s === 503).length);
    expect(metrics).toMatch(/^vigia_quick_checks\{state="running"\} 0$/m);
  });

  it("leaves another project its place while one project's checks take all of theirs", async () => {
    // One project's checks beyond its cap of one are refused; the other project's check, sent with them, is not.
    const burst = Array.from({ length: 8 }, (_, i) => check(svc.project.keys.viewer, i + 1));
    const other = check(svc.other.keys.admin, 30);
    const [otherAnswer, ...burstAnswers] = await Promise.all([other, ...burst]);
    expect(otherAnswer?.status).toBe(200);
    expect(burstAnswers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
  });
});
