// Investigations answer `analysis_status` beside `status` (docs/api.md, "Investigations and layered analyses"):
// clients of the original service read `analysis_status`. The same value in every answer that carries the record
// (created, read, listed, closed) and for each state it takes here: pending (an incremental one without workers)
// and failed (a standard one on a chain the service holds no data of). PGlite in memory, or PostgreSQL with
// DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

const base = () => `/v1/projects/${svc.project.id}/investigations`;
/** One wallet each: an investigation of the same wallet would reuse the other's analysis. */
const wallet = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

describe("analysis_status", () => {
  it("is the record's status in every answer, whatever the state", async () => {
    const records: { status: string; analysis_status: string; id: string }[] = [];
    for (const incremental of [true, false]) {
      const created = await svc.app!.inject({
        method: "POST",
        url: base(),
        headers: auth(svc.project.keys.developer),
        payload: {
          name: `client ${incremental}`,
          wallet: wallet(incremental ? 0xa11ce : 0xb0b),
          chainId: "31337",
          incremental,
          maxDepth: 1,
        },
      });
      expect(created.statusCode).toBe(201);
      records.push(created.json().data);
    }
    expect(records.map((r) => r.status)).toEqual(["pending", "failed"]);
    for (const record of records) {
      expect(record.analysis_status).toBe(record.status);
      const read = await svc.app!.inject({
        url: `${base()}/${record.id}`,
        headers: auth(svc.project.keys.viewer),
      });
      expect(read.json().data).toMatchObject({ status: record.status, analysis_status: record.status });
      const closed = await svc.app!.inject({
        method: "POST",
        url: `${base()}/${record.id}/close`,
        headers: auth(svc.project.keys.developer),
      });
      expect(closed.json().data).toMatchObject({ status: record.status, analysis_status: record.status });
    }
    const listed = await svc.app!.inject({ url: base(), headers: auth(svc.project.keys.viewer) });
    const list = listed.json().data as { status: string; analysis_status: string }[];
    expect(list).toHaveLength(2);
    for (const item of list) expect(item.analysis_status).toBe(item.status);
  });

  it("is in the OpenAPI description beside status", async () => {
    const doc = (await svc.app!.inject({ url: "/v1/openapi.json" })).json();
    const schema =
      doc.paths["/v1/projects/{projectId}/investigations/{id}"].get.responses["200"].content[
        "application/json"
      ].schema.properties.data;
    expect(schema.properties.analysis_status.enum).toEqual(["pending", "running", "completed", "failed"]);
    expect(schema.required).toEqual(expect.arrayContaining(["status", "analysis_status"]));
  });
});
