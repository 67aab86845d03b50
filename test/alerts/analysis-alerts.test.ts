// Alerts from analyses (docs/api.md, "Alerts"): a scan, a risk job (the scan on registration is one) or an
// investigation of a monitored address whose level reaches the project's `alert_level` (default VIGIA_ALERT_LEVEL,
// `high`) raises one alert of cause `analysis` for it, which later analyses join; below the level, or of an address
// the project does not monitor, none. The alert keeps what the verdict rests on: score, level, reason, model version,
// findings with their transactions, exposure paths. On the devnet world (chain 1), PGlite, or PostgreSQL with
// DATABASE_URL.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runRiskJob } from "../../src/analysis/jobs.ts";
import { advanceAnalysis } from "../../src/analysis/layered/index.ts";
import { compareLevels, type RiskLevel } from "../../src/risk/index.ts";
import { devnetWorld, writeWorldToStore } from "../../src/worlds/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";

const world = devnetWorld();
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
  await writeWorldToStore(svc.database.db, world, 1);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
});

const call = (method: "GET" | "POST" | "PATCH", url: string, key: string, payload?: object) =>
  svc.app!.inject({ method, url, headers: auth(key), ...(payload ? { payload } : {}) });
const dev = () => svc.project.keys.developer;

interface ScanItem {
  address: string;
  analysisId: string;
  riskLevel: RiskLevel;
  riskScore: number;
}
async function scan(address: string, projectId = svc.project.id, key = dev()): Promise<ScanItem> {
  const res = await call("POST", `/v1/projects/${projectId}/addresses/scan-risk`, key, {
    addresses: [{ address, chainId: "1" }],
    maxDepth: 2,
    skipExisting: false,
  });
  expect(res.statusCode, res.body).toBe(200);
  const item = res.json().data.results[0];
  expect(item.status, res.body).toBe("completed");
  return item;
}
async function register(address: string, user: string) {
  const res = await call("POST", `/v1/projects/${svc.project.id}/addresses`, svc.project.keys.admin, {
    address,
    chainId: 1,
    foreign_user_id: user,
  });
  expect(res.statusCode, res.body).toBe(201);
}
interface Alert {
  id: string;
  subject: { address: string; userId: string; addressId: string };
  cause: string;
  causeKey: string;
  level: string;
  reason: string;
  deadline: unknown;
  links: { analysisId: string | null; address: string };
  evidence: {
    wallets: string[];
    analyses: {
      analysisId: string;
      kind: string;
      riskScore: number;
      riskLevel: string;
      riskReason: string;
      modelVersion: string | null;
      findings: { pattern: string; txs: string[] }[];
      exposure: { category: string; txs: string[]; counterparties: string[] }[];
    }[];
  };
  history: { actor: string; change: Record<string, unknown> }[];
}
async function alertsOf(address: string): Promise<Alert[]> {
  const res = await call("GET", `/v1/projects/${svc.project.id}/alerts?cause=analysis&limit=100`, dev());
  const found = (res.json().data as Alert[]).filter((a) => a.subject.address === address);
  return Promise.all(
    found.map(
      async (a) => (await call("GET", `/v1/projects/${svc.project.id}/alerts/${a.id}`, dev())).json().data,
    ),
  );
}
const setLevel = (level: string | null) =>
  call("PATCH", `/v1/projects/${svc.project.id}`, svc.project.keys.admin, { alert_level: level });

/** One address of the world per level, learnt by scanning in the other project (which monitors nothing). */
const byLevel = new Map<RiskLevel, string>();
beforeAll(async () => {
  for (const c of world.cases) {
    if (byLevel.has("critical") && byLevel.has("medium") && byLevel.has("minimal")) break;
    const item = await scan(c.subject, svc.other.id, svc.other.keys.admin);
    if (!byLevel.has(item.riskLevel)) byLevel.set(item.riskLevel, c.subject);
  }
}, 120_000);
const at = (level: RiskLevel) => {
  const address = byLevel.get(level);
  if (!address) throw new Error(`the devnet world has no ${level} address`);
  return address;
};

