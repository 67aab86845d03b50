// POST /risk and GET /risk/{jobId} (docs/api.md, "Risk analysis") on the durable job queue: a job runs in the service's
// worker and completes with a scan result limited to its date window; date validation; project scoping. Runs on
// the in-memory PGlite or, with DATABASE_URL, PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetWorld, SCENARIO_START, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
const world = devnetWorld();
const oneHop = world.cases.find((c) => c.pattern === "sanctions_exposure" && c.id.endsWith("-d1"))!;

beforeAll(async () => {
  svc = await startTestService({
    service: { workers: true, jobs: { pollingIntervalSeconds: 0.5, superviseIntervalSeconds: 1 } },
  });
  await writeWorldToStore(svc.database.db, world, 1);
}, 60_000);
afterAll(async () => {
  await svc?.stop();
});

const start = (payload: object, key = svc.project.keys.developer) =>
  svc.app!.inject({ method: "POST", url: "/v1/risk", headers: auth(key), payload });
const read = (jobId: string, key = svc.project.keys.viewer) =>
  svc.app!.inject({ method: "GET", url: `/v1/risk/${jobId}`, headers: auth(key) });

async function settled(jobId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const data = (await read(jobId)).json().data;
    if (data.status === "completed" || data.status === "failed") return data;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${data.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe("risk jobs", () => {
  it("runs a job to completion: a scan result plus its window", async () => {
    const res = await start({ address: oneHop.subject.toUpperCase().replace("0X", "0x"), chainId: 1 });
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().data;
    expect(typeof jobId).toBe("string");
    const first = (await read(jobId)).json().data;
    expect(["queued", "running", "completed"]).toContain(first.status);
    expect(first).toHaveProperty("createdAt");
    const done = await settled(jobId);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({
      address: oneHop.subject.toLowerCase(),
      chainId: "1",
      status: "completed",
      riskLevel: "critical",
      fromDate: null,
      toDate: null,
    });
    expect(done.result.analysisId).toBe(jobId);
  });

  it("limits the analysis to the date window", async () => {
    // A window before the scenario: nothing to analyse, minimal risk.
    const before = new Date((SCENARIO_START - 30 * 86_400) * 1000).toISOString().slice(0, 10);
    const res = await start({ address: oneHop.subject, chainId: 1, fromDate: "2020-01-01", toDate: before });
    const done = await settled(res.json().data.jobId);
    expect(done.status).toBe("completed");
    expect(done.result).toMatchObject({
      riskScore: 0,
      riskLevel: "minimal",
      fromDate: "2020-01-01T00:00:00.000Z",
    });
    expect(done.result.toDate).toBe(`${before}T23:59:59.999Z`);
    expect(done.result.analysisEvidence.transactionsAnalyzed).toBe(0);
  });

  it("rejects bad dates, fromDate after toDate, bad addresses and unknown chains", async () => {
    const a = oneHop.subject;
    for (const body of [
      { address: a, chainId: 1, fromDate: "2024-13-01" },
      { address: a, chainId: 1, toDate: "yesterday" },
      { address: a, chainId: 1, fromDate: "2024-02-30" },
      { address: a, chainId: 1, fromDate: "2024-03-02", toDate: "2024-03-01" },
      { address: "0x1234", chainId: 1 },
      { address: a, chainId: "1" },
      { chainId: 1 },
    ]) {
      const res = await start(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe("Invalid body");
    }
    // The refusal names the field and the accepted forms.
    const usDate = (await start({ address: a, chainId: 1, fromDate: "01/02/2024" })).json();
    expect(usDate.details).toEqual([
      {
        path: "/fromDate",
        message:
          '"01/02/2024" is not a date: use YYYY-MM-DD or an ISO 8601 date-time with its offset, e.g. 2024-01-31 or 2024-01-31T18:00:00Z',
      },
    ]);
    const reversed = (
      await start({ address: a, chainId: 1, fromDate: "2024-03-02", toDate: "2024-03-01" })
    ).json();
    expect(reversed.details).toEqual([
      { path: "/toDate", message: "toDate (2024-03-01) is before fromDate (2024-03-02)" },
    ]);
    const notJson = await svc.app!.inject({
      method: "POST",
      url: "/v1/risk",
      headers: { ...auth(svc.project.keys.developer), "content-type": "application/json" },
      payload: `{"address": "${a}", "chainId": 1,}`,
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toMatchObject({ message: "Invalid body", details: [{ path: "/" }] });
    expect(notJson.json().details[0].message).toMatch(/not valid JSON.*trailing comma/);
    expect(
      (await start({ address: a, chainId: 1, fromDate: "2024-03-01T10:00:00Z", toDate: "2024-03-01" }))
        .statusCode,
    ).toBe(202);
    expect((await start({ address: a, chainId: 999999 })).statusCode).toBe(404);
    expect((await start({ address: a, chainId: 1 }, svc.project.keys.viewer)).statusCode).toBe(403);
  });

  it("another project's job and an unknown job are 404", async () => {
    const { jobId } = (await start({ address: oneHop.subject, chainId: 1 })).json().data;
    expect((await read(jobId, svc.other.keys.admin)).statusCode).toBe(404);
    expect((await read("00000000-0000-4000-8000-000000000000")).statusCode).toBe(404);
    expect((await read("not-a-job")).statusCode).toBe(404);
  });
});
