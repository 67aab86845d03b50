// Requests without a body but with `content-type: application/json` (docs/api.md, "Envelope and errors"): many
// clients of the original service send that header on every request, a DELETE included. An operation that takes
// no body, or an optional one, answers such a request exactly as it answers the same request without the header;
// an operation whose body is required still says the body is empty. Every bodiless operation of the OpenAPI
// document is covered, so a route added later is too. PGlite in memory, or PostgreSQL with DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, startTestService, type TestService } from "../support/service.ts";
import { label, loadOperations, type Operation, validUrl } from "./openapi-routes.ts";

let svc: TestService;
let operations: Operation[];

beforeAll(async () => {
  svc = await startTestService({ env: { VIGIA_RATE_LIMIT_PER_MINUTE: "100000" } });
  operations = await loadOperations(svc.app!);
});
afterAll(async () => {
  await svc?.stop();
});

const admin = () => auth(svc.project.keys.admin);
const JSON_TYPE = { "content-type": "application/json" };

describe("no body with a JSON content type", () => {
  it("every operation that takes no body answers as without the header", async () => {
    const bodiless = operations.filter((o) => !o.body && o.method !== "GET");
    expect(bodiless.map(label)).toEqual(
      expect.arrayContaining([
        "DELETE /v1/projects/{projectId}/keys/{keyId}",
        "POST /v1/projects/{projectId}/investigations/{id}/close",
      ]),
    );
    const differ: string[] = [];
    for (const op of bodiless) {
      const url = validUrl(op, { projectId: svc.project.id });
      const plain = await svc.app!.inject({ method: op.method, url, headers: admin() });
      for (const headers of [
        { ...admin(), ...JSON_TYPE },
        { ...admin(), ...JSON_TYPE, "content-length": "0" },
        { ...admin(), "content-type": "application/json; charset=utf-8" },
      ]) {
        const json = await svc.app!.inject({ method: op.method, url, headers, payload: "" });
        if (json.statusCode !== plain.statusCode || json.json().error !== plain.json().error)
          differ.push(
            `${label(op)}: ${json.statusCode} ${json.body.slice(0, 200)} (without: ${plain.statusCode})`,
          );
      }
    }
    expect(differ).toEqual([]);
  });

  it("revokes a key with DELETE, content-type: application/json and no body", async () => {
    const created = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/keys`,
      headers: admin(),
      payload: { label: "client" },
    });
    const keyId = created.json().data;
    const res = await svc.app!.inject({
      method: "DELETE",
      url: `/v1/projects/${svc.project.id}/keys/${keyId}`,
      headers: { ...admin(), ...JSON_TYPE },
      payload: "",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
  });

  it("takes no body for an operation whose body is optional (the secret's rotation)", async () => {
    const res = await svc.app!.inject({
      method: "POST",
      url: `/v1/projects/${svc.project.id}/webhook-secret`,
      headers: { ...admin(), ...JSON_TYPE },
      payload: "",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.webhook_secret).toMatch(/^whsec_/);
  });

  it("still says the body is empty where one is required, and still refuses fields where none is taken", async () => {
    const empty = await svc.app!.inject({
      method: "POST",
      url: "/v1/reports/generate",
      headers: { ...admin(), ...JSON_TYPE },
      payload: "",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([
      { path: "/", message: "the body is empty: send a JSON object, or no content-type header" },
    ]);
    const fields = await svc.app!.inject({
      method: "DELETE",
      url: `/v1/projects/${svc.project.id}/keys/999999`,
      headers: { ...admin(), ...JSON_TYPE },
      payload: '{"reason":"x"}',
    });
    expect(fields.statusCode).toBe(400);
    const notJson = await svc.app!.inject({
      method: "DELETE",
      url: `/v1/projects/${svc.project.id}/keys/999999`,
      headers: { ...admin(), ...JSON_TYPE },
      payload: "{",
    });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().details[0].message).toMatch(/not valid JSON/);
  });
});