describe("alerts from analyses of monitored addresses", () => {
  it("the other project, which monitors none of them, has no alert", async () => {
    const res = await call("GET", `/v1/projects/${svc.other.id}/alerts`, svc.other.keys.admin);
    expect(res.json().data).toEqual([]);
  });

  it("a scan at the project's level (default high) raises an alert with what the verdict rests on", async () => {
    const res = await call("GET", `/v1/projects/${svc.project.id}`, svc.project.keys.admin);
    expect(res.json().data.alert_level).toBe("high");
    const critical = at("critical");
    await register(critical, "user-critical");
    const item = await scan(critical);
    const [alert] = await alertsOf(critical);
    expect(alert).toMatchObject({
      subject: { address: critical, userId: "user-critical" },
      cause: "analysis",
      causeKey: "risk",
      level: "critical",
      deadline: null,
      links: { analysisId: item.analysisId },
    });
    expect(alert!.reason).toContain(`scored ${item.riskScore}, critical`);
    const [evidence] = alert!.evidence.analyses;
    expect(evidence).toMatchObject({ analysisId: item.analysisId, kind: "scan", riskLevel: "critical" });
    expect(evidence!.modelVersion).toMatch(/\S/);
    // the reason is the scan's own, and its findings and exposure carry transaction hashes
    const stored = (
      await call("GET", `/v1/projects/${svc.project.id}/addresses/scan-risk?addresses=${critical}`, dev())
    ).json().data.results[0];
    expect(evidence!.riskReason).toBe(stored.riskReason);
    const hashes = [...evidence!.findings.flatMap((f) => f.txs), ...evidence!.exposure.flatMap((e) => e.txs)];
    expect(hashes.length).toBeGreaterThan(0);
    expect(hashes.every((h) => /^0x[0-9a-f]{64}$/.test(h))).toBe(true);
    expect(alert!.history).toEqual([
      expect.objectContaining({ actor: "system", change: { event: "raised", analysisId: item.analysisId } }),
    ]);
  });

  it("below the level, or an address the project does not monitor, raises none", async () => {
    const medium = at("medium");
    await register(medium, "user-medium");
    expect((await scan(medium)).riskLevel).toBe("medium");
    expect(await alertsOf(medium)).toEqual([]);
    const unmonitored = [...byLevel.entries()].find(
      ([level, address]) => compareLevels(level, "high") >= 0 && address !== at("critical"),
    );
    if (unmonitored) {
      await scan(unmonitored[1]);
      expect(await alertsOf(unmonitored[1])).toEqual([]);
    }
  });

  it("a risk job and an investigation of the same address join the open alert", async () => {
    const critical = at("critical");
    const job = await call("POST", "/v1/risk", dev(), {
      address: critical,
      chainId: 1,
      fromDate: "2020-01-01",
    });
    expect(job.statusCode, job.body).toBeLessThan(300);
    const { jobId } = job.json().data;
    await runRiskJob(svc.analysis, jobId, true);
    const opened = await call("POST", `/v1/projects/${svc.project.id}/investigations`, dev(), {
      name: "critical case",
      wallet: critical,
      chainId: 1,
      incremental: true,
      maxDepth: 2,
    });
    expect(opened.statusCode, opened.body).toBeLessThan(300);
    const investigation = opened.json().data.analysis_id as string;
    while ((await advanceAnalysis(svc.analysis, investigation)).state !== "done");
    await runRiskJob(svc.analysis, jobId, true); // a job run again after a crash adds nothing
    const alerts = await alertsOf(critical);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.evidence.analyses.map((a) => a.kind)).toEqual(["scan", "risk_job", "investigation"]);
    expect(alerts[0]!.evidence.analyses.map((a) => a.analysisId).slice(1)).toEqual([jobId, investigation]);
    expect(alerts[0]!.links.analysisId).toBe(investigation);
    expect(alerts[0]!.history.map((h) => h.change.event)).toEqual([
      "raised",
      "evidence_added",
      "evidence_added",
    ]);
  });

  it("each verdict the alert holds carries its reason in the language asked, the stored English one kept", async () => {
    const [alert] = await alertsOf(at("critical"));
    const read = async (lang: string) =>
      (
        await svc.app!.inject({
          method: "GET",
          url: `/v1/projects/${svc.project.id}/alerts/${alert!.id}`,
          headers: { ...auth(dev()), "accept-language": lang },
        })
      ).json().data.evidence.analyses as { riskReason: string; reasonText: string }[];
    const es = await read("es-MX");
    const en = await read("en");
    expect(es.length).toBeGreaterThan(0);
    for (const [i, v] of es.entries()) {
      expect(v.riskReason).toBe(en[i]!.riskReason);
      expect(en[i]!.reasonText).toBe(v.riskReason);
      expect(v.reasonText).toMatch(/^(Patr[oó]n(es)? detectados?|Sin patrones detectados)/);
      expect(v.reasonText).not.toMatch(/\b(received|sent|detected|exposure)\b/i);
    }
  });

  it("its evidence pack holds each verdict with its model version, data coverage, findings and exposure paths", async () => {
    const [alert] = await alertsOf(at("critical"));
    const url = `/v1/projects/${svc.project.id}/alerts/${alert!.id}/evidence`;
    const json = (await call("GET", url, dev())).json();
    expect(json.verdicts.map((v: { kind: string }) => v.kind)).toEqual(["scan", "risk_job", "investigation"]);
    expect(json.verdicts[0].coverage).toMatchObject({ chainId: "1", source: expect.any(String) });
    expect(json.labels.length).toBeGreaterThan(0);
    expect(json.labels.every((l: { source: string | null }) => typeof l.source === "string")).toBe(true);
    const md = (await call("GET", `${url}?format=md`, dev())).body;
    const scanVerdict = alert!.evidence.analyses[0]!;
    expect(md).toContain(`## Verdict ${scanVerdict.analysisId} (scan)`);
    expect(md).toContain(`model ${scanVerdict.modelVersion}`);
    expect(md).toContain("### Data coverage");
    const tx = scanVerdict.exposure.flatMap((e) => e.txs)[0] ?? scanVerdict.findings.flatMap((f) => f.txs)[0];
    expect(md).toContain(tx);
    expect(md).toContain("## Labels used");
  });

  it("an investigation's evidence: 409 until its analysis completes, then the same bytes and hash every time", async () => {
    const opened = await call("POST", `/v1/projects/${svc.project.id}/investigations`, dev(), {
      name: "evidence case",
      wallet: at("critical"),
      chainId: 1,
      incremental: true,
      maxDepth: 3, // not the depth of the investigation before, whose analysis a new one would share
    });
    const { id, analysis_id: analysisId } = opened.json().data as { id: string; analysis_id: string };
    const url = `/v1/projects/${svc.project.id}/investigations/${id}/evidence`;
    const early = await call("GET", url, dev());
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toMatch(/has not completed.*ask again once `status` is `completed`/);
    while ((await advanceAnalysis(svc.analysis, analysisId)).state !== "done");
    const json = await call("GET", url, svc.project.keys.viewer);
    expect(json.statusCode).toBe(200);
    expect(json.headers["x-evidence-sha256"]).toBe(
      createHash("sha256").update(json.rawPayload).digest("hex"),
    );
    expect(json.json()).toMatchObject({
      pack: "vigia-investigation-evidence/1",
      investigation: { id, address: at("critical"), chainId: 1 },
      verdict: { analysisId, kind: "investigation", riskLevel: "critical", coverage: { chainId: "1" } },
    });
    expect(json.json().labels.length).toBeGreaterThan(0);
    const md = await call("GET", `${url}?format=md`, svc.project.keys.viewer);
    expect(md.headers["content-disposition"]).toBe(`attachment; filename="investigation-${id}-evidence.md"`);
    expect(md.body).toContain(`## Verdict ${analysisId} (investigation)`);
    expect((await call("GET", `${url}?format=md`, dev())).body).toBe(md.body);
    expect(
      (await call("GET", url.replace(id, "6f1c2a4e-9b3d-4e7a-8c55-2d0f9a1b7e34"), dev())).statusCode,
    ).toBe(404);
  });

  it("the project's alert_level decides: lowered to medium, a medium verdict raises one; null is the default again", async () => {
    const bad = await setLevel("severe");
    expect(bad.statusCode).toBe(400);
    expect((await setLevel("medium")).json().data.alert_level).toBe("medium");
    const medium = at("medium");
    await scan(medium);
    expect((await alertsOf(medium)).map((a) => a.level)).toEqual(["medium"]);
    expect((await setLevel(null)).json().data.alert_level).toBe("high");
    const minimal = at("minimal");
    await register(minimal, "user-minimal");
    await scan(minimal);
    expect(await alertsOf(minimal)).toEqual([]);
  });
});
