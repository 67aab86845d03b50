// Report ids that round-trip (docs/api.md, "Compliance reports"): every `id` GET /reports lists, percent-encoded as
// one path segment as every HTTP client sends a path parameter, is a `reportId` that GET /reports/{reportId} and
// POST /reports/{reportId}/filed find, with no other query; the download answer carries `url` and `filename` beside
// `signedUrl` and `name`, and the URL serves the file. An id outside the project's folders, or no storage path at
// all, is not found (404, never 400). On the report scenario (test/reports/scenario.ts): Mexico's monthly files,
// 24-hour avisos and Colombia's. PGlite in memory, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UrgentAvisoWriter } from "../../src/reports/index.ts";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { buildScenario, type Integrator, startIntegrator } from "./scenario.ts";

let svc: TestService;
let integrator: Integrator;
const now = Date.parse("2026-04-02T12:00:00Z");

beforeAll(async () => {
  integrator = await startIntegrator();
  svc = await startTestService({
    env: { VIGIA_ALLOW_PRIVATE_OUTBOUND: "true", VIGIA_PUBLIC_URL: "https://vigia.example" },
    service: { clock: () => now },
  });
  await buildScenario(svc, integrator.url);
  // The 24-hour aviso of the transfer from a sanctioned address, then March's monthly files.
  expect(await new UrgentAvisoWriter(svc.reports).runOnce()).toBe(1);
  for (const countryCode of ["MX", "CO"]) {
    const res = await svc.app!.inject({
      method: "POST",
      url: "/v1/reports/generate",
      headers: admin(),
      payload: { projectId: svc.project.id, countryCode, period: "2026-03" },
    });
    expect(res.statusCode).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await integrator?.close();
});

const admin = () => auth(svc.project.keys.admin);
const viewer = () => auth(svc.project.keys.viewer);

interface Entry {
  id: string;
  name: string;
  path: string;
  status: string;
  period: string;
}
async function listed(countryCode: string): Promise<Entry[]> {
  const res = await svc.app!.inject({
    url: `/v1/reports?projectId=${svc.project.id}&countryCode=${countryCode}&period=2026-03&limit=100`,
    headers: viewer(),
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe("report ids", () => {
  it("every listed id, percent-encoded as one segment, is a reportId: name, url, filename, a file that downloads", async () => {
    const entries = [...(await listed("MX")), ...(await listed("CO"))].filter((e) => e.status !== "failed");
    // Monthly files, a 24-hour aviso and Colombia's: ids of several forms.
    expect(entries.length).toBeGreaterThanOrEqual(4);
    expect(entries.some((e) => e.id.includes(".24h."))).toBe(true);
    expect(entries.some((e) => e.id.startsWith("co/"))).toBe(true);
    for (const entry of entries) {
      const res = await svc.app!.inject({
        url: `/v1/reports/${encodeURIComponent(entry.id)}`,
        headers: viewer(),
      });
      expect(res.statusCode, entry.id).toBe(200);
      const data = res.json().data;
      expect(data).toMatchObject({ name: entry.name, filename: entry.name, period: "2026-03" });
      expect(data.url).toBe(data.signedUrl);
      expect(data.url).toMatch(
        new RegExp(`^https://vigia\\.example/v1/files/${entry.path}\\?expires=\\d+&signed=\\d+&signature=`),
      );
      const file = new URL(data.url);
      const download = await svc.app!.inject({ url: `${file.pathname}${file.search}` });
      expect(download.statusCode, entry.id).toBe(200);
      expect(download.rawPayload.length).toBeGreaterThan(0);
    }
  });

  it("the encoded id wins over a file name's query, as `path` does", async () => {
    const [entry] = await listed("CO");
    const res = await svc.app!.inject({
      url: `/v1/reports/${encodeURIComponent(entry!.id)}?projectId=${svc.project.id}&countryCode=MX&period=2026-03`,
      headers: viewer(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe(entry!.name);
  });

  it("the file name with projectId, countryCode and period still works, and /download answers the same", async () => {
    const [entry] = await listed("MX");
    const byName = await svc.app!.inject({
      url: `/v1/reports/${encodeURIComponent(entry!.name)}?projectId=${svc.project.id}&countryCode=MX&period=2026-03`,
      headers: viewer(),
    });
    expect(byName.statusCode).toBe(200);
    const byPath = await svc.app!.inject({
      url: `/v1/reports/download?path=${encodeURIComponent(entry!.id)}`,
      headers: viewer(),
    });
    expect(byPath.statusCode).toBe(200);
    for (const res of [byName, byPath])
      expect(res.json().data).toMatchObject({ name: entry!.name, filename: entry!.name });
  });

  it("files a report by its encoded id", async () => {
    const entry = (await listed("MX")).find((e) => e.status === "draft" && !e.id.includes(".24h."));
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/reports/${encodeURIComponent(entry!.id)}/filed`,
      headers: admin(),
      payload: { folio: "2026-77" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: entry!.id, status: "filed", folio: "2026-77" });
  });

  it("answers 404, never 400, for an id of another project, a traversal, a failed entry or not a path", async () => {
    const [entry] = await listed("MX");
    const otherProject = entry!.id.replace(`/${svc.project.id}/`, `/${svc.other.id}/`);
    for (const id of [
      otherProject,
      `mx/${svc.project.id}/2026-03/../../${svc.other.id}/2026-03/x.xml`,
      `mx/${svc.project.id}/2026-03/*`,
      "/etc/passwd",
      "mx//x.xml",
      `xx/${svc.project.id}/2026-03/${entry!.name}`,
    ]) {
      const res = await svc.app!.inject({ url: `/v1/reports/${encodeURIComponent(id)}`, headers: viewer() });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toMatchObject({ success: false, error: "not_found", message: "Report not found" });
    }
    // Another project's key does not find this project's report by its id.
    const theirs = await svc.app!.inject({
      url: `/v1/reports/${encodeURIComponent(entry!.id)}`,
      headers: auth(svc.other.keys.admin),
    });
    expect(theirs.statusCode).toBe(404);
  });
});
